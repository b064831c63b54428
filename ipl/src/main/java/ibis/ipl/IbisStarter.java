package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public abstract class IbisStarter {
    protected IbisStarter(String nickName, String iplVersion, String implementationVersion) {
        // TODO
    }

    public String getNickName() {
        throw new UnsupportedOperationException("not yet");
    }

    public String getIplVersion() {
        throw new UnsupportedOperationException("not yet");
    }

    public String getImplementationVersion() {
        throw new UnsupportedOperationException("not yet");
    }

    public abstract boolean matches(IbisCapabilities capabilities, PortType[] portTypes);

    public abstract CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes);

    public abstract PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes);

    public abstract Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties, IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes, String specifiedSubImplementation) throws IbisCreationFailedException;
}
