package ibis.run;

import ibis.ipl.impl.PropertyTable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Prints the property tables of every installed subsystem for {@code ibis-run --help-properties}:
 * the {@link PropertyTable}s found with {@link ServiceLoader}, the io layer's table (io sits below
 * the IPL and so cannot implement {@link PropertyTable} itself), and the launcher's own.
 */
final class PropertyHelp {

    /** Subsystems in the order of the layers; others follow alphabetically, the launcher's comes last. */
    private static final List<String> ORDER = List.of("ipl", "io", "ipl.impl", "registry", "tcp", "ucx", "mpi");

    private PropertyHelp() {
    }

    /** Collects the tables; a provider that fails to load is reported as a note instead of a table. */
    static List<PropertyTable> tables(ClassLoader loader, List<String> problems) {
        List<PropertyTable> tables = new ArrayList<>();
        Iterator<PropertyTable> it = ServiceLoader.load(PropertyTable.class, loader).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                tables.add(it.next());
            } catch (ServiceConfigurationError e) {
                problems.add(e.getMessage());
            }
        }
        if (tables.stream().noneMatch(t -> t.subsystem().equals("io"))) {
            tables.add(IoPropertyTable.INSTANCE);
        }
        if (tables.stream().noneMatch(t -> t.subsystem().equals("run"))) {
            tables.add(new LauncherProperties());
        }
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

    /** Prints every table: per property its name, its default and what it means. */
    static void print(PrintStream out, ClassLoader loader) {
        List<String> problems = new ArrayList<>();
        List<PropertyTable> tables = tables(loader, problems);
        out.println("Properties of the installed Ibis subsystems. Set them with -Dname=value on the");
        out.println("ibis-run command line, in an ibis.properties file, or in the Properties given to");
        out.println("IbisFactory.createIbis.");
        for (PropertyTable table : tables) {
            out.println();
            out.println("[" + table.subsystem() + "]");
            for (PropertyTable.Entry e : table.entries()) {
                String def = e.defaultValue() == null ? "(no default)"
                        : e.defaultValue().isEmpty() ? "default: (empty)" : "default: " + e.defaultValue();
                out.println("  " + e.name() + "    " + def);
                for (String line : wrap(e.meaning(), 74)) {
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
