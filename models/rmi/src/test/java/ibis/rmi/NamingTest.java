package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.rmi.registry.LocateRegistry;
import ibis.rmi.registry.Registry;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.RmiTestPool;

import java.net.MalformedURLException;
import java.rmi.AlreadyBoundException;
import java.rmi.NotBoundException;
import java.rmi.server.ExportException;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/** Naming and the registry: bind, rebind, unbind, lookup, list, URLs, their exceptions. */
public class NamingTest {

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
    }

    @Test
    public void urlsAreParsed() throws Exception {
        Naming.ParsedName n = Naming.parse("//somehost:2000/obj");
        assertEquals(n.host, "somehost");
        assertEquals(n.port, 2000);
        assertEquals(n.name, "obj");
        n = Naming.parse("rmi://h/obj");
        assertEquals(n.port, Registry.REGISTRY_PORT);
        assertEquals(n.name, "obj");
        n = Naming.parse("obj");
        assertNull(n.host);
        assertEquals(n.name, "obj");
        assertEquals(Naming.parse("/obj").name, "obj");
        assertEquals(Naming.parse("//:1234/x").port, 1234);
        expectThrows(MalformedURLException.class, () -> Naming.parse("//h:notaport/x"));
        expectThrows(MalformedURLException.class, () -> Naming.parse("//h:99999/x"));
        expectThrows(MalformedURLException.class, () -> Naming.parse("//h/a/b"));
        expectThrows(MalformedURLException.class, () -> Naming.parse("rmi:x"));
    }

    @Test(timeOut = 60_000)
    public void bindLookupRebindUnbindList() throws Exception {
        Echo a = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
        Echo b = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
        Naming.bind("//localhost/naming-a", a);
        expectThrows(AlreadyBoundException.class, () -> Naming.bind("//otherhost/naming-a", b));
        Echo found = (Echo) Naming.lookup("naming-a");
        assertEquals(found, a);
        assertEquals(found.echoInt(12), 12);
        Naming.rebind("naming-a", b);
        assertEquals(Naming.lookup("rmi://localhost:1099/naming-a"), b);
        List<String> names = Arrays.asList(Naming.list("//localhost:1099/"));
        assertTrue(names.contains("//localhost:1099/naming-a"), names.toString());
        Naming.unbind("naming-a");
        expectThrows(NotBoundException.class, () -> Naming.lookup("naming-a"));
        expectThrows(NotBoundException.class, () -> Naming.unbind("naming-a"));
        assertFalse(Arrays.asList(Naming.list("//localhost/")).contains("//localhost:1099/naming-a"));
    }

    /** A remote interface whose method changes its argument. */
    public interface Filler extends java.rmi.Remote {
        /** Fills {@code values} with 7; @return its length */
        int fill(int[] values) throws java.rmi.RemoteException;
    }

    /** Exported by its constructor, as java.rmi servers usually are, and bound as itself. */
    public static final class FillerImpl extends UnicastRemoteObject implements Filler {
        private static final long serialVersionUID = 1L;

        /** Exports it. */
        public FillerImpl() throws java.rmi.RemoteException {
        }

        @Override
        public int fill(int[] values) {
            Arrays.fill(values, 7);
            return values.length;
        }
    }

    @Test(timeOut = 60_000)
    public void aLookupInTheServingJvmGivesAStubWhoseCallsCopyTheirArguments() throws Exception {
        Naming.rebind("naming-local-copy", new FillerImpl());
        Object found = Naming.lookup("naming-local-copy");
        assertTrue(found instanceof ibis.rmi.server.RemoteStub, found.getClass().getName());
        int[] mine = {1, 2, 3};
        assertEquals(((Filler) found).fill(mine), 3);
        assertEquals(mine, new int[] {1, 2, 3}, "the server filled its own copy");
        Naming.unbind("naming-local-copy");
    }

    @Test(timeOut = 60_000)
    public void lookupInARegistryNobodyServesFailsWithConnectException() {
        java.rmi.ConnectException e = expectThrows(java.rmi.ConnectException.class,
                () -> Naming.lookup("//localhost:7777/nothing"));
        assertTrue(e.getMessage().contains("7777"), e.getMessage());
        expectThrows(java.rmi.ConnectException.class, () -> LocateRegistry.getRegistry(7777));
    }

    @Test(timeOut = 60_000)
    public void registryStubFromAnotherNumberIsIndependent() throws Exception {
        Registry own = LocateRegistry.createRegistry(4711);
        expectThrows(ExportException.class, () -> LocateRegistry.createRegistry(4711));
        Echo a = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
        own.bind("only-in-4711", a);
        Registry found = LocateRegistry.getRegistry("anyhost", 4711);
        assertEquals(((Echo) found.lookup("only-in-4711")).echoInt(5), 5);
        expectThrows(NotBoundException.class,
                () -> LocateRegistry.getRegistry().lookup("only-in-4711"));
        assertEquals(Naming.lookup("//x:4711/only-in-4711"), a);
    }

    /** A socket factory that fails the test if Ibis RMI ever used it. */
    private static final class UnusableFactory implements java.rmi.server.RMIClientSocketFactory,
            java.rmi.server.RMIServerSocketFactory, java.io.Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public java.net.Socket createSocket(String host, int port) {
            throw new AssertionError("client socket factory used");
        }

        @Override
        public java.net.ServerSocket createServerSocket(int port) {
            throw new AssertionError("server socket factory used");
        }
    }

    /** The JDK's LocateRegistry overloads with socket factories exist (java.rmi programs call them). */
    @Test(timeOut = 60_000)
    public void registryOverloadsWithSocketFactoriesCreateAndFindTheSameRegistry() throws Exception {
        UnusableFactory f = new UnusableFactory();
        Registry created = LocateRegistry.createRegistry(4712, f, f);
        expectThrows(ExportException.class, () -> LocateRegistry.createRegistry(4712, f, null));
        Echo a = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
        created.bind("factories-4712", a);
        Registry found = LocateRegistry.getRegistry("anyhost", 4712, f);
        assertEquals(((Echo) found.lookup("factories-4712")).echoInt(9), 9);
        assertEquals(Arrays.asList(LocateRegistry.getRegistry(null, 4712, null).list()), List.of("factories-4712"));
    }
}
