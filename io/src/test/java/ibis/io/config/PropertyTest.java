package ibis.io.config;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.List;
import java.util.Properties;

import org.testng.annotations.Test;

/** One reader for every property: where values come from, and one behaviour for a bad value. */
public class PropertyTest {

    private static final Property<Long> TIMEOUT = Property.ofLong("test.config.timeout", 500, 0, 10_000,
            "milliseconds to wait");
    private static final Property<Boolean> FLAG = Property.ofBoolean("test.config.flag", false, "a switch");
    private static final Property<Integer> SIZE = Property.ofInt("test.config.size", null, 1, 64, "members");

    @Test
    public void givenPropertiesWinOverSystemPropertiesWhichWinOverTheDefault() {
        assertEquals(TIMEOUT.get(null), Long.valueOf(500));
        System.setProperty(TIMEOUT.name(), "700");
        try {
            assertEquals(TIMEOUT.get(new Properties()), Long.valueOf(700));
            Properties p = new Properties();
            p.setProperty(TIMEOUT.name(), " 900 ");
            assertEquals(TIMEOUT.get(p), Long.valueOf(900));
            p.setProperty(TIMEOUT.name(), "  ");
            assertEquals(TIMEOUT.get(p), Long.valueOf(500), "a blank value counts as not set");
        } finally {
            System.clearProperty(TIMEOUT.name());
        }
    }

    @Test
    public void aPropertyWithoutDefaultIsNullWhenNotSet() {
        assertNull(SIZE.get(null));
        assertNull(SIZE.defaultText());
    }

    @Test
    public void everyBadValueNamesThePropertyTheValueAndWhatIsAccepted() {
        for (String[] bad : List.of(new String[] {"soon", "a whole number from 0 to 10000"},
                new String[] {"10001", "a whole number from 0 to 10000"},
                new String[] {"-1", "a whole number from 0 to 10000"})) {
            InvalidPropertyException e = expectThrows(InvalidPropertyException.class, () -> TIMEOUT.parse(bad[0]));
            assertEquals(e.getMessage(), "property test.config.timeout = '" + bad[0] + "' is not accepted: expected "
                    + bad[1]);
        }
        InvalidPropertyException e = expectThrows(InvalidPropertyException.class, () -> FLAG.parse("yes"));
        assertEquals(e.getMessage(), "property test.config.flag = 'yes' is not accepted: expected true or false");
        assertTrue(FLAG.parse("TRUE"));
        assertFalse(FLAG.parse("false"));
        expectThrows(InvalidPropertyException.class, () -> SIZE.parse("65"));
    }

    @Test
    public void theMarkdownTableShowsNameDefaultMeaningAndAcceptedValues() {
        PropertyTable table = new PropertyTable() {
            @Override
            public String subsystem() {
                return "test";
            }

            @Override
            public List<Property<?>> properties() {
                return List.of(TIMEOUT, SIZE, Property.ofText("test.config.pattern", "", "a | separated list"));
            }
        };
        assertEquals(PropertyTables.markdown(table), "| property | default | accepted | meaning |\n"
                + "| --- | --- | --- | --- |\n"
                + "| `test.config.timeout` | `500` | a whole number from 0 to 10000 | milliseconds to wait |\n"
                + "| `test.config.size` | — | a whole number from 1 to 64 | members |\n"
                + "| `test.config.pattern` | (empty) | text | a \\| separated list |\n");
    }
}
