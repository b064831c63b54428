package ibis.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.rmi.impl.GeneratedCode;
import ibis.rmi.server.RemoteStub;
import ibis.rmi.server.UnicastRemoteObject;
import ibis.rmi.testing.PublicTally;
import ibis.rmi.testing.RmiTestPool;
import ibis.rmi.testing.TallyUse;
import ibis.testsupport.ChildJvm;

import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.ExportException;

import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * Remote interfaces, parameter and result classes that are not public, as java.rmi allows and the
 * earlier Ibis RMI's programs declare them: the run time generates their stubs and skeletons in
 * their package.
 */
public class PackagePrivateRemoteInterfaceTest {

    @BeforeClass
    public void start() throws Exception {
        RmiTestPool.start();
    }

    @Test(timeOut = 90_000)
    public void packagePrivateRemoteInterfacesWorkAcrossJvms() throws Exception {
        try (ChildJvm server = RmiTestPool.startChild("tally-server", "pp-tally")) {
            long pid = Long.parseLong(server.awaitLine("READY", 30_000).substring(6).trim());
            String[] r = TallyUse.exercise("//localhost/pp-tally").split(" ");
            assertEquals(Long.parseLong(r[0]), pid, "served by the child");
            assertEquals(r[1], "15", "add on the server's tally (10 + 5)");
            assertEquals(r[2], "15", "total");
            assertEquals(r[3], "107", "the server called back a tally of this JVM (100 + 7)");
            assertEquals(r[4], "107", "and changed it here");
            assertEquals(r[5], "42", "a tally the server created and returned (40 + 2)");
            assertTrue(r[6].startsWith("ibis.rmi.testing."), "stub in the interface's package: " + r[6]);
            assertTrue(GeneratedCode.runtimeGenerated().contains(r[6]), GeneratedCode.runtimeGenerated().toString());
        }
    }

    @Test(timeOut = 90_000)
    public void packagePrivateParameterAndResultClassesOfAPublicInterfaceWorkAcrossJvms() throws Exception {
        try (ChildJvm server = RmiTestPool.startChild("tally-server", "pp-ledger")) {
            server.awaitLine("READY", 30_000);
            String[] r = TallyUse.exerciseLedger("//localhost/pp-ledger-ledger").split(" ");
            assertEquals(r[0], "balance=7", "a package-private result");
            assertEquals(r[1], "[a=3,b=4]", "package-private parameters, an array of them as result");
            assertTrue(r[2].startsWith("ibis.rmi.testing."), "stub in the classes' package: " + r[2]);
        }
    }

    @Test(timeOut = 60_000)
    public void aLocalLookupGivesAStubOfThePackagePrivateInterface() throws Exception {
        Remote exported = TallyUse.newTally(3);
        Naming.rebind("pp-local", exported);
        Remote found = Naming.lookup("pp-local");
        assertTrue(found instanceof RemoteStub, found.getClass().getName());
        assertTrue(TallyUse.isTally(found), "the stub implements the package-private interface");
        assertEquals(found, UnicastRemoteObject.toStub(exported));
        Naming.unbind("pp-local");
    }

    /** Package-private here, in another package than the non-public interface PublicTally extends. */
    interface Own extends Remote {
        int own() throws RemoteException;
    }

    /** Implements non-public remote interfaces of two packages: no generated class can implement both. */
    static final class Mixed extends UnicastRemoteObject implements PublicTally, Own {
        private static final long serialVersionUID = 1L;

        Mixed() throws RemoteException {
        }

        @Override
        public int add(int x) {
            return x;
        }

        @Override
        public int own() {
            return 1;
        }
    }

    @Test(timeOut = 60_000)
    public void nonPublicInterfacesOfTwoPackagesAreRefusedWhenExported() {
        ExportException e = expectThrows(ExportException.class, Mixed::new);
        assertTrue(e.getMessage().contains("different packages"), e.getMessage());
    }
}
