package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import ibis.io.config.InvalidPropertyException;
import ibis.io.config.Property;

import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.testng.annotations.Test;

/** The io property table and its lookups. */
public class IoPropertiesTest {

    @Test
    public void theTableListsEveryPropertyWithDefaultAndMeaning() {
        Set<String> names = IoProperties.ALL.stream().map(Property::name).collect(Collectors.toSet());
        assertEquals(names, Set.of(IoProperties.BLOCK_MAX, IoProperties.STRING_MAX, IoProperties.CLASS_FILTER,
                IoProperties.OBJECT_ARRAY_MAX, IoProperties.OBJECT_DEPTH_MAX, IoProperties.SUN_DEEP_DEPTH_MAX,
                IoProperties.REWRITER_WARN));
        for (Property<?> p : IoProperties.ALL) {
            assertTrue(p.name().startsWith("ibis.io."), p.name());
            assertFalse(p.meaning().isBlank(), p.name());
        }
        assertEquals(IoProperties.ALL.get(0).defaultText(), Integer.toString(16 << 20));
    }

    @Test
    public void givenPropertiesWinOverSystemPropertiesAndDefaults() {
        Properties p = new Properties();
        assertEquals(IoProperties.stringMax(p), IoProperties.DEFAULT_STRING_MAX);
        assertNull(IoProperties.classFilter(p));
        p.setProperty(IoProperties.STRING_MAX, " 12 ");
        p.setProperty(IoProperties.CLASS_FILTER, "  ");
        assertEquals(IoProperties.stringMax(p), 12);
        assertNull(IoProperties.classFilter(p), "blank means unset");
        p.setProperty(IoProperties.BLOCK_MAX, "0");
        assertThrows(IllegalArgumentException.class, () -> IoProperties.blockMax(p));
        p.setProperty(IoProperties.BLOCK_MAX, "lots");
        InvalidPropertyException e = org.testng.Assert.expectThrows(InvalidPropertyException.class,
                () -> IoProperties.blockMax(p));
        assertEquals(e.getMessage(), "property " + IoProperties.BLOCK_MAX
                + " = 'lots' is not accepted: expected a whole" + " number ≥ 1");
        assertEquals(e.property(), IoProperties.BLOCK_MAX);
        assertEquals(e.value(), "lots");
    }
}
