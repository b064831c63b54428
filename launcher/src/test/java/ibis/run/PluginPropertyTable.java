package ibis.run;

import ibis.ipl.impl.PropertyTable;

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
    public List<Entry> entries() {
        return List.of(new Entry("ibis.plugin.test.knob", "7", "A knob only the plug-in has."));
    }
}
