package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.impl.RegistryClient;
import ibis.testsupport.PeerMain;

import java.util.Properties;

/**
 * A pool member in its own JVM, for the crash tests (a {@link PeerMain} role): joins the pool given
 * on the command line, prints {@code joined <name>}, then stays until it is killed or its parent
 * goes away. Arguments: server address, pool name.
 */
public final class MemberProcess implements PeerMain.Role {

    @Override
    public void run(String[] args) throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, args[0]);
        p.setProperty(IbisProperties.POOL_NAME, args[1]);
        RegistryClient client = new CentralRegistryProvider().join(
                new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED), null, p, "test", new byte[0], null);
        PeerMain.say("joined " + client.identifier().name());
        PeerMain.stayUntilParentGoes();
    }
}
