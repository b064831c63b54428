package ibis.run;

import ibis.io.IoProperties;
import ibis.ipl.impl.PropertyTable;

import java.util.List;

/**
 * The io layer's properties ({@link IoProperties#ALL}) as a {@link PropertyTable}: ibis-io sits
 * below the IPL and so cannot register a {@code PropertyTable} service itself.
 */
final class IoPropertyTable implements PropertyTable {

    static final IoPropertyTable INSTANCE = new IoPropertyTable();

    private IoPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "io";
    }

    @Override
    public List<Entry> entries() {
        return IoProperties.ALL.stream()
                .map(p -> new Entry(p.name(), p.defaultValue(), p.meaning()))
                .toList();
    }
}
