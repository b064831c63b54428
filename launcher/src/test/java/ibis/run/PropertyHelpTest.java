package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.io.config.PropertyTable;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/** --help-properties lists the tables of every subsystem on the class path, the launcher's included. */
public class PropertyHelpTest {

    private static String printed() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            PropertyHelp.print(out, PropertyHelpTest.class.getClassLoader());
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void everySubsystemOnTheClassPathIsListedWithItsProperties() {
        String text = printed();
        assertTrue(text.contains("[registry]"), text);
        assertTrue(text.contains("ibis.registry.heartbeat.interval"), text);
        assertTrue(text.contains("[io]"), text);
        assertTrue(text.contains("ibis.io.block.max"), text);
        assertTrue(text.contains("[run]"), text);
        assertTrue(text.contains("ibis.pool.member"), text);
        assertTrue(text.contains("ibis.server.address"), text);
        assertTrue(text.contains("ibis.run.stop.grace    default: 3000"), text);
    }

    @Test
    public void tablesComeInLayerOrderWithTheLauncherLast() {
        List<String> problems = new ArrayList<>();
        List<PropertyTable> tables = PropertyHelp.tables(PropertyHelpTest.class.getClassLoader(), problems);
        List<String> names = tables.stream().map(PropertyTable::subsystem).toList();
        assertTrue(names.indexOf("io") < names.indexOf("registry"), names.toString());
        assertEquals(names.get(names.size() - 1), "run", names.toString());
        assertTrue(problems.isEmpty(), problems.toString());
    }

    @Test
    public void longMeaningsAreWrappedAtWordBoundaries() {
        List<String> lines = PropertyHelp.wrap("aaa bbb ccc ddd", 7);
        assertEquals(lines, List.of("aaa bbb", "ccc ddd"));
        assertEquals(PropertyHelp.wrap("  single  ", 3), List.of("single"));
    }
}
