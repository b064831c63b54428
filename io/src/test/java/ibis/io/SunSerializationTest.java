package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.testsupport.MemoryPipe;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.testng.annotations.Test;

/** The "sun" serialization (JDK object streams over the block framing). */
public class SunSerializationTest {

    /** A serializable test class with references. */
    static final class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        final int value;
        Node next;
        Object payload;

        Node(int value) {
            this.value = value;
        }
    }

    @Test(timeOut = 60_000)
    public void primitivesArraysAndStringsRoundTripOverManyMessages() throws IOException {
        Wire wire = new Wire(61, 7, 3);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        RandomData[] messages = new RandomData[5];
        for (int m = 0; m < messages.length; m++) {
            messages[m] = new RandomData(m, 200, m == 2 ? 3000 : 50);
            messages[m].writeAll(out);
            out.writeString(m % 2 == 0 ? null : "message " + m + " \u00e9\u4e16" + "z".repeat(70_000 * (m % 2)));
            wire.endMessage(out);
        }
        for (int m = 0; m < messages.length; m++) {
            messages[m].readAll(in);
            assertEquals(in.readString(),
                    m % 2 == 0 ? null : "message " + m + " \u00e9\u4e16" + "z".repeat(70_000 * (m % 2)));
            assertThrows(EndOfMessageException.class, in::readInt);
            wire.endMessage(in);
        }
    }

    @Test(timeOut = 60_000)
    public void objectGraphsKeepCyclesAndSharedReferences() throws Exception {
        Wire wire = new Wire(64, 3, 1);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        Node a = new Node(1);
        Node b = new Node(2);
        a.next = b;
        b.next = a; // cycle
        a.payload = b;
        Map<String, Object> map = new HashMap<>();
        map.put("a", a);
        map.put("b", b);
        out.writeObject(map);
        out.writeInt(42);
        out.writeObject(List.of(a, a));
        wire.endMessage(out);

        @SuppressWarnings("unchecked")
        Map<String, Object> back = (Map<String, Object>) in.readObject();
        Node a2 = (Node) back.get("a");
        Node b2 = (Node) back.get("b");
        assertEquals(a2.value, 1);
        assertSame(a2.next, b2);
        assertSame(b2.next, a2);
        assertSame(a2.payload, b2);
        assertEquals(in.readInt(), 42);
        List<?> list = (List<?>) in.readObject();
        assertSame(list.get(0), a2);
        assertSame(list.get(1), a2);
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void identityIsKeptWithinAMessageAndForgottenAtItsEnd() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        Node a = new Node(7);
        out.writeObject(a);
        out.writeObject(a);
        wire.endMessage(out);
        a.payload = "changed";
        out.writeObject(a);
        out.reset(); // within the message: the next write is a new copy
        out.writeObject(a);
        wire.endMessage(out);

        Object first = in.readObject();
        assertSame(in.readObject(), first, "same message, no reset: same object");
        wire.endMessage(in);
        Object second = in.readObject();
        assertNotSame(second, first, "a later message: a new copy");
        assertEquals(((Node) second).payload, "changed", "a later message carries the current state");
        Object third = in.readObject();
        assertNotSame(third, second, "after reset() a new copy");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void aSkippedMessageLeavesTheHandlesOfTheNextOneInStep() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        Node skipped = new Node(1);
        out.writeObject(skipped);
        out.writeObject(new Node(2));
        out.writeObject(skipped);
        wire.endMessage(out);
        Node shared = new Node(3);
        Node other = new Node(4);
        out.writeObject(other);
        out.writeObject(shared);
        out.writeObject(shared);
        wire.endMessage(out);

        wire.endMessage(in); // the first message is not read at all
        Node readOther = (Node) in.readObject();
        Node first = (Node) in.readObject();
        Node second = (Node) in.readObject();
        assertEquals(readOther.value, 4);
        assertEquals(first.value, 3);
        assertSame(second, first, "a back-reference within the second message resolves to its own object");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void primitiveArraysAreArrayObjectsReadableByReadArrayOrReadObject() throws Exception {
        Wire wire = new Wire(128, 0, 0);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        int[] ints = {1, 2, 3, 4, 5};
        out.writeArray(ints, 0, 5);
        out.writeArray(ints, 1, 3);
        out.writeArray(ints, 0, 5);
        ints[0] = 100; // written again after a change: the new contents travel, not a back reference
        out.writeArray(ints, 0, 5);
        out.writeArray(new double[] {0.5, 1.5}, 0, 2);
        out.writeArray(new Object[] {"x", null, ints}, 0, 3);
        out.writeArray(new char[] {'a', 'b'}, 0, 2);
        out.writeArray(new long[] {1, 2}, 0, 2);
        out.writeInt(9);
        wire.endMessage(out);

        int[] got = new int[7];
        in.readArray(got, 2, 5);
        assertEquals(got, new int[] {0, 0, 1, 2, 3, 4, 5});
        assertEquals((int[]) in.readObject(), new int[] {2, 3, 4});
        assertEquals((int[]) in.readObject(), new int[] {1, 2, 3, 4, 5});
        in.readArray(got, 0, 5);
        assertEquals(got[0], 100);
        assertEquals((double[]) in.readObject(), new double[] {0.5, 1.5});
        Object[] objects = new Object[3];
        in.readArray(objects, 0, 3);
        assertEquals(objects[0], "x");
        assertNull(objects[1]);
        assertEquals((int[]) objects[2], new int[] {100, 2, 3, 4, 5});
        IOException wrongType = expectThrows(IOException.class, () -> in.readArray(new int[2], 0, 2));
        assertTrue(wrongType.getMessage().contains("char[]"), wrongType.getMessage());
        IOException wrongLength = expectThrows(IOException.class, () -> in.readArray(new long[3], 0, 3));
        assertTrue(wrongLength.getMessage().contains("length 2"), wrongLength.getMessage());
        assertEquals(in.readInt(), 9, "a mismatch does not break the stream");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void createInputReadsNothingUntilTheFirstRead() throws Exception {
        ByteSource refusing = new ByteSource() {
            @Override
            public int read(ByteBuffer destination, int minimum) {
                throw new AssertionError("createInput must not read");
            }

            @Override
            public int available() {
                return 0;
            }

            @Override
            public boolean awaitData(long timeoutMillis) {
                return false;
            }

            @Override
            public void close() {
            }
        };
        SerializationInput lazy = Serialization.createInput("sun",
                new BlockInputStream(refusing, 64, ByteOrder.BIG_ENDIAN));
        assertEquals(lazy.serializationName(), "sun");
        assertThrows(AssertionError.class, lazy::readObject);

        // The port re-creates both sides for a new stream, in the middle of a connection.
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        out.writeObject("first stream");
        wire.endMessage(out);
        assertEquals(in.readObject(), "first stream");
        wire.endMessage(in);
        SerializationOutput out2 = wire.output("sun");
        out2.writeObject("second stream");
        wire.endMessage(out2);
        SerializationInput in2 = wire.input("sun");
        assertEquals(in2.readObject(), "second stream");
        wire.endMessage(in2);
    }

    @Test(timeOut = 60_000)
    public void endMessageSkipsUnreadDataAndKeepsObjectIdentitiesInStep() throws Exception {
        Wire wire = new Wire(64, 5, 9);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        Node shared = new Node(11);
        int[] many = new int[3000];

        // 1: only the first int is read; block data, objects and a reset follow unread.
        out.writeInt(1);
        out.writeArray(many, 0, many.length);
        out.writeLong(2);
        out.writeObject(shared);
        out.writeInt(3);
        wire.endMessage(out);
        // 2: a back reference to the object nobody read.
        out.writeObject(shared);
        out.writeObject(new Node(12));
        wire.endMessage(out);
        // 3: nothing read at all.
        out.writeObject(new Node(13));
        out.writeLong(4);
        out.reset();
        wire.endMessage(out);
        // 4: empty.
        wire.endMessage(out);
        // 5: after the unread reset, the shared node is sent in full again.
        out.writeObject(shared);
        out.writeInt(5);
        out.writeObject(shared);
        wire.endMessage(out);

        assertEquals(in.readInt(), 1);
        wire.endMessage(in);
        Node back = (Node) in.readObject();
        assertEquals(back.value, 11);
        wire.endMessage(in);
        wire.endMessage(in);
        assertThrows(EndOfMessageException.class, in::readObject);
        wire.endMessage(in);
        Node fresh = (Node) in.readObject();
        assertNotSame(fresh, back, "the skipped reset was applied");
        assertEquals(in.readInt(), 5);
        assertSame(in.readObject(), fresh);
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void readingPastTheEndOfAMessageDoesNotSpoilTheNext() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        out.writeInt(1);
        out.writeShort((short) 2);
        wire.endMessage(out);
        out.writeObject("two");
        wire.endMessage(out);
        out.writeInt(3);
        out.writeObject("three");
        wire.endMessage(out);

        assertEquals(in.readInt(), 1);
        assertThrows(EndOfMessageException.class, in::readInt); // 2 bytes left
        assertThrows(EndOfMessageException.class, in::readObject);
        wire.endMessage(in);
        assertEquals(in.readObject(), "two");
        assertThrows(EndOfMessageException.class, in::readObject);
        assertThrows(EndOfMessageException.class, in::readByte);
        wire.endMessage(in);
        assertEquals(in.readInt(), 3);
        assertEquals(in.readObject(), "three");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void theStreamHeaderTravelsWithTheFirstContentNotWithEmptyMessages() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        wire.blocksOut.writeByte((byte) 1); // a port's own message header, after creating the output
        wire.endMessage(out);
        assertEquals(HexFormat.of().formatHex(wire.pipe.unread()), "8000000101", "nothing from an unused output");
        wire.blocksOut.writeByte((byte) 2);
        out.writeInt(6);
        wire.endMessage(out);
        SerializationInput in = wire.input("sun");
        assertEquals(wire.blocksIn.readByte(), 1);
        assertThrows(EndOfMessageException.class, in::readInt);
        wire.endMessage(in);
        assertEquals(wire.blocksIn.readByte(), 2);
        assertEquals(in.readInt(), 6);
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void aMessageWithNothingButTheStreamHeaderIsAccepted() throws Exception {
        byte[] headerOnly = MalformedInputTest.message(HexFormat.of().parseHex("aced0005"));
        byte[] marked = MalformedInputTest.message(HexFormat.of().parseHex("70" + "7704" + "00000007"));
        byte[] wire = BlockStreamTest.concat(headerOnly, BlockStreamTest.concat(marked, marked));
        BlockInputStream blocks = new BlockInputStream(MemoryPipe.of(wire, 0, 0).source, 64, ByteOrder.BIG_ENDIAN);
        SerializationInput in = Serialization.createInput("sun", blocks);
        assertThrows(EndOfMessageException.class, in::readInt);
        in.endMessage();
        blocks.endMessage();
        assertEquals(in.readInt(), 7);
        in.endMessage();
        blocks.endMessage();

        BlockInputStream unread = new BlockInputStream(MemoryPipe.of(wire, 0, 0).source, 64, ByteOrder.BIG_ENDIAN);
        SerializationInput in2 = Serialization.createInput("sun", unread);
        in2.endMessage(); // the header-only message is never read
        unread.endMessage();
        in2.endMessage(); // nor the first marked one
        unread.endMessage();
        assertEquals(in2.readInt(), 7);
    }

    @Test(timeOut = 60_000)
    public void aRejectedClassGivesInvalidClassException() throws Exception {
        ObjectInputFilter noNodes = info -> info.serialClass() == Node.class
                ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED;
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        out.writeObject(new ArrayList<>(List.of("fine")));
        wire.endMessage(out);
        out.writeObject(new Node(1));
        wire.endMessage(out);
        SerializationInput in = Serialization.createInput("sun", wire.blocksIn, noNodes);
        assertEquals(in.readObject(), List.of("fine"));
        wire.endMessage(in);
        expectThrows(InvalidClassException.class, in::readObject);
        wire.endMessage(in);
        IOException after = expectThrows(IOException.class, in::readInt);
        assertTrue(after.getMessage().contains("unusable"), after.getMessage());

        // The same through the ibis.io.class.filter pattern.
        for (String pattern : new String[] {"!ibis.io.*", "java.**;!*"}) {
            Properties properties = new Properties();
            properties.setProperty(IoProperties.CLASS_FILTER, pattern);
            Wire patterned = new Wire(64, 0, 0);
            SerializationOutput o = patterned.output("sun");
            o.writeObject(new Node(2));
            patterned.endMessage(o);
            SerializationInput i = Serialization.createInput("sun", patterned.blocksIn, properties, null);
            expectThrows(InvalidClassException.class, i::readObject);
        }
        Properties bad = new Properties();
        bad.setProperty(IoProperties.CLASS_FILTER, "maxdepth=x");
        assertThrows(IllegalArgumentException.class, () -> Serialization.createInput("sun", wire.blocksIn, bad, null));
    }

    @Test(timeOut = 60_000)
    public void theMessagesTogetherFormAStandardJavaSerializationStream() throws Exception {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream blocks = BlockOutputStream.create(pipe.sink, 1 << 16, ByteOrder.BIG_ENDIAN);
        SerializationOutput out = Serialization.createOutput("sun", blocks);
        out.writeInt(5);
        out.writeObject("s");
        out.endMessage();
        blocks.endMessage();
        out.writeObject(Arrays.asList(1, 2));
        out.endMessage();
        blocks.endMessage();
        ByteBuffer wire = ByteBuffer.wrap(pipe.unread());
        java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
        while (wire.hasRemaining()) {
            int length = wire.getInt() & 0x7fffffff;
            payload.write(wire.array(), wire.position(), length);
            wire.position(wire.position() + length);
        }
        ObjectInputStream plain = new ObjectInputStream(new ByteArrayInputStream(payload.toByteArray()));
        assertNull(plain.readObject(), "message marker");
        assertEquals(plain.readInt(), 5);
        assertEquals(plain.readObject(), "s");
        assertNull(plain.readObject(), "message marker");
        assertEquals(plain.readObject(), List.of(1, 2));
    }

    @Test(timeOut = 60_000)
    public void readObjectPropagatesClassNotFoundAndStaysInStep() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("sun");
        out.writeObject(new Node(3));
        out.writeInt(4);
        wire.endMessage(out);
        // A reader whose class loader cannot see Node: a subclass-free way is a filter-free stream
        // with the class name changed on the wire, keeping the length.
        byte[] bytes = wire.pipe.unread();
        String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        int at = text.indexOf("SunSerializationTest$Node");
        assertTrue(at > 0);
        bytes[at + "SunSerializationTest$".length()] = 'M';
        SerializationInput in = Serialization.createInput("sun",
                new BlockInputStream(MemoryPipe.of(bytes, 0, 0).source, 64, ByteOrder.nativeOrder()));
        assertThrows(ClassNotFoundException.class, in::readObject);
        assertEquals(in.readInt(), 4);
    }

    /** A plain serializable link: no writeObject of its own, so the JDK stream recurses once per node. */
    static final class Link implements Serializable {
        private static final long serialVersionUID = 1L;
        int value;
        Link next;
    }

    static Link chain(int n) {
        Link head = null;
        for (int i = n - 1; i >= 0; i--) {
            Link l = new Link();
            l.value = i;
            l.next = head;
            head = l;
        }
        return head;
    }

    static void assertChain(Object o, int n) {
        int i = 0;
        for (Link l = (Link) o; l != null; l = l.next) {
            assertEquals(l.value, i++);
        }
        assertEquals(i, n);
    }

    /** Runs {@code body} on a new thread with the JVM's default stack size and rethrows what it threw. */
    static void onDefaultStack(ThrowingRunnable body) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "default-stack");
        t.start();
        t.join();
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test(timeOut = 120_000)
    public void aHundredThousandNodeListIsWrittenAndReadAtTheDefaultStackSize() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 1);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        Link list = chain(100_000);
        Node small = new Node(5);
        onDefaultStack(() -> {
            out.writeInt(7);
            out.writeObject(list);
            out.writeObject(list);
            out.writeObject(small); // later objects of a deep message go the same way
            out.writeInt(8);
            wire.endMessage(out);
            out.writeObject(small); // the next message is an ordinary one again
            out.writeObject(small);
            wire.endMessage(out);
        });
        onDefaultStack(() -> {
            assertEquals(in.readInt(), 7);
            Object first = in.readObject();
            assertSame(in.readObject(), first, "identity within the deep message");
            assertEquals(((Node) in.readObject()).value, 5);
            assertEquals(in.readInt(), 8);
            assertThrows(EndOfMessageException.class, in::readInt);
            wire.endMessage(in);
            assertChain(first, 100_000);
            Node n = (Node) in.readObject();
            assertSame(in.readObject(), n);
            wire.endMessage(in);
        });
    }

    /**
     * A first object that cannot recurse (here a 100,000-byte array) needs no retry on a large
     * stack, so it is not held back: it reaches the block stream in the JDK stream's own pieces as
     * it is written, instead of being collected and copied once more in one piece.
     */
    @Test(timeOut = 60_000)
    public void aLargePrimitiveArrayAsTheFirstObjectIsNotHeldBack() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 1);
        int[] largestPiece = {0};
        DataOutput recording = (DataOutput) java.lang.reflect.Proxy.newProxyInstance(DataOutput.class.getClassLoader(),
                new Class<?>[] {DataOutput.class}, (proxy, method, args) -> {
                    if (method.getName().equals("writeArray") && args[0] instanceof byte[]) {
                        largestPiece[0] = Math.max(largestPiece[0], (Integer) args[2]);
                    }
                    try {
                        return method.invoke(wire.blocksOut, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        SerializationOutput out = Serialization.createOutput("sun", recording);
        byte[] big = new byte[100_000];
        Arrays.fill(big, (byte) 9);
        out.writeObject(big);
        out.writeObject(new Node(4)); // the message's later objects are written as before
        wire.endMessage(out);
        assertTrue(largestPiece[0] <= 8192, "the array was held back and copied in one piece of " + largestPiece[0]);
        SerializationInput in = wire.input("sun");
        assertEquals((byte[]) in.readObject(), big);
        assertEquals(((Node) in.readObject()).value, 4);
        wire.endMessage(in);
    }

    @Test(timeOut = 120_000)
    public void aDeepMessageThatIsNotReadToItsEndIsSkippedOnALargeStack() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 1);
        SerializationOutput out = wire.output("sun");
        SerializationInput in = wire.input("sun");
        onDefaultStack(() -> {
            out.writeObject(chain(100_000));
            out.writeObject(chain(50_000));
            wire.endMessage(out);
            out.writeInt(3);
            wire.endMessage(out);
        });
        onDefaultStack(() -> {
            assertChain(in.readObject(), 100_000);
            wire.endMessage(in); // drops the second list unread
            assertEquals(in.readInt(), 3);
            wire.endMessage(in);
        });
    }

    @Test(timeOut = 120_000)
    public void aDeepGraphAfterAStringOfTheSameMessageFailsNamingTheRemedies() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 1);
        SerializationOutput out = wire.output("sun");
        onDefaultStack(() -> {
            out.writeString("a string has a handle: the message cannot be written again after a reset");
            IOException e = expectThrows(IOException.class, () -> out.writeObject(chain(100_000)));
            assertTrue(e.getMessage().contains(IoProperties.SUN_DEEP_DEPTH_MAX), e.getMessage());
            assertTrue(e.getMessage().contains("serialization.object.ibis"), e.getMessage());
        });
    }

    @Test(timeOut = 120_000)
    public void aDeepMessageDeeperThanTheDeepLimitIsRejectedNotAStackOverflow() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 1);
        SerializationOutput out = wire.output("sun");
        Properties limit = new Properties();
        limit.setProperty(IoProperties.SUN_DEEP_DEPTH_MAX, "20000");
        SerializationInput in = Serialization.createInput("sun", wire.blocksIn, limit, null);
        onDefaultStack(() -> {
            out.writeObject(chain(100_000));
            wire.endMessage(out);
        });
        onDefaultStack(() -> {
            InvalidClassException e = expectThrows(InvalidClassException.class, in::readObject);
            assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
        });
    }

    /** The payloads of the blocks in {@code wire}, concatenated (headers: big-endian length, bit 31 = last). */
    static byte[] payloads(byte[] wire) {
        java.io.ByteArrayOutputStream payload = new java.io.ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.wrap(wire);
        while (b.hasRemaining()) {
            int length = b.getInt() & 0x7fffffff;
            payload.write(wire, b.position(), length);
            b.position(b.position() + length);
        }
        return payload.toByteArray();
    }

    @Test(timeOut = 60_000)
    public void messagesThatFitTheStackAreByteForByteWhatAPlainObjectOutputStreamWrites() throws Exception {
        Wire wire = new Wire(1 << 12, 0, 1);
        SerializationOutput out = wire.output("sun");
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        java.io.ObjectOutputStream plain = new java.io.ObjectOutputStream(expected);
        Node shared = new Node(1);
        shared.next = new Node(2);
        shared.payload = "p";
        int[] small = {1, 2, 3};
        long[] large = new long[20_000]; // more than the output holds back
        Arrays.fill(large, 7L);
        for (int m = 0; m < 3; m++) {
            out.writeInt(m);
            out.writeArray(small, 0, small.length);
            out.writeObject(shared);
            out.writeString("s" + m);
            out.writeArray(large, 0, large.length);
            out.writeObject(shared);
            out.writeObject(chain(500));
            wire.endMessage(out);
            plain.writeObject(null); // the message marker
            plain.writeInt(m);
            plain.writeUnshared(small);
            plain.writeObject(shared);
            plain.writeObject("s" + m);
            plain.writeUnshared(large);
            plain.writeObject(shared);
            plain.writeObject(chain(500));
            plain.reset();
            plain.flush();
        }
        assertEquals(payloads(wire.pipe.unread()), expected.toByteArray());
    }
}
