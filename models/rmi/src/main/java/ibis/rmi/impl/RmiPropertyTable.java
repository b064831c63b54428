package ibis.rmi.impl;

import ibis.ipl.impl.PropertyTable;

import java.util.ArrayList;
import java.util.List;

/**
 * Ibis RMI's properties ({@link RmiRuntime#PROPERTIES}) as a {@link PropertyTable} service, so that
 * {@code ibis-run --help-properties} lists them under subsystem {@code "rmi"}.
 */
public final class RmiPropertyTable implements PropertyTable {

    /** For {@link java.util.ServiceLoader}. */
    public RmiPropertyTable() {
    }

    @Override
    public String subsystem() {
        return "rmi";
    }

    @Override
    public List<Entry> entries() {
        List<Entry> entries = new ArrayList<>();
        for (String[] p : RmiRuntime.PROPERTIES) {
            entries.add(new Entry(p[0], p[1], p[2]));
        }
        return entries;
    }
}
