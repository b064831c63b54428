package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.rmi.impl.RmiRuntime;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.RmiTestPool;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.ServerNotActiveException;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * {@code java.rmi.server.RemoteServer}'s statics on Ibis RMI's {@code UnicastRemoteObject}:
 * {@code getClientHost} inside and outside a remote call, and the call log of
 * {@code setLog}/{@code getLog}.
 */
public class RemoteServerStaticsTest {

    /** What the server sees of a call. */
    public interface HostReporter extends Remote {
        String clientHost() throws RemoteException;

        String clientHostFromAnotherThread() throws RemoteException;
    }

    /** Reports the client host of the call it serves. */
    public static final class Reporter extends UnicastRemoteObject implements HostReporter {
        private static final long serialVersionUID = 1L;

        Reporter() throws RemoteException {
        }

        @Override
        public String clientHost() throws RemoteException {
            try {
                return UnicastRemoteObject.getClientHost();
            } catch (ServerNotActiveException e) {
                throw new RemoteException("no client host inside a remote call", e);
            }
        }

        @Override
        public String clientHostFromAnotherThread() throws RemoteException {
            String[] result = new String[1];
            Thread t = new Thread(() -> {
                try {
                    result[0] = UnicastRemoteObject.getClientHost();
                } catch (ServerNotActiveException e) {
                    result[0] = "not active";
                }
            });
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return result[0];
        }
    }

    private Reporter reporter;

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
        reporter = new Reporter();
    }

    @AfterClass(alwaysRun = true)
    public void stop() throws Exception {
        UnicastRemoteObject.setLog(null);
        if (reporter != null) {
            UnicastRemoteObject.unexportObject(reporter, true);
        }
    }

    @Test(timeOut = 60_000)
    public void getClientHostNamesTheCallersHostInsideACallOnly() throws Exception {
        HostReporter stub = (HostReporter) UnicastRemoteObject.toStub(reporter);
        String expected = RmiRuntime.get().ibis().identifier().location().getLevel(0);
        assertEquals(stub.clientHost(), expected, "the calling member's host (this JVM's)");
        assertEquals(stub.clientHostFromAnotherThread(), "not active", "a thread the method started serves no call");
        expectThrows(ServerNotActiveException.class, UnicastRemoteObject::getClientHost);
    }

    @Test(timeOut = 60_000)
    public void setLogLogsEveryCallWithItsMethodUntilItIsTurnedOff() throws Exception {
        HostReporter stub = (HostReporter) UnicastRemoteObject.toStub(reporter);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        UnicastRemoteObject.setLog(log);
        assertSame(UnicastRemoteObject.getLog(), log);
        stub.clientHost();
        stub.clientHost();
        UnicastRemoteObject.setLog(null);
        assertNull(UnicastRemoteObject.getLog());
        stub.clientHost();
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(lines.length, 2, "one line per call while logging: " + bytes);
        for (String line : lines) {
            assertTrue(line.contains(Reporter.class.getName() + ".clientHost"), line);
            assertTrue(line.contains(RmiRuntime.get().ibis().identifier().toString()), line);
        }
    }
}
