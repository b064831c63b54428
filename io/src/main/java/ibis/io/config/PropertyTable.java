package ibis.io.config;

import java.util.List;

/**
 * The documented properties of one subsystem, in one shape for every module. Found with
 * {@link java.util.ServiceLoader} ({@code META-INF/services/ibis.io.config.PropertyTable}), so that
 * {@code ibis-run --help-properties} prints the tables of every installed module and plug-in, and
 * the documentation's tables are generated from the same objects ({@link PropertyTables#markdown}).
 */
public interface PropertyTable {

    /** The subsystem's name as shown in the help, for example "ipl", "io", "registry", "tcp". */
    String subsystem();

    /** The subsystem's properties, in the order they should be printed. */
    List<Property<?>> properties();
}
