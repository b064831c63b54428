package ibis.ipl;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Base of the fake Ibis starters used by the factory tests: a starter with a fixed rank that offers
 * a fixed set of capabilities (Ibis and port capabilities in one set) and starts a {@link FakeIbis}.
 */
public abstract class FakeStarter extends IbisStarter {

    /** Port capabilities offered by the "full" fake starters (no many-to-many). */
    static final String[] PORT_CAPABILITIES = {
        PortType.CONNECTION_ONE_TO_ONE, PortType.CONNECTION_ONE_TO_MANY, PortType.CONNECTION_MANY_TO_ONE,
        PortType.SERIALIZATION_BYTE, PortType.SERIALIZATION_DATA, PortType.SERIALIZATION_OBJECT,
        PortType.RECEIVE_EXPLICIT, PortType.COMMUNICATION_FIFO,
    };

    /** The factory given to the last startIbis call of any fake starter. */
    static volatile IbisFactory lastFactory;

    private final int rank;
    private final CapabilitySet offered;

    protected FakeStarter(String nickName, int rank, String... offered) {
        super(nickName, "3.0", "test");
        this.rank = rank;
        this.offered = new CapabilitySet(offered);
    }

    static String[] join(String[] a, String... b) {
        String[] result = new String[a.length + b.length];
        System.arraycopy(a, 0, result, 0, a.length);
        System.arraycopy(b, 0, result, a.length, b.length);
        return result;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public boolean matches(IbisCapabilities capabilities, PortType[] portTypes) {
        return unmatchedIbisCapabilities(capabilities, portTypes).size() == 0
                && unmatchedPortTypes(capabilities, portTypes).length == 0;
    }

    @Override
    public CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes) {
        return offered.unmatchedCapabilities(capabilities);
    }

    @Override
    public PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes) {
        List<PortType> result = new ArrayList<>();
        for (PortType t : portTypes) {
            if (!offered.matchCapabilities(t)) {
                result.add(t);
            }
        }
        return result.toArray(new PortType[0]);
    }

    @Override
    public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) {
        lastFactory = factory;
        return new FakeIbis(getNickName(), userProperties, capabilities, specifiedSubImplementation, applicationTag);
    }
}
