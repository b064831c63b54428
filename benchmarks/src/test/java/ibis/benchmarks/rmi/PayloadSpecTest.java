package ibis.benchmarks.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;

import org.testng.annotations.Test;

/** The payloads of the rmi suite: specs, sizes, and checksums that survive a copy and catch a change. */
public class PayloadSpecTest {

    @Test(timeOut = 10_000)
    public void specsRoundTripAndTellTheirUserBytes() {
        for (String spec : List.of("null", "byte:50", "int:200", "float:500", "double:12800", "ints4", "ints32",
                "ints4null2", "tree:15", "tree:1023")) {
            assertEquals(PayloadSpec.parse(spec).spec(), spec);
        }
        assertEquals(PayloadSpec.parse("int:25600").userBytes(), 102_400);
        assertEquals(PayloadSpec.parse("double:12800").userBytes(), 102_400);
        assertEquals(PayloadSpec.parse("tree:1023").userBytes(), 1023 * 16);
        assertEquals(PayloadSpec.parse("ints32").userBytes(), 128);
        assertEquals(PayloadSpec.parse("tree:15").displayName(), "tree(15)");
        assertNull(PayloadSpec.parse("null").newValue());
        assertThrows(IllegalArgumentException.class, () -> PayloadSpec.parse("tree:14").newValue());
        assertThrows(IllegalArgumentException.class, () -> PayloadSpec.parse("ints4:3"));
        assertThrows(IllegalArgumentException.class, () -> PayloadSpec.parse("int"));
        assertThrows(IllegalArgumentException.class, () -> PayloadSpec.parse("long:3"));
    }

    @Test(timeOut = 10_000)
    public void aDeepCopyHasTheSameChecksumAndAChangedValueAnother() throws Exception {
        for (String spec : List.of("byte:50", "int:200", "float:20", "double:30", "ints4", "ints32", "ints4null2",
                "tree:15")) {
            Object v = PayloadSpec.parse(spec).newValue();
            Object copy = copy(v);
            assertEquals(PayloadSpec.checksum(copy), PayloadSpec.checksum(v), spec);
        }
        int[] a = (int[]) PayloadSpec.parse("int:200").newValue();
        long before = PayloadSpec.checksum(a);
        a[199]++;
        assertNotEquals(PayloadSpec.checksum(a), before);
        Tree t = (Tree) PayloadSpec.parse("tree:15").newValue();
        long whole = PayloadSpec.checksum(t);
        t.left.right = null;
        assertNotEquals(PayloadSpec.checksum(t), whole, "a missing subtree changes the checksum");
        Ints4Null2 o = new Ints4Null2(3);
        long plain = PayloadSpec.checksum(o);
        o.first = new Ints4Null2(1);
        assertNotEquals(PayloadSpec.checksum(o), plain, "a reference that should be null changes the checksum");
        assertNotEquals(PayloadSpec.checksum(null), PayloadSpec.checksum(new byte[0]));
    }

    private static Object copy(Object v) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(v);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return in.readObject();
        }
    }
}
