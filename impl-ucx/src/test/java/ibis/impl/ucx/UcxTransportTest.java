package ibis.impl.ucx;

import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.impl.HierarchicalLocation;
import ibis.ipl.impl.MemberIdentifier;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Properties;

import org.testng.annotations.Test;

/** Setting up connections: what {@code connect} reports when it cannot. */
public class UcxTransportTest {

    private static Properties errorMode(String mode) {
        Properties p = new Properties();
        p.setProperty(UcxPropertyTable.ERROR_MODE, mode);
        return p;
    }

    @Test(timeOut = 60_000)
    public void membersWithDifferentErrorModesAreRefusedWithAnErrorNamingTheProperty() throws Exception {
        UcxTransport none = new UcxTransport(errorMode("none"), (sink, source, peer) -> { });
        UcxTransport peer = new UcxTransport(errorMode("peer"), (sink, source, p) -> { });
        try {
            IOException e = expectThrows(IOException.class,
                    () -> none.connect(TransportPair.member("peer", peer), 10_000));
            assertTrue(e.getMessage().contains(UcxPropertyTable.ERROR_MODE + "=peer"), e.getMessage());
        } finally {
            none.close();
            peer.close();
        }
    }

    @Test(timeOut = 60_000)
    public void connectingWhereNobodyListensGivesConnectException() throws Exception {
        UcxTransport transport = new UcxTransport(new Properties(), (sink, source, peer) -> { });
        try {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            byte[] contact = new UcxContactData(UcxNative.workerAddress(transport.worker().handle),
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).toBytes();
            MemberIdentifier gone = new MemberIdentifier("gone", "pool", new HierarchicalLocation("gone"), null,
                    UcxIbisStarter.NICKNAME, contact);
            expectThrows(ConnectException.class, () -> transport.connect(gone, 10_000));
        } finally {
            transport.close();
        }
    }

    @Test
    public void anUnknownErrorModeIsAConfigurationError() {
        expectThrows(RuntimeException.class, () -> new UcxTransport(errorMode("sometimes"), (a, b, c) -> { }));
    }
}
