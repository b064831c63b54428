package ibis.ipl;

/** Fake starter "fake-gamma": the highest rank (10) but few capabilities (one-to-one byte ports, signals). */
public final class FakeGammaStarter extends FakeStarter {
    public FakeGammaStarter() {
        super("fake-gamma", 10, PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_BYTE, IbisCapabilities.SIGNALS);
    }
}
