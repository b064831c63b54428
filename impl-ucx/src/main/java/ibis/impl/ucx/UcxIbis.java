package ibis.impl.ucx;

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

    @Override
    protected AbstractSendPort newSendPort(PortType type, String name, SendPortDisconnectUpcall upcall,
            Properties portProperties) {
        return new UcxSendPort(this, type, name, upcall, portProperties);
    }

    @Override
    protected AbstractReceivePort newReceivePort(PortType type, String name, MessageUpcall upcall,
            ReceivePortConnectUpcall connectUpcall, Properties portProperties) {
        return new UcxReceivePort(this, type, name, upcall, connectUpcall, portProperties);
    }

    /** Ends this Ibis abruptly: connections break without CLOSE messages (for failure tests). */
    public void endAbruptly() {
        abort();
    }

    /** A send port of a {@link UcxIbis}; all behaviour comes from the base. */
    static final class UcxSendPort extends AbstractSendPort {
        UcxSendPort(UcxIbis ibis, PortType type, String name, SendPortDisconnectUpcall upcall, Properties properties) {
            super(ibis, type, name, upcall, properties);
        }
    }

    /** A receive port of a {@link UcxIbis}; all behaviour comes from the base. */
    static final class UcxReceivePort extends AbstractReceivePort {
        UcxReceivePort(UcxIbis ibis, PortType type, String name, MessageUpcall upcall,
                ReceivePortConnectUpcall connectUpcall, Properties properties) {
            super(ibis, type, name, upcall, connectUpcall, properties);
        }
    }
}
