package ibis.ipl.impl;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;
import ibis.ipl.IbisProperties;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The documented properties of the IPL itself ({@link IbisProperties}): which implementation to
 * use, the pool, the registry server and the location (the API's own table, {@link
 * IbisProperties#getDescriptions()}, in the shared shape). Registered as a {@link PropertyTable}
 * service so that {@code ibis-run --help-properties} lists them.
 */
public final class IplPropertyTable implements PropertyTable {

    @Override
    public String subsystem() {
        return "ipl";
    }

    @Override
    public List<Property<?>> properties() {
        Properties defaults = IbisProperties.getHardcodedProperties();
        List<Property<?>> result = new ArrayList<>();
        for (Map.Entry<String, String> e : IbisProperties.getDescriptions().entrySet()) {
            result.add(Property.ofText(e.getKey(), defaults.getProperty(e.getKey()), e.getValue()));
        }
        return Collections.unmodifiableList(result);
    }
}
