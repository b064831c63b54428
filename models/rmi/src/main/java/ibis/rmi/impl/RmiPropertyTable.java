package ibis.rmi.impl;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/**
 * Ibis RMI's properties, read by {@link RmiRuntime} when it starts, and registered as a
 * {@link PropertyTable} service so that {@code ibis-run --help-properties} lists them under
 * subsystem {@code "rmi"}.
 */
public final class RmiPropertyTable implements PropertyTable {

    /** {@link RmiRuntime#CONNECT_TIMEOUT}. */
    public static final Property<Long> CONNECT_TIMEOUT_PROPERTY = Property.ofLong(RmiRuntime.CONNECT_TIMEOUT, 10_000,
            1, Long.MAX_VALUE, "ms a stub waits for the connection to its remote object");
    /** {@link RmiRuntime#REGISTRY_TIMEOUT}. */
    public static final Property<Long> REGISTRY_TIMEOUT_PROPERTY = Property.ofLong(RmiRuntime.REGISTRY_TIMEOUT,
            10_000, 1, Long.MAX_VALUE, "ms a registry stub waits for the member serving the registry to be elected");
    /** {@link GeneratedCode#WARN_PROPERTY}. */
    public static final Property<Boolean> WARN_GENERATED_PROPERTY = Property.ofBoolean(GeneratedCode.WARN_PROPERTY,
            false, "log one line per stub or skeleton class generated at run time (a remote class without usable"
                    + " build-time classes from ibisc / the Maven goal rewrite)");

    private static final List<Property<?>> PROPERTIES = List.of(CONNECT_TIMEOUT_PROPERTY, REGISTRY_TIMEOUT_PROPERTY,
            WARN_GENERATED_PROPERTY);

    /** For {@link java.util.ServiceLoader}. */
    public RmiPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "rmi";
    }

    @Override
    public List<Property<?>> properties() {
        return PROPERTIES;
    }
}
