package ibis.dist;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.io.config.PropertyTable;
import ibis.io.config.PropertyTables;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The property tables of the documentation are generated from the code's {@link PropertyTable}s,
 * the same objects {@code ibis-run --help-properties} prints: each block between
 * {@code <!-- property table: SUBSYSTEM -->} and {@code <!-- end of property table -->} must be
 * what {@link PropertyTables#markdown} renders. Run with {@code -Dibis.docs.update=true} to rewrite
 * the blocks.
 */
public class PropertyDocsTest {

    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- property table: ([a-z.]+) -->\n)(.*?)(<!-- end of property table -->)", Pattern.DOTALL);

    private static final List<String> DOCUMENTS = List.of("io/README.md", "impl-tcp/README.md", "registry/README.md",
            "models/rmi/README.md", "docs/launcher.md");

    @Test
    public void everyDocumentedPropertyTableIsTheGeneratedOne() throws IOException {
        Map<String, PropertyTable> tables = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (PropertyTable t : PropertyTables.load(List.of(PropertyDocsTest.class.getClassLoader()), problems)) {
            tables.put(t.subsystem(), t);
        }
        assertTrue(problems.isEmpty(), problems.toString());
        boolean update = Boolean.getBoolean("ibis.docs.update");
        List<String> documented = new ArrayList<>();
        for (String name : DOCUMENTS) {
            Path file = ScriptRun.repositoryRoot().resolve(name);
            String text = Files.readString(file, StandardCharsets.UTF_8);
            Matcher m = BLOCK.matcher(text);
            StringBuilder rewritten = new StringBuilder();
            while (m.find()) {
                String subsystem = m.group(2);
                PropertyTable table = tables.get(subsystem);
                assertTrue(table != null, name + " documents subsystem '" + subsystem + "', which has no table; known: "
                        + tables.keySet());
                documented.add(subsystem);
                String expected = PropertyTables.markdown(table);
                if (!update) {
                    assertEquals(m.group(3), expected, "the '" + subsystem + "' table of " + name + " is not the"
                            + " generated one; rewrite it with: mvn -o -pl dist -am verify -Dtest=PropertyDocsTest"
                            + " -Dsurefire.failIfNoSpecifiedTests=false -Dibis.docs.update=true");
                }
                m.appendReplacement(rewritten, Matcher.quoteReplacement(m.group(1) + expected + m.group(4)));
            }
            m.appendTail(rewritten);
            if (update && !rewritten.toString().equals(text)) {
                Files.writeString(file, rewritten.toString(), StandardCharsets.UTF_8);
            }
        }
        assertEquals(documented.stream().sorted().toList(), List.of("io", "ipl.impl", "registry", "rmi", "run", "tcp"),
                "every subsystem's table is documented exactly once");
    }
}
