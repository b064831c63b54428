package ibis.impl.tcp;

import ibis.ipl.Credentials;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisStarter;
import ibis.ipl.MessageUpcall;
import ibis.ipl.PortType;
import ibis.ipl.ReceivePortConnectUpcall;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.SendPortDisconnectUpcall;
import ibis.ipl.impl.AbstractIbis;
import ibis.ipl.impl.AbstractReceivePort;
import ibis.ipl.impl.AbstractSendPort;

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

    @Override
    protected AbstractSendPort newSendPort(PortType type, String name, SendPortDisconnectUpcall upcall,
            Properties portProperties) {
        return new TcpSendPort(this, type, name, upcall, portProperties);
    }

    @Override
    protected AbstractReceivePort newReceivePort(PortType type, String name, MessageUpcall upcall,
            ReceivePortConnectUpcall connectUpcall, Properties portProperties) {
        return new TcpReceivePort(this, type, name, upcall, connectUpcall, portProperties);
    }

    /** Ends this Ibis abruptly: connections break without CLOSE messages (for failure tests). */
    public void endAbruptly() {
        abort();
    }

    /** A send port of a {@link TcpIbis}; all behaviour comes from the base. */
    static final class TcpSendPort extends AbstractSendPort {
        TcpSendPort(TcpIbis ibis, PortType type, String name, SendPortDisconnectUpcall upcall, Properties properties) {
            super(ibis, type, name, upcall, properties);
        }
    }

    /** A receive port of a {@link TcpIbis}; all behaviour comes from the base. */
    static final class TcpReceivePort extends AbstractReceivePort {
        TcpReceivePort(TcpIbis ibis, PortType type, String name, MessageUpcall upcall,
                ReceivePortConnectUpcall connectUpcall, Properties properties) {
            super(ibis, type, name, upcall, connectUpcall, properties);
        }
    }
}
