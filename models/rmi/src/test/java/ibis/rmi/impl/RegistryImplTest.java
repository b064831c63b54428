package ibis.rmi.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.NotSerializableException;
import java.rmi.MarshalException;
import java.rmi.NotBoundException;
import java.rmi.Remote;

import org.testng.annotations.Test;

/** The bindings of a registry, in the JVM that serves it. */
public class RegistryImplTest {

    /** A remote interface. */
    public interface Service extends Remote {
    }

    /** Neither exported nor Serializable: no lookup could ever send it. */
    static final class NotSendable implements Service {
    }

    /** Not exported, but Serializable: a lookup sends a copy, as java.rmi does. */
    static final class ByValue implements Service, java.io.Serializable {
        private static final long serialVersionUID = 1L;
    }

    @Test
    public void anObjectNeitherExportedNorSerializableIsRefusedAtTheBind() throws Exception {
        RegistryImpl registry = new RegistryImpl();
        MarshalException bind = expectThrows(MarshalException.class, () -> registry.bind("x", new NotSendable()));
        assertTrue(bind.getMessage().contains("neither exported"), bind.getMessage());
        assertTrue(bind.getCause() instanceof NotSerializableException, String.valueOf(bind.getCause()));
        MarshalException rebind = expectThrows(MarshalException.class,
                () -> registry.rebind("x", new NotSendable()));
        assertTrue(rebind.getMessage().contains("UnicastRemoteObject.exportObject"), rebind.getMessage());
        expectThrows(NotBoundException.class, () -> registry.lookup("x"));
        assertEquals(registry.list().length, 0, "nothing was bound");

        ByValue copy = new ByValue();
        registry.bind("y", copy);
        assertEquals(registry.lookup("y"), copy);
    }
}
