package ibis.ipl.impl;

import ibis.ipl.CapabilitySet;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisStarter;
import ibis.ipl.PortType;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * A starter for an implementation over this base: it supports exactly what the base offers
 * ({@link BaseCapabilities#PORT_TYPE} and {@link BaseCapabilities#IBIS}), so the capability matching
 * is done here once for every network implementation (tcp, ucx, ...).
 */
public abstract class BaseIbisStarter extends IbisStarter {

    /**
     * @param nickName the implementation's nickname
     * @param iplVersion the IPL version it implements
     * @param versionSource a class next to whose {@code version.properties} resource (key
     *        {@code version}, filtered by the build) the implementation version is read
     */
    protected BaseIbisStarter(String nickName, String iplVersion, Class<?> versionSource) {
        super(nickName, iplVersion, implementationVersion(versionSource));
    }

    /** The {@code version} of {@code version.properties} next to {@code source}, or "unknown". */
    static String implementationVersion(Class<?> source) {
        try (InputStream in = source.getResourceAsStream("version.properties")) {
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
        if (!unsupported(capabilities, BaseCapabilities.IBIS).isEmpty()) {
            return false;
        }
        return unmatchedPortTypes(capabilities, portTypes).length == 0;
    }

    @Override
    public CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes) {
        return new CapabilitySet(unsupported(capabilities, BaseCapabilities.IBIS).toArray(new String[0]));
    }

    /** Returns the given port types that ask for a capability the base lacks. */
    @Override
    public PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes) {
        Set<PortType> result = new LinkedHashSet<>();
        if (portTypes != null) {
            for (PortType t : portTypes) {
                if (!unsupported(t, BaseCapabilities.PORT_TYPE).isEmpty()) {
                    result.add(t);
                }
            }
        }
        return result.toArray(new PortType[0]);
    }
}
