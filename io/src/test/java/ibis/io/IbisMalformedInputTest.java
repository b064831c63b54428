package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.testsupport.MemoryPipe;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.Serializable;
import java.io.StreamCorruptedException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Properties;
import java.util.Random;

import org.testng.annotations.Test;

/**
 * Hostile input to the "ibis" serialization: truncated streams, huge lengths, unknown handles and
 * type ids, forbidden classes, random mutations. Every case ends in an IOException (or
 * ClassNotFoundException) with no hang, no large allocation and no other throwable.
 */
public class IbisMalformedInputTest {

    /** Loaded only by name: its static initialiser tells whether anything initialised it. */
    static class Forbidden implements Serializable {
        private static final long serialVersionUID = 1L;

        static {
            ForbiddenWitness.initialised = true;
        }

        int x;
    }

    /** Separate from Forbidden: reading this flag must not initialise Forbidden. */
    static final class ForbiddenWitness {
        static boolean initialised;
    }

    /** A payload in big-endian order, as a big-endian peer writes it. */
    static final class Payload {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream d = new DataOutputStream(bytes);

        Payload i(int v) throws IOException {
            d.writeInt(v);
            return this;
        }

        Payload l(long v) throws IOException {
            d.writeLong(v);
            return this;
        }

        Payload b(int v) throws IOException {
            d.writeByte(v);
            return this;
        }

        Payload latin1(String s) throws IOException {
            d.writeInt(s.length());
            if (!s.isEmpty()) {
                d.writeByte(0);
                d.write(s.getBytes(StandardCharsets.ISO_8859_1));
            }
            return this;
        }

        /** A type definition of {@code type} with id {@code id} and its real fingerprint. */
        Payload define(int id, Class<?> type) throws IOException {
            return i(-2).i(id).latin1(type.getName()).l(SerialClass.of(type).fingerprint).b(0);
        }

        SerializationInput input(Properties properties) throws IOException {
            return Serialization.createInput("ibis",
                    MalformedInputTest.blocks(MalformedInputTest.message(bytes.toByteArray()), 0, 0), properties, null);
        }

        SerializationInput input() throws IOException {
            return input(null);
        }
    }

    private static com.sun.management.ThreadMXBean threads() {
        return (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }

    /** Runs {@code read}, which must throw an IOException; returns it; asserts that little was allocated. */
    private static IOException rejectsWithoutAllocating(String what, ThrowingRead read) {
        com.sun.management.ThreadMXBean t = threads();
        long before = t.getCurrentThreadAllocatedBytes();
        IOException e = expectThrows(IOException.class, read::run);
        long allocated = t.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < (4 << 20), what + ": allocated " + allocated + " bytes");
        return e;
    }

    interface ThrowingRead {
        void run() throws Throwable;
    }

