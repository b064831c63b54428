package ibis.util;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.testng.annotations.Test;

public class TypedPropertiesTest {

    private static TypedProperties of(String... keyValues) {
        TypedProperties p = new TypedProperties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    public void theConstructorsDefaultsAnswerLookupsButStayApart() {
        Properties defaults = new Properties();
        defaults.setProperty("a", "1");
        TypedProperties p = new TypedProperties(defaults);
        assertEquals(p.getProperty("a"), "1");
        assertEquals(p.getIntProperty("a"), 1);
        assertEquals(p.getProperty("b", "x"), "x");
        assertTrue(p.isEmpty(), "defaults are not copied into the object");
        assertTrue(new TypedProperties().isEmpty());
    }

    @Test
    public void booleanIsTrueForTheFiveEarlierSpellingsOnlyAndNeverThrows() {
        TypedProperties p = of("e", "", "one", "1", "on", "on", "t", "true", "y", "yes", "f", "false", "T", "TRUE",
                "junk", "maybe");
        for (String key : new String[] {"e", "one", "on", "t", "y"}) {
            assertTrue(p.getBooleanProperty(key), key);
            assertTrue(p.getBooleanProperty(key, false), key);
        }
        for (String key : new String[] {"f", "T", "junk"}) {
            assertFalse(p.getBooleanProperty(key, true), key);
        }
        assertFalse(p.getBooleanProperty("absent"));
        assertTrue(p.getBooleanProperty("absent", true));
        assertFalse(p.getBooleanProperty("absent", false));
    }

    @Test
    public void numericGettersParseOrFallBackOnTheDefault() {
        TypedProperties p = of("i", "42", "l", "9000000000", "s", "-7", "d", "2.5", "f", "0.25", "spaced", " 3 ");
        assertEquals(p.getIntProperty("i"), 42);
        assertEquals(p.getIntProperty("i", 1), 42);
        assertEquals(p.getIntProperty("none", 5), 5);
        assertEquals(p.getIntProperty("spaced"), 3);
        assertEquals(p.getLongProperty("l"), 9_000_000_000L);
        assertEquals(p.getLongProperty("none", 6L), 6L);
        assertEquals(p.getShortProperty("s"), (short) -7);
        assertEquals(p.getShortProperty("none", (short) 8), (short) 8);
        assertEquals(p.getDoubleProperty("d"), 2.5);
        assertEquals(p.getDoubleProperty("none", 1.5), 1.5);
        assertEquals(p.getFloatProperty("f"), 0.25f);
        assertEquals(p.getFloatProperty("none", 0.5f), 0.5f);
    }

    @Test
    public void numericGettersWithoutDefaultRejectAnAbsentProperty() {
        TypedProperties p = new TypedProperties();
        NumberFormatException e = expectThrows(NumberFormatException.class, () -> p.getIntProperty("my.key"));
        assertTrue(e.getMessage().contains("my.key"), e.getMessage());
        assertThrows(NumberFormatException.class, () -> p.getLongProperty("my.key"));
        assertThrows(NumberFormatException.class, () -> p.getShortProperty("my.key"));
        assertThrows(NumberFormatException.class, () -> p.getDoubleProperty("my.key"));
        assertThrows(NumberFormatException.class, () -> p.getFloatProperty("my.key"));
        assertThrows(NumberFormatException.class, () -> p.getSizeProperty("my.key"));
    }

    @Test
    public void malformedNumbersFailWithTheKeyAndTheValueEvenWithADefault() {
        TypedProperties p = of("n", "twelve", "big", "99999999999", "short", "40000");
        NumberFormatException e = expectThrows(NumberFormatException.class, () -> p.getIntProperty("n", 1));
        assertTrue(e.getMessage().contains("n") && e.getMessage().contains("\"twelve\""), e.getMessage());
        assertThrows(NumberFormatException.class, () -> p.getIntProperty("n"));
        assertThrows(NumberFormatException.class, () -> p.getIntProperty("big", 1));
        assertThrows(NumberFormatException.class, () -> p.getLongProperty("n", 1L));
        assertThrows(NumberFormatException.class, () -> p.getShortProperty("short", (short) 1));
        assertThrows(NumberFormatException.class, () -> p.getDoubleProperty("n", 1.0));
        assertThrows(NumberFormatException.class, () -> p.getFloatProperty("n", 1.0f));
        assertThrows(NumberFormatException.class, () -> p.getSizeProperty("n", 1L));
    }

    @Test
    public void sizesTakeKmAndGSuffixesInEitherCase() {
        TypedProperties p = of("plain", "100", "k", "2k", "K", "2K", "m", "3m", "M", "3M", "g", "1g", "G", "4G");
        assertEquals(p.getSizeProperty("plain"), 100L);
        assertEquals(p.getSizeProperty("k"), 2048L);
        assertEquals(p.getSizeProperty("K"), 2048L);
        assertEquals(p.getSizeProperty("m"), 3L << 20);
        assertEquals(p.getSizeProperty("M"), 3L << 20);
        assertEquals(p.getSizeProperty("g"), 1L << 30);
        assertEquals(p.getSizeProperty("G", 0), 4L << 30);
        assertEquals(p.getSizeProperty("none", 77), 77L);
    }

    @Test
    public void malformedOrOverflowingSizesAreRejected() {
        TypedProperties p = of("unit", "K", "word", "12kb", "huge", "9000000000000G", "empty", "");
        for (String key : new String[] {"unit", "word", "huge", "empty"}) {
            NumberFormatException e = expectThrows(NumberFormatException.class, () -> p.getSizeProperty(key));
            assertTrue(e.getMessage().contains(key), e.getMessage());
        }
    }

    @Test
    public void stringListsSplitAtCommasOrTheGivenDelimiter() {
        TypedProperties p = of("list", "a, b ,c", "colons", "x:y");
        assertEquals(p.getStringList("list"), new String[] {"a", "b", "c"});
        assertEquals(p.getStringList("colons", ":"), new String[] {"x", "y"});
        assertEquals(p.getStringList("none"), new String[0]);
        assertEquals(p.getStringList("none", ":"), new String[0]);
        String[] fallback = {"d"};
        assertSame(p.getStringList("none", ":", fallback), fallback);
        assertEquals(p.getStringList("colons", ":", fallback), new String[] {"x", "y"});
    }

    @Test
    public void stringPropertyMatchNeedsAnEqualValue() {
        TypedProperties p = of("k", "v");
        assertTrue(p.stringPropertyMatch("k", "v"));
        assertFalse(p.stringPropertyMatch("k", "V"));
        assertFalse(p.stringPropertyMatch("none", "v"));
    }

    @Test
    public void addPropertiesAndPutAllCopyDefaultsTooAndOverwrite() {
        Properties defaults = new Properties();
        defaults.setProperty("fromDefault", "d");
        Properties source = new Properties(defaults);
        source.setProperty("k", "new");
        TypedProperties p = of("k", "old");
        p.addProperties(source);
        assertEquals(p.get("k"), "new");
        assertEquals(p.get("fromDefault"), "d");
        p.addProperties(null);
        TypedProperties q = new TypedProperties();
        q.putAll(source);
        assertEquals(q.get("fromDefault"), "d");
    }

    @Test
    public void loadFromFileReadsAFileAndIgnoresAMissingOne() throws Exception {
        Path file = Files.createTempFile("typed", ".properties");
        try {
            Files.writeString(file, "from.file = 5\n");
            TypedProperties p = new TypedProperties();
            p.loadFromFile(file.toString());
            assertEquals(p.getIntProperty("from.file"), 5);
            p.loadFromFile(file + ".missing");
            p.loadFromFile(null);
            assertEquals(p.size(), 1);
        } finally {
            Files.delete(file);
        }
    }

    @Test
    public void loadFromHomeFileLooksInTheHomeFolder() throws Exception {
        Path home = Path.of(System.getProperty("user.home"));
        TypedProperties p = new TypedProperties();
        p.loadFromHomeFile("no-such-file-" + System.nanoTime() + ".properties");
        assertTrue(p.isEmpty(), "a missing home file adds nothing (home " + home + ")");
    }

    @Test
    public void loadFromClassPathReadsAResource() {
        TypedProperties p = new TypedProperties();
        p.loadFromClassPath("ibis/util/typed-test.properties");
        assertEquals(p.getProperty("from.classpath"), "yes");
        assertTrue(p.getBooleanProperty("from.classpath"));
        p.loadFromClassPath("ibis/util/no-such.properties");
        assertEquals(p.size(), 1);
    }

    @Test
    public void expandSystemVariablesReplacesSetVariablesOnly() {
        String name = System.getenv().keySet().stream().filter(k -> k.matches("\\w+")).findFirst().orElseThrow();
        TypedProperties p = of("k", "<${" + name + "}>", "unset", "${NO_SUCH_VARIABLE_FOR_IBIS_TEST}");
        p.expandSystemVariables();
        assertEquals(p.getProperty("k"), "<" + System.getenv(name) + ">");
        assertEquals(p.getProperty("unset"), "${NO_SUCH_VARIABLE_FOR_IBIS_TEST}");
    }

    @Test
    public void checkPropertiesReturnsTheUnknownOnesUnderThePrefix() {
        TypedProperties p = of("ibis.a", "1", "ibis.sub.b", "2", "ibis.typo", "3", "other", "4");
        TypedProperties unknown = p.checkProperties("ibis.", new String[] {"IBIS.A"}, new String[] {"sub."}, true);
        assertEquals(unknown, of("ibis.typo", "3"));
        assertEquals(p.checkProperties(null, null, null, false).size(), 4);
    }

    @Test
    public void filterSelectsByPrefixAndCanStripAndRemove() {
        TypedProperties p = of("x.a", "1", "x.b", "2", "y.c", "3");
        assertEquals(p.filter("x."), of("x.a", "1", "x.b", "2"));
        assertEquals(p.size(), 3);
        assertEquals(p.filter("x.", true, true), of("a", "1", "b", "2"));
        assertEquals(p, of("y.c", "3"));
        assertEquals(p.filter(null).size(), 1);
    }

    @Test
    public void printPropertiesWritesMatchingLinesSorted() {
        TypedProperties p = of("Ibis.b", "2", "ibis.a", "1", "other", "3");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.printProperties(new PrintStream(bytes, true, StandardCharsets.UTF_8), "IBIS.");
        assertEquals(bytes.toString(StandardCharsets.UTF_8).replace("\r", ""), "Ibis.b = 2\nibis.a = 1\n");
        assertEquals(p.toString(), "Ibis.b = 2\nibis.a = 1\nother = 3\n");
    }

    @Test
    public void equalityIsByNamesAndValuesWhereverTheyComeFrom() {
        Properties defaults = new Properties();
        defaults.setProperty("a", "1");
        TypedProperties withDefault = new TypedProperties(defaults);
        TypedProperties direct = of("a", "1");
        // equals() itself, not TestNG's entry-by-entry comparison of two maps
        assertTrue(withDefault.equals(direct));
        assertTrue(direct.equals(withDefault));
        assertEquals(withDefault.hashCode(), direct.hashCode());
        assertFalse(direct.equals(of("a", "2")));
        assertFalse(direct.equals(of("a", "1", "b", "1")));
        assertFalse(direct.equals(new Properties(defaults)));
    }
}
