package ibis.ipl;

import java.util.Properties;

/** Fake starter "fake-broken": only matches its own test capability, and fails to start. */
public final class FakeBrokenStarter extends FakeStarter {

    /** The capability only this starter offers. */
    static final String CAPABILITY = "fake.broken";

    public FakeBrokenStarter() {
        super("fake-broken", -1, CAPABILITY);
    }

    @Override
    public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) {
        throw new IllegalStateException("no network here");
    }
}