    @Test(timeOut = 60_000)
    public void hugeLengthsAreRejectedBeforeAnythingLargeIsAllocated() throws IOException {
        // string longer than ibis.io.string.max
        IOException e = rejectsWithoutAllocating("string length", new Payload().i(1 << 30).b(0).input()::readString);
        assertTrue(e instanceof StreamCorruptedException && e.getMessage().contains("string length"), e.toString());
        assertTrue(e.getMessage().contains("offset"), e.getMessage());
        // a plausible string length whose bytes never come
        e = rejectsWithoutAllocating("missing string",
                new Payload().i(60 << 20).b(1).i(0x00410042).input()::readString);
        assertTrue(e instanceof StreamCorruptedException || e instanceof EOFException, e.toString());
        // a String object in an Object position
        e = rejectsWithoutAllocating("string object",
                new Payload().i(-4).i(60 << 20).b(0).i(0x41424344).input()::readObject);
        assertTrue(e instanceof StreamCorruptedException, e.toString());
        // primitive arrays: above the limit, and within it but without data
        e = rejectsWithoutAllocating("long[] over the limit",
                new Payload().i(-4 - 14).i(Integer.MAX_VALUE).input()::readObject);
        assertTrue(e.getMessage().contains("array length"), e.getMessage());
        Properties generous = new Properties();
        generous.setProperty(IoProperties.OBJECT_ARRAY_MAX, Integer.toString(Integer.MAX_VALUE));
        e = rejectsWithoutAllocating("long[] without data",
                () -> new Payload().i(-4 - 14).i(Integer.MAX_VALUE - 8).l(1).input(generous).readObject());
        assertTrue(e instanceof StreamCorruptedException || e instanceof EOFException, e.toString());
        e = rejectsWithoutAllocating("int[] without data in a later block", () -> {
            byte[] head = MalformedInputTest.message(new Payload().i(-4 - 13).i(16 << 20).i(7).bytes.toByteArray());
            head[0] &= 0x7f; // not the final block: the rest of the message could still come
            SerializationInput in = Serialization.createInput("ibis", MalformedInputTest.blocks(head, 0, 0));
            in.readObject();
        });
        assertTrue(e instanceof EOFException, e.toString());
        // an array of references longer than the rest of the message
        e = rejectsWithoutAllocating("Object[]", new Payload().i(-4 - 17).i(16 << 20).i(0).input()::readObject);
        assertTrue(e.getMessage().contains("rest of the message"), e.getMessage());
        e = rejectsWithoutAllocating("negative length", new Payload().i(-4 - 13).i(-5).input()::readObject);
        assertTrue(e instanceof StreamCorruptedException, e.toString());
        // counts in type definitions
        e = rejectsWithoutAllocating("enum names",
                new Payload().i(-2).i(32).latin1("x.Y").l(0).b(1).i(Integer.MAX_VALUE).input()::readObject);
        assertTrue(e instanceof StreamCorruptedException, e.toString());
        e = rejectsWithoutAllocating("type id", new Payload().i(-2).i(1 << 20).input()::readObject);
        assertTrue(e.getMessage().contains("type id"), e.getMessage());
        e = rejectsWithoutAllocating("class name", new Payload().i(-2).i(32).i(1 << 20).input()::readObject);
        assertTrue(e instanceof StreamCorruptedException, e.toString());
    }

