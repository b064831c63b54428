package ibis.impl.ucx;

import ibis.ipl.Credentials;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.AbstractIbis;

import java.util.Properties;

/**
 * An Ibis instance over UCX: the implementation base ({@link AbstractIbis}) with a
 * {@link UcxTransport}. Created by {@link UcxIbisStarter}.
 */
public final class UcxIbis extends AbstractIbis {

    UcxIbis(IbisStarter starter, RegistryEventHandler handler, IbisCapabilities capabilities, Credentials credentials,
            byte[] applicationTag, PortType[] portTypes, Properties properties) throws IbisCreationFailedException {
        super(starter, handler, capabilities, credentials, applicationTag, portTypes, properties, UcxTransport::new);
    }

    /** The UCX transport of this Ibis (its side channel's address, for diagnostics). */
    public UcxTransport ucxTransport() {
        return (UcxTransport) transport();
    }

    /** Ends this Ibis abruptly: connections break without CLOSE messages (for failure tests). */
    public void endAbruptly() {
        abort();
    }
}
