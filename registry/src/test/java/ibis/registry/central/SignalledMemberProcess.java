package ibis.registry.central;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.IbisProperties;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.RegistryClient;
import ibis.testsupport.PeerMain;

import java.util.Properties;

/**
 * A pool member in its own JVM that reports the signals it gets (a {@link PeerMain} role): joins
 * the pool given on the command line with the {@code signals} capability and an event handler,
 * prints {@code joined <name>}, then {@code signal <text> from <sender>} for every signal, and
 * stays until its parent goes away. Arguments: server address, pool name.
 */
public final class SignalledMemberProcess implements PeerMain.Role {

    @Override
    public void run(String[] args) throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, args[0]);
        p.setProperty(IbisProperties.POOL_NAME, args[1]);
        RegistryEventHandler handler = new RegistryEventHandler() {
            @Override
            public void joined(IbisIdentifier joinedIbis) {
                // not reported
            }

            @Override
            public void left(IbisIdentifier leftIbis) {
                // not reported
            }

            @Override
            public void died(IbisIdentifier corpse) {
                // not reported
            }

            @Override
            public void gotSignal(String signal, IbisIdentifier source) {
                PeerMain.say("signal " + signal + " from " + source.name());
            }

            @Override
            public void electionResult(String electionName, IbisIdentifier winner) {
                // not reported
            }

            @Override
            public void poolClosed() {
                // not reported
            }

            @Override
            public void poolTerminated(IbisIdentifier source) {
                // not reported
            }
        };
        RegistryClient client = new CentralRegistryProvider().join(new IbisCapabilities(IbisCapabilities.SIGNALS,
                IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED), handler, p, "test", new byte[0], null);
        client.enableEvents();
        PeerMain.say("joined " + client.identifier().name());
        PeerMain.stayUntilParentGoes();
    }
}
