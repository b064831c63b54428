package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.testsupport.MemoryPipe;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.testng.annotations.Test;

/**
 * Malformed input never hangs, never exhausts memory and never throws anything but an IOException
 * (plus ClassNotFoundException where a read declares it).
 */
public class MalformedInputTest {

    /** A serializable class for the object streams below. */
    static final class Item implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;
        final int[] values;
        Item link;

        Item(String name, int[] values) {
            this.name = name;
            this.values = values;
        }
    }

    /** One complete message holding {@code payload} in a single final block. */
    static byte[] message(byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(4 + payload.length);
        b.putInt(0x8000_0000 | payload.length);
        b.put(payload);
        return b.array();
    }

    static BlockInputStream blocks(byte[] wire, int chunk, long seed) {
        return new BlockInputStream(MemoryPipe.of(wire, chunk, seed).source, 64, ByteOrder.BIG_ENDIAN);
    }

    /** Start of a sun stream: stream header and message marker. */
    static DataOutputStream sunStream(ByteArrayOutputStream bytes) throws IOException {
        DataOutputStream d = new DataOutputStream(bytes);
        d.writeShort(0xACED);
        d.writeShort(5);
        d.writeByte(0x70); // TC_NULL: the message marker
        return d;
    }

    /** Writes a class descriptor for an array class without fields (TC_CLASSDESC ... TC_NULL). */
    static void arrayClassDescriptor(DataOutputStream d, Class<?> arrayClass) throws IOException {
        d.writeByte(0x72);
        d.writeUTF(arrayClass.getName());
        d.writeLong(ObjectStreamClass.lookup(arrayClass).getSerialVersionUID());
        d.writeByte(0x02); // SC_SERIALIZABLE
        d.writeShort(0);
        d.writeByte(0x78); // TC_ENDBLOCKDATA
        d.writeByte(0x70); // no superclass
    }

    @Test(timeOut = 60_000)
    public void randomBytesGiveIOExceptions() {
        Random random = new Random(12345);
        for (int round = 0; round < 300; round++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            if (round % 3 == 0 && bytes.length >= 4) {
                bytes[0] &= 0x80; // plausible small first block length
                bytes[1] = 0;
            }
            String name = round % 2 == 0 ? "data" : "sun";
            Throwable t = readUntilFailure(name, bytes, random.nextInt(4), round);
            assertTrue(t instanceof IOException || t instanceof ClassNotFoundException,
                    "round " + round + " (" + name + "): " + t);
        }
    }

    @Test(timeOut = 60_000)
    public void aHugeClaimedArrayInAnObjectStreamIsRejectedBeforeAllocation() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream d = sunStream(bytes);
        d.writeByte(0x75); // TC_ARRAY
        arrayClassDescriptor(d, long[].class);
        d.writeInt(Integer.MAX_VALUE - 8); // 16 GiB if allocated
        d.writeLong(1);
        SerializationInput in = Serialization.createInput("sun", blocks(message(bytes.toByteArray()), 0, 0));
        InvalidClassException e = expectThrows(InvalidClassException.class, in::readObject);
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
    }

    @Test(timeOut = 60_000)
    public void aHugeClaimedLongStringInAnObjectStreamFailsWithoutAllocatingIt() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream d = sunStream(bytes);
        d.writeByte(0x7C); // TC_LONGSTRING
        d.writeLong(1L << 40);
        d.writeBytes("only a few bytes");
        SerializationInput in = Serialization.createInput("sun", blocks(message(bytes.toByteArray()), 0, 0));
        expectThrows(IOException.class, in::readString);
    }

    @Test(timeOut = 60_000)
    public void deeplyNestedObjectsAreRejectedNotAStackOverflow() throws IOException {
        for (int depth : new int[] {100, 200_000}) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream d = sunStream(bytes);
            d.writeByte(0x75);
            arrayClassDescriptor(d, Object[].class); // handle 0x7E0000
            d.writeInt(1);
            for (int i = 1; i < depth; i++) {
                d.writeByte(0x75);
                d.writeByte(0x71); // TC_REFERENCE to the class descriptor
                d.writeInt(0x7E0000);
                d.writeInt(1);
            }
            d.writeByte(0x70);
            SerializationInput in = Serialization.createInput("sun", blocks(message(bytes.toByteArray()), 0, 0));
            if (depth == 100) {
                Object[] outer = (Object[]) readObjectUnchecked(in);
                assertEquals(outer.length, 1);
            } else {
                IOException e = expectThrows(IOException.class, in::readObject);
                assertTrue(e instanceof InvalidClassException || e instanceof java.io.StreamCorruptedException,
                        e.toString());
            }
        }
    }

    @Test(timeOut = 60_000)
    public void truncatedStreamsGiveIOExceptions() throws IOException {
        for (String name : new String[] {"data", "sun"}) {
            byte[] valid = validStream(name, 1);
            for (int cut = 0; cut < valid.length; cut += (cut < 200 ? 1 : 7)) {
                // Cut raw: the connection ends in the middle.
                Throwable t = readExpected(name, Arrays.copyOf(valid, cut), 3, cut);
                assertTrue(t instanceof IOException, name + " cut at " + cut + ": " + t);
            }
            // Cut payload, framed as a complete shorter message: the message ends in the middle.
            byte[] payload = Arrays.copyOfRange(valid, 4, valid.length); // validStream(1) is one block
            assertEquals(ByteBuffer.wrap(valid).getInt(), 0x8000_0000 | payload.length, "one final block");
            for (int cut = 0; cut < payload.length; cut++) {
                Throwable t = readExpected(name, message(Arrays.copyOf(payload, cut)), 0, cut);
                assertTrue(t instanceof IOException, name + " message cut at " + cut + ": " + t);
            }
        }
    }

    @Test(timeOut = 120_000)
    public void fuzzedStreamsOnlyEverThrowIOExceptions() throws IOException {
        byte[][] bases = {validStream("data", 3), validStream("sun", 3)};
        String[] names = {"data", "sun"};
        // Longer runs by hand: -Dibis.io.test.fuzz.rounds=50000 -Dibis.io.test.fuzz.seed=7
        int rounds = Integer.getInteger("ibis.io.test.fuzz.rounds", 2000);
        Random random = new Random(Long.getLong("ibis.io.test.fuzz.seed", 2024));
        int failures = 0;
        for (int round = 0; round < rounds; round++) {
            int which = round % 2;
            byte[] mutated = bases[which].clone();
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                int at = random.nextInt(mutated.length);
                switch (random.nextInt(3)) {
                    case 0: mutated[at] = (byte) random.nextInt(); break;
                    case 1: mutated[at] ^= (byte) (1 << random.nextInt(8)); break;
                    default: mutated[at] = (byte) (random.nextBoolean() ? 0 : 0xFF); break;
                }
            }
            Throwable t = readExpected(names[which], mutated, random.nextInt(3) == 0 ? 5 : 0, round);
            if (t == null) {
                continue; // the mutation happened to keep the stream readable
            }
            failures++;
            if (!(t instanceof IOException || t instanceof ClassNotFoundException)) {
                AssertionError e = new AssertionError("round " + round + " (" + names[which] + "): " + t);
                e.initCause(t);
                throw e;
            }
        }
        assertTrue(failures > rounds / 4, "most mutations must be detected, were " + failures);
    }

    // ---- helpers

    private static Object readObjectUnchecked(SerializationInput in) throws IOException {
        try {
            return in.readObject();
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /** A valid stream of {@code messages} messages as the readers below expect them. */
    static byte[] validStream(String name, int messages) throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream blocks = BlockOutputStream.create(pipe.sink, messages == 1 ? 1 << 16 : 100,
                ByteOrder.BIG_ENDIAN);
        SerializationOutput out = Serialization.createOutput(name, blocks);
        for (int m = 0; m < messages; m++) {
            out.writeInt(m);
            out.writeString("message " + m);
            out.writeArray(new double[] {m, 0.5, -1}, 0, 3);
            if (name.equals("sun")) {
                Item item = new Item("item" + m, new int[] {1, 2, 3});
                item.link = item;
                out.writeObject(new ArrayList<>(List.of(item, "text", m)));
                out.writeArray(new int[] {4, 5}, 0, 2);
            }
            out.writeLong(-m);
            out.endMessage();
            blocks.endMessage();
        }
        return pipe.unread();
    }

    /** Reads {@code bytes} as {@link #validStream} wrote them; returns the throwable that ended it, or null. */
    static Throwable readExpected(String name, byte[] bytes, int chunk, long seed) {
        try {
            BlockInputStream blocks = blocks(bytes, chunk, seed);
            SerializationInput in = Serialization.createInput(name, blocks);
            for (int m = 0; m < 3; m++) {
                in.readInt();
                in.readString();
                in.readArray(new double[3], 0, 3);
                if (name.equals("sun")) {
                    in.readObject();
                    in.readArray(new int[2], 0, 2);
                }
                in.readLong();
                in.endMessage();
                blocks.endMessage();
            }
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Reads arbitrary bytes with a mix of reads until something fails (it must: the bytes run out). */
    static Throwable readUntilFailure(String name, byte[] bytes, int chunk, long seed) {
        Random random = new Random(seed);
        try {
            BlockInputStream blocks = blocks(bytes, chunk, seed);
            SerializationInput in = Serialization.createInput(name, blocks);
            for (int i = 0; i < 100_000; i++) {
                try {
                    switch (random.nextInt(6)) {
                        case 0: in.readInt(); break;
                        case 1: in.readString(); break;
                        case 2: in.readArray(new int[1 + random.nextInt(5)], 0, 1 + random.nextInt(1)); break;
                        case 3: in.readLong(); break;
                        case 4: if (name.equals("sun")) { in.readObject(); } else { in.readByte(); } break;
                        default: in.endMessage(); blocks.endMessage(); break;
                    }
                } catch (EndOfMessageException e) {
                    in.endMessage();
                    blocks.endMessage();
                }
            }
            fail("reading random bytes never failed");
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
