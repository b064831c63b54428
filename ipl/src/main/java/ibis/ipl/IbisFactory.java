package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public final class IbisFactory {
    public static final String IPL_MANIFEST_FILE = "ibis/ipl/IPL_MANIFEST";

    public static final String DEFAULT_IMPLEMENTATION = "tcp";

    public static String getManifestProperty(String p) {
        throw new UnsupportedOperationException("not yet");
    }

    public static Ibis createIbis(IbisCapabilities requiredCapabilities, RegistryEventHandler registryEventHandler, PortType... portTypes) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }

    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties, boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, PortType... portTypes) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }

    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties, boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials, PortType... portTypes) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }

    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties, boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials, String tag, PortType... portTypes) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }

    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties, boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials, byte[] tag, PortType... portTypes) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }

    public Ibis createIbis(RegistryEventHandler registryEventHandler, IbisCapabilities requiredCapabilities, Properties properties, Credentials credentials, byte[] applicationTag, PortType[] portTypes, String specifiedImplementation) throws IbisCreationFailedException {
        throw new UnsupportedOperationException("not yet");
    }
}