    @Test(timeOut = 60_000)
    public void unknownHandlesTypeIdsAndMarkersAreStreamCorruption() throws IOException {
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class,
                new Payload().i(5).input()::readObject);
        assertTrue(e.getMessage().contains("handle 5") && e.getMessage().contains("offset"), e.getMessage());
        e = expectThrows(StreamCorruptedException.class, new Payload().i(-4 - 40).input()::readObject);
        assertTrue(e.getMessage().contains("type id 40"), e.getMessage());
        e = expectThrows(StreamCorruptedException.class, new Payload().i(-4 - 20).input()::readObject);
        assertTrue(e.getMessage().contains("type id 20"), e.getMessage());
        e = expectThrows(StreamCorruptedException.class, new Payload().i(-3).input()::readObject);
        assertTrue(e.getMessage().contains("known-type"), e.getMessage());
        e = expectThrows(StreamCorruptedException.class, new Payload().i(-4).i(3).b(7).input()::readObject);
        assertTrue(e.getMessage().contains("coder"), e.getMessage());
        e = expectThrows(StreamCorruptedException.class,
                new Payload().i(-2).i(32).latin1("a.B").l(0).b(9).input()::readObject);
        assertTrue(e.getMessage().contains("flags"), e.getMessage());
        // a reset marker inside an object: Node{int value; Node next}, next = RESET
        e = expectThrows(StreamCorruptedException.class,
                new Payload().define(32, Corpus.Node.class).i(-4 - 32).i(1).i(-1).input()::readObject);
        assertTrue(e.getMessage().contains("reset"), e.getMessage());
        // a field holding an object of the wrong type: Node.next = a String
        IOException wrongType = expectThrows(IOException.class,
                new Payload().define(32, Corpus.Node.class).i(-4 - 32).i(1)
                        .i(-4).latin1("not a node").input()::readObject);
        assertTrue(wrongType instanceof StreamCorruptedException, wrongType.toString());
        // a layout that differs from the local class
        InvalidClassException incompatible = expectThrows(InvalidClassException.class,
                new Payload().i(-2).i(32).latin1(Corpus.Node.class.getName()).l(12345).b(0).i(-4 - 32)
                        .input()::readObject);
        assertTrue(incompatible.getMessage().contains("incompatible"), incompatible.getMessage());
        // a class that is not serializable
        InvalidClassException notSerializable = expectThrows(InvalidClassException.class,
                new Payload().i(-2).i(32).latin1(Thread.class.getName()).l(0).b(0).input()::readObject);
        assertTrue(notSerializable.getMessage().contains("not serializable"), notSerializable.getMessage());
        // after corruption the input stays unusable
        SerializationInput in = new Payload().i(9).i(1).input();
        expectThrows(StreamCorruptedException.class, in::readObject);
        IOException after = expectThrows(IOException.class, in::readInt);
        assertTrue(after.getMessage().contains("unusable"), after.getMessage());
        // runs of primitive fields (rewritten and generated code) as well: no bytes are read
        IbisSerializationInput ibis = (IbisSerializationInput) in;
        IOException run = expectThrows(IOException.class, () -> ibis.claimPrimitives(8));
        assertTrue(run.getMessage().contains("unusable"), run.getMessage());
        IOException value = expectThrows(IOException.class, () -> ibis.intAt(0));
        assertTrue(value.getMessage().contains("unusable"), value.getMessage());
    }

    @Test(timeOut = 60_000)
    public void aClassUnknownHereIsClassNotFoundForTheRestOfTheMessageOnly() throws Exception {
        MemoryPipe pipe = new MemoryPipe();
        Payload p = new Payload().i(-2).i(32).latin1("no.such.Clazz").l(0).b(0).i(-4 - 32).i(77);
        byte[] first = MalformedInputTest.message(p.bytes.toByteArray());
        byte[] second = MalformedInputTest.message(new Payload().i(-4 - 5).i(42).i(-4 - 32).bytes.toByteArray());
        pipe.append(first, 0, first.length);
        pipe.append(second, 0, second.length);
        BlockInputStream blocks = new BlockInputStream(pipe.source, 64, ByteOrder.BIG_ENDIAN);
        SerializationInput in = Serialization.createInput("ibis", blocks);
        ClassNotFoundException e = expectThrows(ClassNotFoundException.class, in::readObject);
        assertTrue(e.getMessage().contains("no.such.Clazz"), e.getMessage());
        expectThrows(IOException.class, in::readInt);
        in.endMessage();
        blocks.endMessage();
        assertEquals(in.readObject(), 42, "the next message reads");
        expectThrows(ClassNotFoundException.class, in::readObject);
    }

    @Test(timeOut = 60_000)
    public void aForbiddenClassIsRejectedBeforeItIsInitialisedOrInstantiated() throws IOException {
        Properties properties = new Properties();
        properties.setProperty(IoProperties.CLASS_FILTER, "!" + Forbidden.class.getName());
        Payload p = new Payload().i(-2).i(32).latin1(Forbidden.class.getName()).l(0).b(0).i(-4 - 32).i(1);
        InvalidClassException e = expectThrows(InvalidClassException.class, p.input(properties)::readObject);
        assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
        assertFalse(ForbiddenWitness.initialised, "the class was loaded without initialising it, and rejected");
    }

    // ---- truncation and fuzzing

    /** A valid ibis stream of three messages, big-endian, in 100-byte blocks. */
    static byte[] validStream() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream blocks = BlockOutputStream.create(pipe.sink, 100, ByteOrder.BIG_ENDIAN);
        SerializationOutput out = Serialization.createOutput("ibis", blocks);
        for (int m = 0; m < 3; m++) {
            out.writeInt(m);
            out.writeString("message " + m);
            Corpus.Node list = Corpus.list(3, m == 1);
            HashMap<String, Object> map = new HashMap<>();
            map.put("list", list);
            map.put("point", new Corpus.Point(m, m));
            out.writeObject(new ArrayList<>(List.of(list, map, "text", m, Corpus.Color.BLUE, new int[] {m},
                    new Corpus.Pair("p", m), new Corpus.Custom(m), Corpus.tree(2, null))));
            out.writeArray(new double[] {m, 0.5}, 0, 2);
            out.writeLong(-m);
            out.endMessage();
            blocks.endMessage();
        }
        return pipe.unread();
    }

    /** Reads {@link #validStream()}'s layout; returns what ended it, or null. */
    static Throwable readExpected(byte[] bytes, int chunk, long seed) {
        try {
            BlockInputStream blocks = MalformedInputTest.blocks(bytes, chunk, seed);
            SerializationInput in = Serialization.createInput("ibis", blocks);
            for (int m = 0; m < 3; m++) {
                in.readInt();
                in.readString();
                in.readObject();
                in.readArray(new double[2], 0, 2);
                in.readLong();
                in.endMessage();
                blocks.endMessage();
            }
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    @Test(timeOut = 60_000)
    public void theValidStreamReadsBack() {
        try {
            assertEquals(readExpected(validStream(), 3, 1), null);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test(timeOut = 120_000)
    public void truncatedStreamsGiveIOExceptions() throws IOException {
        byte[] valid = validStream();
        for (int cut = 0; cut < valid.length; cut += cut < 300 ? 1 : 5) {
            Throwable t = readExpected(Arrays.copyOf(valid, cut), 3, cut);
            assertTrue(t instanceof IOException, "cut at " + cut + ": " + t);
        }
        // The first message's payload cut short, framed as a complete message.
        ByteBuffer b = ByteBuffer.wrap(valid);
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        for (;;) {
            int header = b.getInt();
            payload.write(valid, b.position(), header & 0x7fffffff);
            b.position(b.position() + (header & 0x7fffffff));
            if (header < 0) {
                break;
            }
        }
        byte[] first = payload.toByteArray();
        for (int cut = 0; cut < first.length; cut++) {
            Throwable t = readExpected(MalformedInputTest.message(Arrays.copyOf(first, cut)), 0, cut);
            assertTrue(t instanceof IOException, "message cut at " + cut + ": " + t);
        }
    }

    @Test(timeOut = 120_000)
    public void fuzzedStreamsOnlyEverThrowIOExceptions() throws IOException {
        byte[] base = validStream();
        // Longer runs by hand: -Dibis.io.test.fuzz.rounds=50000 -Dibis.io.test.fuzz.seed=7
        int rounds = Integer.getInteger("ibis.io.test.fuzz.rounds", 2000);
        Random random = new Random(Long.getLong("ibis.io.test.fuzz.seed", 2025));
        int failures = 0;
        for (int round = 0; round < rounds; round++) {
            byte[] mutated = base.clone();
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                int at = random.nextInt(mutated.length);
                switch (random.nextInt(4)) {
                    case 0: mutated[at] = (byte) random.nextInt(); break;
                    case 1: mutated[at] ^= (byte) (1 << random.nextInt(8)); break;
                    case 2: mutated[at] = (byte) (random.nextBoolean() ? 0 : 0xFF); break;
                    default: // an int that looks like a header: a small handle or type id
                        if (at + 4 <= mutated.length) {
                            ByteBuffer.wrap(mutated, at, 4).putInt(random.nextInt(80) - 60);
                        }
                        break;
                }
            }
            Throwable t = readExpected(mutated, random.nextInt(3) == 0 ? 5 : 0, round);
            if (t == null) {
                continue;
            }
            failures++;
            if (!(t instanceof IOException || t instanceof ClassNotFoundException)) {
                AssertionError e = new AssertionError("round " + round + ": " + t);
                e.initCause(t);
                throw e;
            }
        }
        assertTrue(failures > rounds / 4, "most mutations must be detected, were " + failures);
    }

    @Test(timeOut = 60_000)
    public void randomBytesGiveIOExceptions() {
        Random random = new Random(4711);
        for (int round = 0; round < 300; round++) {
            byte[] bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            if (round % 3 == 0 && bytes.length >= 4) {
                bytes[0] &= 0x80;
                bytes[1] = 0;
            }
            Throwable t = MalformedInputTest.readUntilFailure("ibis", bytes, random.nextInt(4), round);
            assertTrue(t instanceof IOException || t instanceof ClassNotFoundException, "round " + round + ": " + t);
        }
    }

    @Test(timeOut = 60_000)
    public void theArrayLimitGuardsAllocationsNotReadsIntoTheCallersArray() throws IOException,
            ClassNotFoundException {
        Properties small = new Properties();
        small.setProperty(IoProperties.OBJECT_ARRAY_MAX, "10");
        Payload twenty = new Payload().i(-4 - 13).i(20);
        for (int k = 0; k < 20; k++) {
            twenty.i(k * 3);
        }
        int[] mine = new int[20];
        twenty.input(small).readArray(mine, 0, 20); // nothing is made from the stream's length
        assertEquals(mine[19], 57);
        IOException e = expectThrows(IOException.class, () -> twenty.input(small).readObject());
        assertTrue(e.getMessage().contains(IoProperties.OBJECT_ARRAY_MAX), e.getMessage());
    }
}
