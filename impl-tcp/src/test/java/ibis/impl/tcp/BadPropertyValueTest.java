package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;
import ibis.ipl.PortType;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.registry.RegistryProperties;
import ibis.registry.server.CentralRegistryServer;

import java.util.Properties;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * A bad property value is reported the same way whichever layer reads it (the shared base, the
 * TCP transport, the registry client): {@code createIbis} fails with an
 * {@link IbisConfigurationException} that names the property, the value and what is accepted.
 */
public class BadPropertyValueTest {

    private CentralRegistryServer server;

    @BeforeClass
    public void startServer() throws Exception {
        server = new CentralRegistryServer(0, new Properties());
        server.start();
    }

    @AfterClass(alwaysRun = true)
    public void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @DataProvider
    public Object[][] badValues() {
        return new Object[][] {
            {ImplPropertyTable.RECEIVE_SPIN_MICROS, "fast", "a whole number ≥ 0"},
            {ImplPropertyTable.BUFFER_SIZE, "32", "a whole number from 64 to 16777216"},
            {TcpPropertyTable.PORT, "70000", "a whole number from 0 to 65535"},
            {TcpPropertyTable.READ_AHEAD, "-5", "a whole number from 16 to 1048576"},
            {RegistryProperties.HEARTBEAT_INTERVAL, "often", "a whole number ≥ 1"},
        };
    }

    @Test(dataProvider = "badValues", timeOut = 60_000)
    public void createIbisNamesThePropertyTheValueAndWhatIsAccepted(String property, String value, String accepted) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.IMPLEMENTATION, "tcp");
        p.setProperty(IbisProperties.POOL_NAME, "bad-property-" + property);
        p.setProperty(IbisProperties.SERVER_ADDRESS, server.address());
        p.setProperty(property, value);
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> IbisFactory.createIbis(new IbisCapabilities(), p, true, null,
                        new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_BYTE)).end());
        Throwable cause = e;
        while (cause != null && !(cause instanceof IbisConfigurationException)) {
            cause = cause.getCause();
        }
        assertTrue(cause != null, "no IbisConfigurationException in the causes of " + e);
        assertEquals(cause.getMessage(), "property " + property + " = '" + value + "' is not accepted: expected "
                + accepted);
        assertTrue(e.getMessage().contains(property), e.getMessage());
    }
}
