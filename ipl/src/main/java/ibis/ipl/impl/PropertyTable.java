package ibis.ipl.impl;

import java.util.List;

/**
 * The documented properties of one subsystem (name, default, meaning), found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/ibis.ipl.impl.PropertyTable}) so that
 * {@code ibis-run --help-properties} can print every property of every installed module.
 */
public interface PropertyTable {

    /** One documented property. {@code defaultValue} is null when there is no default. */
    record Entry(String name, String defaultValue, String meaning) {
    }

    /** The subsystem's name as shown in the help, for example "ipl", "io", "registry", "tcp". */
    String subsystem();

    /** The subsystem's properties, in the order they should be printed. */
    List<Entry> entries();
}
