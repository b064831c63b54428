package org.example.loop;

import ibis.ipl.Credentials;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.AbstractIbis;
import ibis.ipl.impl.BaseIbisStarter;

import java.util.Properties;

/** Starter of the "loop" implementation: plain blocking java.net sockets. */
public final class LoopIbisStarter extends BaseIbisStarter {

    public static final String NICKNAME = "loop";

    public LoopIbisStarter() {
        super(NICKNAME, "3.0", LoopIbisStarter.class);
    }

    @Override
    public int rank() {
        return Integer.getInteger("org.example.loop.rank", 5);
    }

    @Override
    public String unavailableReason() {
        return System.getProperty("org.example.loop.unavailable");
    }

    @Override
    public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) throws IbisCreationFailedException {
        return new LoopIbis(this, handler, capabilities, credentials, applicationTag, portTypes, userProperties);
    }

    static final class LoopIbis extends AbstractIbis {
        LoopIbis(LoopIbisStarter starter, RegistryEventHandler handler, IbisCapabilities capabilities,
                Credentials credentials, byte[] tag, PortType[] portTypes, Properties properties)
                throws IbisCreationFailedException {
            super(starter, handler, capabilities, credentials, tag, portTypes, properties, LoopTransport::new);
        }
    }
}
