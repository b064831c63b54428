package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import ibis.rmi.server.RemoteObject;
import ibis.rmi.server.RemoteRef;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.Callback;
import ibis.rmi.testing.Echo;
import ibis.rmi.testing.EchoImpl;
import ibis.rmi.testing.RmiTestPool;

import java.rmi.Remote;
import java.rmi.RemoteException;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * {@link RemoteObject#getRef()}: the ref identifies the remote object (member and port), and the
 * identity of stubs and exported objects (equals, hashCode, toString) is the ref's.
 */
public class RemoteRefTest {

    /** An exported object of a {@link UnicastRemoteObject} subclass. */
    public static final class Adder extends UnicastRemoteObject implements Callback, Cloneable {
        private static final long serialVersionUID = 1L;
        private final int base;

        Adder(int base) throws RemoteException {
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
    }

    private Echo echo;

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
        echo = (Echo) UnicastRemoteObject.exportObject(new EchoImpl());
    }

    @Test(timeOut = 60_000)
    public void aStubsRefNamesItsMemberAndPortAndDefinesItsIdentity() throws Exception {
        Adder adder = new Adder(5);
        Callback stub = (Callback) UnicastRemoteObject.toStub(adder);
        RemoteRef ref = ((RemoteStub) stub).getRef();
        assertNotNull(ref, "a stub has a ref");
        assertNotNull(ref.member());
        assertNotNull(ref.portName());
        assertEquals(ref.remoteToString(), ref.portName() + "@" + ref.member());
        assertEquals(stub.hashCode(), ref.remoteHashCode());
        assertTrue(stub.toString().contains("[" + ref.remoteToString() + "]"), stub.toString());

        // The stub that travelled through a call (its handle, then a new stub) has an equal ref.
        Callback travelled = (Callback) echo.echoObject(stub);
        assertEquals(travelled.call(1), 6, "the travelled stub calls the same object");
        RemoteRef travelledRef = ((RemoteObject) travelled).getRef();
        assertTrue(travelledRef.remoteEquals(ref) && ref.remoteEquals(travelledRef));
        assertEquals(travelledRef.remoteHashCode(), ref.remoteHashCode());
        assertEquals(travelledRef.remoteToString(), ref.remoteToString());
        assertEquals(travelled, stub);
        assertEquals(travelled.hashCode(), stub.hashCode());

        // Another object: another ref.
        Callback other = (Callback) UnicastRemoteObject.toStub(new Adder(7));
        RemoteRef otherRef = ((RemoteStub) other).getRef();
        assertFalse(otherRef.remoteEquals(ref));
        assertNotEquals(otherRef.remoteToString(), ref.remoteToString());
        assertNotEquals(other, stub);
        assertFalse(ref.remoteEquals(null));
    }

    @Test(timeOut = 60_000)
    public void anExportedObjectHasTheRefOfItsStubsAndEqualsThem() throws Exception {
        Adder adder = new Adder(1);
        Remote stub = UnicastRemoteObject.toStub(adder);
        RemoteRef ref = adder.getRef();
        assertNotNull(ref, "exported: the object has a ref");
        assertTrue(ref.remoteEquals(((RemoteObject) stub).getRef()));
        assertEquals(adder, stub);
        assertEquals(stub, adder);
        assertEquals(adder.hashCode(), stub.hashCode());
        assertEquals(adder.toString(), Adder.class.getName() + "[" + ref.remoteToString() + "]");
        assertEquals(RemoteObject.toStub(adder), stub);
        assertSame(RemoteObject.toStub(stub), stub, "a stub is its own stub");

        // A clone is exported on its own: its own ref, not equal to the original.
        Adder copy = (Adder) adder.clone();
        assertNotNull(copy.getRef());
        assertFalse(copy.getRef().remoteEquals(ref));
        assertNotEquals(copy, adder);
        assertEquals(copy, UnicastRemoteObject.toStub(copy));

        // Unexported, the object keeps its ref (as in the JDK).
        assertTrue(UnicastRemoteObject.unexportObject(adder, true));
        assertSame(adder.getRef(), ref);
    }
}
