package ibis.impl.mpi;

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
 * Starts MPI Ibis instances (nickname {@code mpi}); found by {@code IbisFactory} through
 * {@code META-INF/services/ibis.ipl.IbisStarter}. It supports the capabilities of the implementation
 * base, and is unavailable ({@link #unavailableReason()}) where neither the JNI glue nor Open MPI's
 * Java bindings can be loaded. It ranks below tcp, so it is used when named only.
 */
public final class MpiIbisStarter extends BaseIbisStarter {

    /** The nickname users select this implementation by ({@code ibis.implementation=mpi}). */
    public static final String NICKNAME = "mpi";

    /** The rank among matching implementations (higher wins when the user names none). */
    public static final int RANK = 4;

    /** Every port type capability this implementation honours: all the implementation base offers. */
    public static final Set<String> PORT_CAPABILITIES = BaseCapabilities.PORT_TYPE;

    /** Every Ibis capability this implementation honours: all the base offers (through the central registry). */
    public static final Set<String> IBIS_CAPABILITIES = BaseCapabilities.IBIS;

    private static final String IPL_VERSION = "3.0";

    /** Creates the starter (used by {@link java.util.ServiceLoader}). */
    public MpiIbisStarter() {
        super(NICKNAME, IPL_VERSION, MpiIbisStarter.class);
    }

    /** Why MPI cannot be used in this JVM (no glue library and no bindings), or null when it may. */
    @Override
    public String unavailableReason() {
        return MpiProcess.unavailableReason(null);
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
        return new MpiIbis(this, handler, capabilities, credentials, applicationTag, portTypes, userProperties);
    }
}
