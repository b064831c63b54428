package ibis.ipl;

/** Fake starter "fake-alpha": rank 5, closed world and strict elections. */
public final class FakeAlphaStarter extends FakeStarter {
    public FakeAlphaStarter() {
        super("fake-alpha", 5,
                join(PORT_CAPABILITIES, IbisCapabilities.CLOSED_WORLD, IbisCapabilities.ELECTIONS_STRICT));
    }
}
