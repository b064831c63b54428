package ibis.benchmarks.serialization;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * Correctness of the serialization benchmark itself (no timing): every workload round-trips through
 * every column exactly as the JMH benchmarks drive it, the Ibis columns use the code path they
 * claim (rewritten classes versus classes left to the run-time generator), and the two copies of
 * the classes have the same shape.
 */
public class SerializationWorkloadsTest {

    @DataProvider(name = "cells")
    public Object[][] cells() {
        List<Object[]> cells = new ArrayList<>();
        for (Column c : Column.values()) {
            for (Workload w : Workload.values()) {
                cells.add(new Object[] {c, w});
            }
        }
        return cells.toArray(new Object[0][]);
    }

    @Test(dataProvider = "cells", timeOut = 60_000)
    public void roundTrip(Column column, Workload workload) throws Exception {
        Object value = workload.create(column.plainClasses);
        Codec codec = column.open();
        codec.write(value); // the write benchmark's operation, twice: the second is the steady state
        codec.write(value);
        codec.prepareRead(value);
        for (int i = 0; i < 3; i++) { // the read benchmark's operation, on the replayed message
            Object back = codec.read();
            assertNotSame(back, value);
            assertEquals(back.getClass(), value.getClass());
            assertTrue(Workload.sameValue(value, back), column + " " + workload + " read #" + i);
        }
        byte[] message = codec.message(value);
        // Arrays are never compressed; Kryo and Fory write ints of objects with a variable length.
        assertTrue(message.length > (workload.hasClasses() ? 0 : workload.payloadBytes),
                column + " " + workload + ": message of " + message.length + " bytes");
    }

    @Test
    public void valuesAreDeterministicAndDistinguishable() {
        for (Workload w : Workload.values()) {
            assertTrue(Workload.sameValue(w.create(false), w.create(false)), w.toString());
            assertFalse(Workload.sameValue(w.create(false), w.create(true)) && w.hasClasses(),
                    w + ": rewritten and plain values must be of different classes");
        }
        assertFalse(Workload.sameValue(Workload.TREE15.create(false), Workload.TREE1023.create(false)));
    }

    @Test
    public void ibisColumnsUseTheirCodePaths() {
        for (Workload w : Workload.values()) {
            if (!w.hasClasses()) {
                continue;
            }
            Class<?> rewritten = w.create(Column.IBIS_REWRITTEN.plainClasses).getClass();
            Class<?> plain = w.create(Column.IBIS_RUNTIME.plainClasses).getClass();
            assertTrue(ibis.io.Serializable.class.isAssignableFrom(rewritten), rewritten + " must be rewritten");
            assertTrue(SerializationSuite.hasGenerator(rewritten), rewritten + " must have its generator");
            assertFalse(ibis.io.Serializable.class.isAssignableFrom(plain), plain + " must not be rewritten");
            assertFalse(SerializationSuite.hasGenerator(plain), plain + " must not have a generator");
        }
    }

    @Test
    public void plainCopiesHaveTheSameShape() {
        for (Workload w : Workload.values()) {
            if (w.hasClasses()) {
                assertEquals(shape(w.create(true).getClass()), shape(w.create(false).getClass()).replace(
                        "ibis.benchmarks.serialization.shapes.", "ibis.benchmarks.serialization.plain."), w.toString());
            }
        }
    }

    /** Modifiers, superclass and serial fields (name, type, modifiers) of a class, as text. */
    private static String shape(Class<?> c) {
        List<String> fields = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                fields.add(Modifier.toString(f.getModifiers()) + " " + f.getType().getName() + " " + f.getName());
            }
        }
        fields.sort(null);
        return Modifier.toString(c.getModifiers()) + " " + c.getSuperclass().getName() + " "
                + Arrays.toString(c.getInterfaces()).replace("interface ibis.io.Serializable", "").replace(", ]", "]")
                + " " + fields;
    }
}
