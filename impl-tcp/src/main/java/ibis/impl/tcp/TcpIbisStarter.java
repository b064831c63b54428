package ibis.impl.tcp;

import ibis.ipl.Credentials;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.BaseCapabilities;
import ibis.ipl.impl.BaseIbisStarter;

import java.util.Properties;
import java.util.Set;

/**
 * Starts TCP Ibis instances (nickname {@code tcp}); found by {@code IbisFactory} through
 * {@code META-INF/services/ibis.ipl.IbisStarter}. It supports exactly the capabilities listed in
 * {@link #PORT_CAPABILITIES} and {@link #IBIS_CAPABILITIES}.
 */
public final class TcpIbisStarter extends BaseIbisStarter {

    /** The nickname users select this implementation by ({@code ibis.implementation=tcp}). */
    public static final String NICKNAME = "tcp";

    /** The rank among matching implementations (higher wins when the user names none). */
    public static final int RANK = 10;

    /** Every port type capability this implementation honours: all the implementation base offers. */
    public static final Set<String> PORT_CAPABILITIES = BaseCapabilities.PORT_TYPE;

    /** Every Ibis capability this implementation honours: all the base offers (through the central registry). */
    public static final Set<String> IBIS_CAPABILITIES = BaseCapabilities.IBIS;

    private static final String IPL_VERSION = "3.0";

    /** Creates the starter (used by {@link java.util.ServiceLoader}). */
    public TcpIbisStarter() {
        super(NICKNAME, IPL_VERSION, TcpIbisStarter.class);
    }


    /** The rank of this implementation: {@value #RANK}. */
    @Override
    public int rank() {
        return RANK;
    }

    @Override
    public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) throws IbisCreationFailedException {
        return new TcpIbis(this, handler, capabilities, credentials, applicationTag, portTypes, userProperties);
    }
}
