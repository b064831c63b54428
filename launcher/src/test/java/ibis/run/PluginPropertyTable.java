package ibis.run;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;

import java.util.List;

/**
 * A property table that is deliberately not registered on the test class path: IbisRunTest
 * registers it in a temporary directory given with {@code -cp}, as a plug-in would.
 */
public final class PluginPropertyTable implements PropertyTable {

    @Override
    public String subsystem() {
        return "plugin-under-test";
    }

    @Override
    public List<Property<?>> properties() {
        return List.of(Property.ofInt("ibis.plugin.test.knob", 7, 0, 100, "A knob only the plug-in has."));
    }
}
