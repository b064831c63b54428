package ibis.impl.ucx;

import ibis.ipl.CapabilitySet;
import ibis.ipl.Credentials;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;
import ibis.ipl.RegistryEventHandler;
import ibis.ipl.impl.BaseCapabilities;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * Starts UCX Ibis instances (nickname {@code ucx}); found by {@code IbisFactory} through
 * {@code META-INF/services/ibis.ipl.IbisStarter}. It supports exactly the capabilities listed in
 * {@link #PORT_CAPABILITIES} and {@link #IBIS_CAPABILITIES}, and is unavailable
 * ({@link #unavailableReason()}) where its native library or UCX cannot be loaded. It ranks below
 * tcp for now, so it is used when named only.
 */
public final class UcxIbisStarter extends IbisStarter {

    /** The nickname users select this implementation by ({@code ibis.implementation=ucx}). */
    public static final String NICKNAME = "ucx";

    /** The rank among matching implementations (higher wins when the user names none). */
    public static final int RANK = 5;

    /** Every port type capability this implementation honours: all the implementation base offers. */
    public static final Set<String> PORT_CAPABILITIES = BaseCapabilities.PORT_TYPE;

    /** Every Ibis capability this implementation honours: all the base offers (through the central registry). */
    public static final Set<String> IBIS_CAPABILITIES = BaseCapabilities.IBIS;

    private static final String IPL_VERSION = "3.0";

    /** Creates the starter (used by {@link java.util.ServiceLoader}). */
    public UcxIbisStarter() {
        super(NICKNAME, IPL_VERSION, implementationVersion());
    }

    private static String implementationVersion() {
        try (InputStream in = UcxIbisStarter.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.startsWith("${")) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through to the unknown version
        }
        return "unknown";
    }

    /** Why the native library (the JNI glue and UCX) cannot be loaded in this JVM, or null when it can. */
    @Override
    public String unavailableReason() {
        return NativeLibrary.unavailableReason();
    }

    /** The rank of this implementation: {@value #RANK}. */
    @Override
    public int rank() {
        return RANK;
    }

    private static List<String> unsupported(CapabilitySet asked, Set<String> supported) {
        List<String> missing = new ArrayList<>();
        if (asked != null) {
            for (String c : asked.getCapabilities()) {
                if (!supported.contains(c)) {
                    missing.add(c);
                }
            }
        }
        return missing;
    }

    @Override
    public boolean matches(IbisCapabilities capabilities, PortType[] portTypes) {
        if (!unsupported(capabilities, IBIS_CAPABILITIES).isEmpty()) {
            return false;
        }
        return unmatchedPortTypes(capabilities, portTypes).length == 0;
    }

    @Override
    public CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes) {
        return new CapabilitySet(unsupported(capabilities, IBIS_CAPABILITIES).toArray(new String[0]));
    }

    /** Returns the given port types that ask for a capability this implementation lacks. */
    @Override
    public PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes) {
        Set<PortType> result = new LinkedHashSet<>();
        if (portTypes != null) {
            for (PortType t : portTypes) {
                if (!unsupported(t, PORT_CAPABILITIES).isEmpty()) {
                    result.add(t);
                }
            }
        }
        return result.toArray(new PortType[0]);
    }

    @Override
    public Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) throws IbisCreationFailedException {
        return new UcxIbis(this, handler, capabilities, credentials, applicationTag, portTypes, userProperties);
    }
}
