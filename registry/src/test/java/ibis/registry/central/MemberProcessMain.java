package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisProperties;
import ibis.ipl.impl.RegistryClient;

import java.util.Properties;

/**
 * A pool member in its own JVM, for the crash tests: joins the pool given on the command line,
 * prints {@code joined <name>}, then waits until its standard input ends (or it is killed).
 * Arguments: server address, pool name.
 */
public final class MemberProcessMain {

    private MemberProcessMain() {
    }

    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, args[0]);
        p.setProperty(IbisProperties.POOL_NAME, args[1]);
        RegistryClient client = new CentralRegistryProvider().join(
                new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED), null, p, "test", new byte[0], null);
        System.out.println("joined " + client.identifier().name());
        System.out.flush();
        while (System.in.read() >= 0) {
            // keep running until the parent closes our input or kills us
        }
        client.leave();
    }
}
