package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.testng.annotations.Test;

public class CapabilitySetTest {

    @Test
    public void capabilitiesAreSortedAndDeduplicated() {
        CapabilitySet set = new CapabilitySet("b", "a", "b", "c");
        assertEquals(set.size(), 3);
        assertEquals(set.getCapabilities(), new String[] { "a", "b", "c" });
        assertTrue(set.hasCapability("a"));
        assertFalse(set.hasCapability("d"));
        assertFalse(set.hasCapability(null));
        assertEquals(new CapabilitySet().size(), 0);
    }

    @Test
    public void changingTheReturnedArrayDoesNotChangeTheSet() {
        CapabilitySet set = new CapabilitySet("a", "b");
        set.getCapabilities()[0] = "z";
        assertEquals(set.getCapabilities(), new String[] { "a", "b" });
    }

    @Test
    public void nullOrEmptyCapabilityIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new CapabilitySet("a", null));
        assertThrows(IllegalArgumentException.class, () -> new CapabilitySet(""));
    }

    @Test
    public void equalSetsOfTheSameClassAreEqual() {
        CapabilitySet a = new CapabilitySet("x", "y");
        CapabilitySet b = new CapabilitySet("y", "x");
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(a.toString(), "[x, y]");
        assertEquals(new CapabilitySet(a), a);
        assertNotEquals(new CapabilitySet("x"), a);
        // Same strings, different classes: an IbisCapabilities is not a plain CapabilitySet.
        assertNotEquals(new IbisCapabilities("x", "y"), a);
    }

    @Test
    public void codedFormRoundTrips() throws IOException {
        CapabilitySet set = new CapabilitySet("connection.onetoone", "serialization.data", "\u00e9l\u00e8ve.\u4e2d");
        byte[] coded = set.toBytes();
        assertEquals(new CapabilitySet(coded), set);

        byte[] padded = new byte[coded.length + 7];
        System.arraycopy(coded, 0, padded, 3, coded.length);
        assertEquals(new CapabilitySet(padded, 3, coded.length), set);

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        set.writeTo(out);
        out.writeInt(42);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()));
        assertEquals(new CapabilitySet(in), set);
        assertEquals(in.readInt(), 42, "reading must stop right after the set");

        assertEquals(new CapabilitySet(new CapabilitySet().toBytes()).size(), 0);
    }

    @Test
    public void portTypeRoundTripsThroughDataInput() throws IOException {
        PortType type = new PortType(PortType.CONNECTION_ONE_TO_MANY, PortType.SERIALIZATION_OBJECT,
                PortType.RECEIVE_AUTO_UPCALLS);
        PortType read = new PortType(new DataInputStream(new ByteArrayInputStream(type.toBytes())));
        assertEquals(read, type);
    }

    private static byte[] coded(int count, int... lengthsAndBytes) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(count);
        for (int v : lengthsAndBytes) {
            out.writeInt(v);
        }
        return bytes.toByteArray();
    }

    @Test
    public void malformedCodedFormIsRejected() throws IOException {
        // Too many or a negative number of capabilities: rejected before anything is allocated.
        IOException e = expectThrows(IOException.class, () -> new CapabilitySet(coded(Integer.MAX_VALUE)));
        assertTrue(e.getMessage().contains("capabilities"), e.getMessage());
        assertThrows(IOException.class, () -> new CapabilitySet(coded(-1)));
        // A capability length that is huge, negative or zero.
        e = expectThrows(IOException.class, () -> new CapabilitySet(coded(1, Integer.MAX_VALUE)));
        assertTrue(e.getMessage().contains("length"), e.getMessage());
        assertThrows(IOException.class, () -> new CapabilitySet(coded(1, -5)));
        assertThrows(IOException.class, () -> new CapabilitySet(coded(1, 0)));
        // Truncated input.
        assertThrows(IOException.class, () -> new CapabilitySet(coded(2, 1)));
        assertThrows(IOException.class, () -> new CapabilitySet(new byte[] { 0, 0 }));
        assertThrows(IOException.class, () -> new CapabilitySet(new byte[0]));
        byte[] good = new CapabilitySet("abc", "def").toBytes();
        assertThrows(IOException.class, () -> new CapabilitySet(Arrays.copyOf(good, good.length - 1)));
        // Bytes left over.
        assertThrows(IOException.class, () -> new CapabilitySet(Arrays.copyOf(good, good.length + 1)));
        // Range outside the array.
        assertThrows(IOException.class, () -> new CapabilitySet(good, 4, good.length));
        assertThrows(IOException.class, () -> new CapabilitySet(good, -1, 2));
        // Invalid UTF-8.
        byte[] badUtf8 = coded(1, 1);
        byte[] withByte = Arrays.copyOf(badUtf8, badUtf8.length + 1);
        withByte[withByte.length - 1] = (byte) 0xff;
        assertThrows(IOException.class, () -> new CapabilitySet(withByte));
        // Duplicates.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(2);
        for (int i = 0; i < 2; i++) {
            out.writeInt(1);
            out.write('a');
        }
        e = expectThrows(IOException.class, () -> new CapabilitySet(bytes.toByteArray()));
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
    }

    @Test
    public void invalidPortTypeFromDataInputIsAnIOException() {
        byte[] coded = new CapabilitySet(PortType.SERIALIZATION_DATA).toBytes();
        assertThrows(IOException.class,
                () -> new PortType(new DataInputStream(new ByteArrayInputStream(coded))));
    }

    @Test
    public void matchingMeansHavingAllOfTheOthersCapabilities() {
        CapabilitySet offered = new CapabilitySet("a", "b", "c");
        assertTrue(offered.matchCapabilities(new CapabilitySet("a", "c")));
        assertTrue(offered.matchCapabilities(new CapabilitySet()));
        assertTrue(offered.matchCapabilities(offered));
        assertFalse(offered.matchCapabilities(new CapabilitySet("a", "d")));
        assertFalse(new CapabilitySet("a").matchCapabilities(offered));
    }

    @Test
    public void unmatchedCapabilitiesAreThoseOfTheOtherThatThisLacks() {
        CapabilitySet offered = new CapabilitySet("a", "b");
        CapabilitySet required = new CapabilitySet("b", "c", "d");
        assertEquals(offered.unmatchedCapabilities(required), new CapabilitySet("c", "d"));
        assertEquals(offered.unmatchedCapabilities(new CapabilitySet("a")).size(), 0);
    }

    @Test
    public void capabilitiesWithPrefix() {
        PortType type = new PortType(PortType.CONNECTION_ONE_TO_ONE, PortType.SERIALIZATION_DATA,
                PortType.SERIALIZATION_OBJECT_SUN, PortType.RECEIVE_EXPLICIT);
        assertEquals(type.getCapabilitiesWithPrefix("serialization.").getCapabilities(),
                new String[] { PortType.SERIALIZATION_DATA, PortType.SERIALIZATION_OBJECT_SUN });
        assertEquals(type.getCapabilitiesWithPrefix("nothing").size(), 0);
    }

    @Test
    public void loadReadsKeysAndTheCapabilitiesList() throws IOException {
        String file = "# comment\n"
                + "capabilities = elections.strict, signals ,\n"
                + "closed.world\n"
                + "membership.totally.ordered = true\n"
                + "termination = false\n";
        CapabilitySet set = CapabilitySet.load(new ByteArrayInputStream(file.getBytes(StandardCharsets.ISO_8859_1)));
        assertEquals(set.getCapabilities(), new String[] { "closed.world", "elections.strict",
                "membership.totally.ordered", "signals" });
        IbisCapabilities ibis = IbisCapabilities.load(new ByteArrayInputStream(
                file.getBytes(StandardCharsets.ISO_8859_1)));
        assertEquals(ibis, new IbisCapabilities("closed.world", "elections.strict", "membership.totally.ordered",
                "signals"));
    }

    @Test
    public void loadByNameFindsFilesAndReportsMissingOnes() throws IOException {
        Path dir = Files.createTempDirectory("capabilities");
        Path file = dir.resolve("needs.properties");
        try {
            Files.writeString(file, "capabilities = a,b\nc\n");
            assertEquals(CapabilitySet.load(file.toString()), new CapabilitySet("a", "b", "c"));
            assertEquals(IbisCapabilities.load(file.toString()), new IbisCapabilities("a", "b", "c"));
            assertThrows(FileNotFoundException.class, () -> CapabilitySet.load(dir.resolve("missing").toString()));
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(dir);
        }
    }
}
