package ibis.impl.tcp;

import ibis.ipl.Credentials;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.AbstractIbis;

import java.util.Properties;

/**
 * An Ibis instance over TCP: the implementation base ({@link AbstractIbis}) with a
 * {@link TcpTransport}. Created by {@link TcpIbisStarter}.
 */
public final class TcpIbis extends AbstractIbis {

    TcpIbis(IbisStarter starter, RegistryEventHandler handler, IbisCapabilities capabilities, Credentials credentials,
            byte[] applicationTag, PortType[] portTypes, Properties properties) throws IbisCreationFailedException {
        super(starter, handler, capabilities, credentials, applicationTag, portTypes, properties, TcpTransport::new);
    }

    /** The TCP transport of this Ibis (its listening address, for diagnostics). */
    public TcpTransport tcpTransport() {
        return (TcpTransport) transport();
    }

    /** Ends this Ibis abruptly: connections break without CLOSE messages (for failure tests). */
    public void endAbruptly() {
        abort();
    }
}
