package ibis.impl.mpi.registry;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.ipl.impl.RegistryProvider;

import java.util.Properties;
import java.util.ServiceLoader;

import org.testng.annotations.Test;

/** The provider is found by its name and is the default registry of {@code mpi} without a server. */
public class MpiRegistryProviderTest {

    @Test
    public void itIsRegisteredAsAServiceNamedMpi() {
        boolean found = false;
        for (RegistryProvider p : ServiceLoader.load(RegistryProvider.class)) {
            found |= p.name().equals("mpi") && p instanceof MpiRegistryProvider;
        }
        assertTrue(found, "META-INF/services/ibis.ipl.impl.RegistryProvider lists MpiRegistryProvider");
        assertEquals(new MpiRegistryProvider().name(), "mpi");
    }

    @Test
    public void itIsTheDefaultRegistryOfMpiWithoutAServerAddress() {
        MpiRegistryProvider provider = new MpiRegistryProvider();
        assertTrue(provider.isDefaultFor("mpi", new Properties()));
        assertFalse(provider.isDefaultFor("tcp", new Properties()));
        Properties withServer = new Properties();
        withServer.setProperty("ibis.server.address", "head:8888");
        assertFalse(provider.isDefaultFor("mpi", withServer), "a server address asks for the central registry");
    }
}
