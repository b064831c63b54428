package ibis.impl.mpi;

import ibis.ipl.Credentials;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.AbstractIbis;

import java.util.Properties;

/**
 * An Ibis instance over MPI: the implementation base ({@link AbstractIbis}) with an
 * {@link MpiTransport}. Created by {@link MpiIbisStarter}.
 */
public final class MpiIbis extends AbstractIbis {

    MpiIbis(IbisStarter starter, RegistryEventHandler handler, IbisCapabilities capabilities, Credentials credentials,
            byte[] applicationTag, PortType[] portTypes, Properties properties) throws IbisCreationFailedException {
        super(starter, handler, capabilities, credentials, applicationTag, portTypes, properties, MpiTransport::new);
    }

    /** The MPI transport of this Ibis. */
    public MpiTransport mpiTransport() {
        return (MpiTransport) transport();
    }
}
