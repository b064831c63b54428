package ibis.run;

import ibis.io.config.Property;
import ibis.io.config.PropertyTable;
import ibis.io.config.PropertyTables;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisProperties;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Prints the property tables of every installed subsystem for {@code ibis-run --help-properties}:
 * the {@link PropertyTable}s found with {@link java.util.ServiceLoader} on the class path and in the plug-in
 * jars of {@code ibis.implementation.path} (where {@code IbisFactory} finds implementations too),
 * and the launcher's own.
 */
final class PropertyHelp {

    /** Subsystems in the order of the layers; others follow alphabetically, the launcher's comes last. */
    private static final List<String> ORDER = List.of("ipl", "io", "ipl.impl", "registry", "tcp", "ucx", "mpi");

    private PropertyHelp() {
    }

    /** Collects the tables of one loader; see {@link #tables(List, List)}. */
    static List<PropertyTable> tables(ClassLoader loader, List<String> problems) {
        return tables(List.of(loader), problems);
    }

    /**
     * Collects the tables found in the loaders (a table class seen by several is listed once); a
     * provider that fails to load is reported as a note instead of a table.
     */
    static List<PropertyTable> tables(List<ClassLoader> loaders, List<String> problems) {
        List<PropertyTable> tables = PropertyTables.load(loaders, problems);
        tables.sort(Comparator.comparingInt((PropertyTable t) -> rank(t.subsystem()))
                .thenComparing(PropertyTable::subsystem));
        return tables;
    }

    private static int rank(String subsystem) {
        if (subsystem.equals("run")) {
            return Integer.MAX_VALUE;
        }
        int i = ORDER.indexOf(subsystem);
        return i < 0 ? ORDER.size() : i;
    }

    /** Prints the tables of one loader; see {@link #print(PrintStream, ClassLoader, String)}. */
    static void print(PrintStream out, ClassLoader loader) {
        print(out, loader, null);
    }

    /**
     * Prints every table: per property its name, its default and what it means.
     *
     * @param loader the class path's loader
     * @param implementationPath the value of {@code ibis.implementation.path}, or null: the tables
     *        of its plug-in jars are printed too
     */
    static void print(PrintStream out, ClassLoader loader, String implementationPath) {
        List<String> problems = new ArrayList<>();
        ClassLoader plugins = IbisFactory.implementationPathLoader(implementationPath);
        List<PropertyTable> tables = tables(plugins == null ? List.of(loader) : List.of(loader, plugins), problems);
        out.println("Properties of the installed Ibis subsystems. Set them with -Dname=value on the");
        out.println("ibis-run command line, in an ibis.properties file, or in the Properties given to");
        out.println("IbisFactory.createIbis.");
        if (implementationPath != null && !implementationPath.isBlank()) {
            out.println("Including the plug-in jars of " + IbisProperties.IMPLEMENTATION_PATH + "=" + implementationPath
                    + (plugins == null ? " (it names no jar)." : "."));
        }
        for (PropertyTable table : tables) {
            out.println();
            out.println("[" + table.subsystem() + "]");
            for (Property<?> e : table.properties()) {
                String def = e.defaultText() == null ? "(no default)"
                        : e.defaultText().isEmpty() ? "default: (empty)" : "default: " + e.defaultText();
                out.println("  " + e.name() + "    " + def);
                for (String line : wrap(PropertyTables.describe(e), 74)) {
                    out.println("      " + line);
                }
            }
        }
        for (String problem : problems) {
            out.println();
            out.println("(a property table could not be loaded: " + problem + ")");
        }
    }

    static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split("\\s+")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }
}
