package ibis.ipl;

/** Fake starter "fake-beta": rank 5 like alpha, and signals on top of alpha's capabilities. */
public final class FakeBetaStarter extends FakeStarter {
    public FakeBetaStarter() {
        super("fake-beta", 5, join(PORT_CAPABILITIES, IbisCapabilities.CLOSED_WORLD, IbisCapabilities.ELECTIONS_STRICT,
                IbisCapabilities.SIGNALS));
    }
}
