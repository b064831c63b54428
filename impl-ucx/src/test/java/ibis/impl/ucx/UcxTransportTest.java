package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
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

    /** Properties with one entry. */
    private static Properties property(String name, String value) {
        Properties p = new Properties();
        p.setProperty(name, value);
        return p;
    }

    private static Properties errorMode(String mode) {
        return property(UcxPropertyTable.ERROR_MODE, mode);
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

    /** The protocols UCX chose for {@code ucp_tag_send_nbx} on a new connection's endpoint, per message size. */
    private static String tagSendProtocols(Properties properties) throws Exception {
        assertNull(System.getenv("UCX_RNDV_THRESH"), "this test needs UCX_RNDV_THRESH unset (it would win)");
        try (TransportPair pair = new TransportPair(properties)) {
            TransportPair.Connection c = pair.connect();
            String info = UcxNative.endpointInfo(((UcxByteSink) c.connector().sink()).connection().endpoint);
            for (String line : info.split("\n")) {
                if (line.contains("tag_send_nbr:")) {
                    return line.trim();
                }
            }
            throw new AssertionError("ucp_ep_print_info names no tag_send_nbr protocols: " + info);
        }
    }

    private static Properties eagerMax(String value) {
        return property(UcxPropertyTable.EAGER_MAX, value);
    }

    @Test(timeOut = 60_000)
    public void eagerMaxInfSendsEveryMessageEagerlyWithoutRendezvous() throws Exception {
        String protocols = tagSendProtocols(eagerMax("inf"));
        assertTrue(protocols.contains("egr/"), protocols);
        assertFalse(protocols.contains("rndv"), protocols);
    }

    @Test(timeOut = 60_000)
    public void byDefaultUcxKeepsItsRendezvous() throws Exception {
        String protocols = tagSendProtocols(new Properties());
        assertTrue(protocols.contains("<rndv>"), protocols);
    }

    @Test(timeOut = 60_000)
    public void eagerMaxInBytesIsWhereRendezvousStarts() throws Exception {
        String protocols = tagSendProtocols(eagerMax("64k"));
        assertTrue(protocols.contains("..65536..<rndv>"), protocols);
    }

    @Test
    public void eagerMaxValuesAreReadAsUcxTakesThem() {
        assertEquals(UcxPropertyTable.rndvThreshold(new Properties()), "auto");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax("inf")), "inf");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax(" AUTO ")), "auto");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax("65536")), "65536");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax("64k")), "65536");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax("1MB")), "1048576");
        assertEquals(UcxPropertyTable.rndvThreshold(eagerMax("2g")), "2147483648");
    }

    @Test
    public void aBadEagerMaxIsAConfigurationErrorNamingTheProperty() {
        for (String bad : new String[] {"lots", "-1", "12q", "k"}) {
            RuntimeException e = expectThrows(RuntimeException.class,
                    () -> new UcxTransport(eagerMax(bad), (a, b, c) -> { }));
            assertTrue(e.getMessage().contains(UcxPropertyTable.EAGER_MAX), bad + ": " + e.getMessage());
        }
    }

    @Test
    public void anUnknownErrorModeIsAConfigurationError() {
        expectThrows(RuntimeException.class, () -> new UcxTransport(errorMode("sometimes"), (a, b, c) -> { }));
    }
}
