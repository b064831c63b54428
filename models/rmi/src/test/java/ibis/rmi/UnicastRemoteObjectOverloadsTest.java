package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Callback;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.RmiTestPool;

import java.io.ObjectInputFilter;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.ExportException;
import java.rmi.server.RMIClientSocketFactory;
import java.rmi.server.RMIServerSocketFactory;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Every constructor and {@code exportObject} overload of the JDK's UnicastRemoteObject, with the
 * same parameter types, exports an object that answers calls; ports, socket factories and filters
 * are ignored; {@code clone()} exports a copy.
 */
public class UnicastRemoteObjectOverloadsTest {

    private final List<Remote> exported = new ArrayList<>();

    /** A callback whose class is Cloneable, exported by the constructor under test. */
    public static final class CloneableCallback extends UnicastRemoteObject implements Callback, java.lang.Cloneable {
        private static final long serialVersionUID = 1L;
        private final int base;

        CloneableCallback(int base, int constructor) throws RemoteException {
            super(0);
            this.base = base;
        }

        CloneableCallback(int base) throws RemoteException {
            super();
            this.base = base;
        }

        CloneableCallback(int base, RMIClientSocketFactory csf, RMIServerSocketFactory ssf) throws RemoteException {
            super(1234, csf, ssf);
            this.base = base;
        }

        @Override
        public int call(int x) {
            return base + x;
        }

        @Override
        public long pid() {
            return ProcessHandle.current().pid();
        }

        Object copy() throws CloneNotSupportedException {
            return clone();
        }
    }

    /** Not Cloneable: clone() refuses. */
    public static final class NotCloneable extends UnicastRemoteObject implements Callback {
        private static final long serialVersionUID = 1L;

        NotCloneable() throws RemoteException {
        }

        @Override
        public int call(int x) {
            return x;
        }

        @Override
        public long pid() {
            return 0;
        }

        Object copy() throws CloneNotSupportedException {
            return clone();
        }
    }

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
    }

    @AfterClass(alwaysRun = true)
    public void unexport() {
        for (Remote r : exported) {
            try {
                UnicastRemoteObject.unexportObject(r, true);
            } catch (java.rmi.NoSuchObjectException e) {
                // already gone
            }
        }
    }

    private Echo export(java.util.function.Function<EchoImpl, Remote> how) {
        EchoImpl impl = new EchoImpl();
        exported.add(impl);
        return (Echo) how.apply(impl);
    }

    private static Remote unchecked(RemoteCall call) {
        try {
            return call.run();
        } catch (RemoteException e) {
            throw new AssertionError(e);
        }
    }

    private interface RemoteCall {
        Remote run() throws RemoteException;
    }

    @Test(timeOut = 60_000)
    public void everyExportObjectOverloadExports() throws Exception {
        RMIClientSocketFactory csf = (host, port) -> {
            throw new AssertionError("the client socket factory is never used");
        };
        RMIServerSocketFactory ssf = port -> {
            throw new AssertionError("the server socket factory is never used");
        };
        ObjectInputFilter filter = ObjectInputFilter.Config.createFilter("!*");
        EchoImpl first = new EchoImpl();
        exported.add(first);
        RemoteStub s0 = UnicastRemoteObject.exportObject(first); // the JDK's deprecated one returns a RemoteStub too
        List<Echo> stubs = List.of((Echo) s0,
                export(i -> unchecked(() -> UnicastRemoteObject.exportObject(i, 0))),
                export(i -> unchecked(() -> UnicastRemoteObject.exportObject(i, 1099, csf, ssf))),
                export(i -> unchecked(() -> UnicastRemoteObject.exportObject(i, 0, filter))),
                export(i -> unchecked(() -> UnicastRemoteObject.exportObject(i, 7, csf, ssf, filter))));
        for (Echo e : stubs) {
            assertTrue(e instanceof RemoteStub, String.valueOf(e));
            assertEquals(e.echoInt(41), 41);
            // The filter "!*" would refuse every class: it is not applied (Ibis serialization reads).
            assertEquals(e.echoString("text"), "text");
        }
        ExportException again = expectThrows(ExportException.class,
                () -> UnicastRemoteObject.exportObject((Remote) exported.get(1), 0, csf, ssf));
        assertTrue(again.getMessage().contains("already exported"), again.getMessage());
    }

    @Test(timeOut = 60_000)
    public void everyConstructorExportsAndCloneExportsACopy() throws Exception {
        CloneableCallback a = new CloneableCallback(1);
        CloneableCallback b = new CloneableCallback(2, 0);
        CloneableCallback c = new CloneableCallback(3, null, null);
        CloneableCallback d = (CloneableCallback) c.copy();
        exported.addAll(List.of(a, b, c, d));
        assertNotSame(d, c);
        int sum = 0;
        for (CloneableCallback x : List.of(a, b, c, d)) {
            sum += ((Callback) UnicastRemoteObject.toStub(x)).call(100);
        }
        assertEquals(sum, 101 + 102 + 103 + 103);
        assertTrue(!UnicastRemoteObject.toStub(d).equals(UnicastRemoteObject.toStub(c)),
                "the clone is exported on its own");
        NotCloneable n = new NotCloneable();
        exported.add(n);
        expectThrows(CloneNotSupportedException.class, n::copy);
    }
}
