package ibis.ipl;

/**
 * Fake starter "fake-unavailable": the highest rank (100) and every capability the other fakes
 * offer, but it cannot run here ({@link #unavailableReason()}), as a native implementation whose
 * library is missing.
 */
public final class FakeUnavailableStarter extends FakeStarter {

    /** What {@link #unavailableReason()} says. */
    static final String REASON = "libfake-native.so not found in java.library.path";

    public FakeUnavailableStarter() {
        super("fake-unavailable", 100, join(PORT_CAPABILITIES, IbisCapabilities.CLOSED_WORLD,
                IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.SIGNALS, FakeBrokenStarter.CAPABILITY));
    }

    @Override
    public String unavailableReason() {
        return REASON;
    }
}
