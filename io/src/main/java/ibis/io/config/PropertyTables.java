package ibis.io.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;

/** Finds the installed {@link PropertyTable}s and renders them as documentation. */
public final class PropertyTables {

    private PropertyTables() {
    }

    /**
     * The tables found with {@link ServiceLoader} in the loaders, each table class once; a provider
     * that fails to load is added to {@code problems} instead.
     */
    public static List<PropertyTable> load(List<ClassLoader> loaders, List<String> problems) {
        List<PropertyTable> tables = new ArrayList<>();
        Set<String> classes = new HashSet<>();
        for (ClassLoader loader : loaders) {
            Iterator<PropertyTable> it = ServiceLoader.load(PropertyTable.class, loader).iterator();
            while (true) {
                try {
                    if (!it.hasNext()) {
                        break;
                    }
                    PropertyTable table = it.next();
                    if (classes.add(table.getClass().getName())) {
                        tables.add(table);
                    }
                } catch (ServiceConfigurationError e) {
                    problems.add(e.getMessage());
                }
            }
        }
        return tables;
    }

    /**
     * The table as Markdown: one row per property with its name, default, the values it accepts and
     * its meaning, as the documentation shows it.
     */
    public static String markdown(PropertyTable table) {
        StringBuilder out = new StringBuilder(
                "| property | default | accepted | meaning |\n| --- | --- | --- | --- |\n");
        for (Property<?> p : table.properties()) {
            String def = p.defaultText() == null ? "—" : p.defaultText().isEmpty() ? "(empty)" : "`" + p.defaultText()
                    + "`";
            out.append("| `").append(p.name()).append("` | ").append(def).append(" | ")
                    .append(p.accepted() == null ? "text" : escape(p.accepted())).append(" | ")
                    .append(escape(p.meaning())).append(" |\n");
        }
        return out.toString();
    }

    /** The meaning followed by the accepted values, when the property restricts them. */
    public static String describe(Property<?> p) {
        return p.accepted() == null ? p.meaning() : p.meaning() + " (" + p.accepted() + ")";
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }
}
