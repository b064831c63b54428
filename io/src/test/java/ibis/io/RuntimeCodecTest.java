package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.io.Serializable;
import java.util.List;

import org.testng.annotations.Test;

/**
 * The run-time generated serializers of classes on the class path reach the class's own fields
 * directly (a nestmate hidden class), final fields and superclass fields through handles, with the
 * same results as before: checked on the codec's kind and on round trips.
 */
public class RuntimeCodecTest {

    /** A serializable superclass in this package with a private field of its own. */
    static class Base implements Serializable {
        private static final long serialVersionUID = 1L;
        private int baseValue;
        protected String baseName;
    }

    static final class Leaf implements Serializable {
        private static final long serialVersionUID = 1L;
        final long id;
        Leaf(long id) {
            this.id = id;
        }
    }

    /** Private, final, primitive, String, known-type, array and reference fields of its own. */
    static class Mixed extends Base {
        private static final long serialVersionUID = 1L;
        private final int finalValue;
        private boolean flag;
        private byte b;
        private char c;
        private short s;
        private long l;
        private float f;
        private double d;
        private String text;
        private Leaf leaf;          // known type: final class
        private int[] numbers;      // known type: primitive array
        private Object anything;
        private Mixed next;
        private transient int skipped;

        Mixed(int finalValue) {
            this.finalValue = finalValue;
        }
    }

    @Test(timeOut = 60_000)
    public void classPathClassesGetNestmateFieldCode() throws Exception {
        ObjectCodec codec = SerialClass.of(Mixed.class).codec();
        assertTrue(codec.getClass().getName().startsWith(FieldCodecGenerator.NESTMATE_PREFIX),
                codec.getClass().getName());
        ObjectCodec base = SerialClass.of(Base.class).codec();
        assertTrue(base.getClass().getName().startsWith(FieldCodecGenerator.NESTMATE_PREFIX),
                base.getClass().getName());
    }

    @Test(timeOut = 60_000)
    public void nestmateFieldCodeRoundTripsEveryKindOfField() throws Exception {
        Mixed m = new Mixed(41);
        m.flag = true;
        m.b = -3;
        m.c = 'x';
        m.s = 1234;
        m.l = Long.MIN_VALUE + 5;
        m.f = 1.5f;
        m.d = -2.25;
        m.text = "héllo";
        m.leaf = new Leaf(99);
        m.numbers = new int[] {1, 2, 3};
        m.anything = m.numbers; // shared with a known-type field
        m.next = m;             // cycle
        m.skipped = 7;
        ((Base) m).baseValue = 11;
        m.baseName = "base";
        Mixed second = new Mixed(-1);
        List<Object> back = IbisSerializationTest.roundTrip("ibis", new Wire(64, 3, 1), m, second);
        Mixed copy = (Mixed) back.get(0);
        assertEquals(copy.finalValue, 41);
        assertTrue(copy.flag);
        assertEquals(copy.b, -3);
        assertEquals(copy.c, 'x');
        assertEquals(copy.s, 1234);
        assertEquals(copy.l, Long.MIN_VALUE + 5);
        assertEquals(copy.f, 1.5f);
        assertEquals(copy.d, -2.25);
        assertEquals(copy.text, "héllo");
        assertEquals(copy.leaf.id, 99);
        assertEquals(copy.numbers, new int[] {1, 2, 3});
        assertSame(copy.anything, copy.numbers);
        assertSame(copy.next, copy);
        assertEquals(copy.skipped, 0);
        assertEquals(((Base) copy).baseValue, 11);
        assertEquals(copy.baseName, "base");
        Mixed other = (Mixed) back.get(1);
        assertEquals(other.finalValue, -1);
        assertNull(other.text);
        assertNull(other.next);
        assertFalse(other.flag);
    }
}
