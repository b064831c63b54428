package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.MemoryPipe;

import java.util.List;

import org.testng.annotations.Test;

/**
 * The stream side of the rewriter contract, with classes written by hand in the generated shape
 * ({@code HandRewritten.java}): the stream uses their members, and writes exactly the bytes the
 * run-time generated serializer writes for the same classes, so rewritten and non-rewritten peers
 * interoperate in both directions.
 */
public class RewrittenContractTest {

    private static HandRewritten.Foo graph() {
        HandRewritten.Foo first = new HandRewritten.Foo(1, 10, "first");
        HandRewritten.Foo second = new HandRewritten.Foo(2, 20, "\u4e16");
        first.f = second;
        second.f = first; // a cycle
        second.b = first.b; // a shared known-type object
        second.arr = first.arr;
        return first;
    }

    private static byte[] write(Object... graphs) throws Exception {
        return write(1 << 12, false, graphs);
    }

    /** {@code opaque}: the serialization sees the block stream only as a DataOutput (values written one by one). */
    private static byte[] write(int bufferSize, boolean opaque, Object... graphs) throws Exception {
        Wire wire = new Wire(bufferSize, 0, 0);
        wire.opaque = opaque;
        SerializationOutput out = wire.output("ibis");
        for (Object g : graphs) {
            out.writeObject(g);
            wire.endMessage(out);
        }
        return wire.pipe.unread();
    }

    private static Object[] read(byte[] bytes, int messages) throws Exception {
        return read(bytes, messages, false);
    }

    /** {@code opaque}: the serialization sees the block stream only as a {@link DataInput} (values read one by one). */
    private static Object[] read(byte[] bytes, int messages, boolean opaque) throws Exception {
        BlockInputStream blocks = new BlockInputStream(MemoryPipe.of(bytes, 0, 0).source, 1 << 12,
                java.nio.ByteOrder.nativeOrder());
        SerializationInput in = Serialization.createInput("ibis",
                opaque ? Wire.behind(DataInput.class, blocks) : blocks);
        Object[] result = new Object[messages];
        for (int m = 0; m < messages; m++) {
            result[m] = in.readObject();
            in.endMessage();
            blocks.endMessage();
        }
        return result;
    }

    @Test(timeOut = 60_000)
    public void rewrittenMembersAreUsedAndRoundTrip() throws Exception {
        assertTrue(SerialClass.of(HandRewritten.Foo.class).codec() instanceof RewrittenCodec);
        assertTrue(SerialClass.of(HandRewritten.Point.class).codec() instanceof RewrittenCodec);
        HandRewritten.Foo original = graph();
        HandRewritten.Foo copy =
                (HandRewritten.Foo) IbisSerializationTest.roundTrip("ibis", new Wire(61, 5, 1), original).get(0);
        GraphAssert.assertGraphEquals(copy, original);
        assertEquals(copy.parentValue, 42, "the non-serializable superclass's no-arg constructor ran");
        assertEquals(copy.t, 0, "the transient field has its default");
        assertSame(copy.f.f, copy);
        assertSame(copy.f.b, copy.b);
    }

    @Test(timeOut = 60_000)
    public void rewrittenAndRunTimeSerializersWriteTheSameBytesAndReadEachOther() throws Exception {
        SerialClass foo = SerialClass.of(HandRewritten.Foo.class);
        SerialClass point = SerialClass.of(HandRewritten.Point.class);
        SerialClass base = SerialClass.of(HandRewritten.Base.class);
        ObjectCodec[] rewritten = {foo.codec(), point.codec(), base.codec()};
        ObjectCodec[] runtime = {Codecs.runtimeCodec(foo), Codecs.runtimeCodec(point), Codecs.runtimeCodec(base)};
        assertTrue(runtime[0] instanceof FieldCodec);
        HandRewritten.Foo list = new HandRewritten.Foo(0, 0, "head");
        HandRewritten.Foo tail = list;
        for (int i = 1; i < 1000; i++) { // deep enough for deferred contents
            tail.f = new HandRewritten.Foo(i, i, null);
            tail = tail.f;
        }
        Object[] graphs = {graph(), list, new HandRewritten.Base(3)};
        try {
            byte[] byRewritten = write(graphs);
            foo.setCodecForTesting(runtime[0]);
            point.setCodecForTesting(runtime[1]);
            base.setCodecForTesting(runtime[2]);
            byte[] byRuntime = write(graphs);
            assertEquals(byRuntime, byRewritten, "same wire format");
            Object[] readByRuntime = read(byRewritten, graphs.length);
            foo.setCodecForTesting(rewritten[0]);
            point.setCodecForTesting(rewritten[1]);
            base.setCodecForTesting(rewritten[2]);
            Object[] readByRewritten = read(byRuntime, graphs.length);
            for (int i = 0; i < graphs.length; i++) {
                GraphAssert.assertGraphEquals(readByRuntime[i], graphs[i]);
                GraphAssert.assertGraphEquals(readByRewritten[i], graphs[i]);
            }
        } finally {
            foo.setCodecForTesting(rewritten[0]);
            point.setCodecForTesting(rewritten[1]);
            base.setCodecForTesting(rewritten[2]);
        }
    }

    private static HandRewritten.Chain chain(int n) {
        HandRewritten.Chain head = new HandRewritten.Chain(0);
        HandRewritten.Chain tail = head;
        for (int i = 1; i < n; i++) {
            tail.next = new HandRewritten.Chain(i);
            tail = tail.next;
        }
        tail.next = head.next; // a back-reference
        return head;
    }

    /**
     * A field declared as the class itself (rewriter contract): the stream lets the rewritten code
     * write and read a new object of the class by calling its members directly; the run-time
     * serializer of the same class writes the same bytes and reads them without entering them.
     */
    @Test(timeOut = 60_000)
    public void selfTypedFieldsCallTheRewrittenMembersOnlyWhenTheStreamUsesThem() throws Exception {
        SerialClass sc = SerialClass.of(HandRewritten.Chain.class);
        ObjectCodec rewritten = sc.codec();
        assertTrue(rewritten instanceof RewrittenCodec);
        // Deeper than the deferral depth, the stream takes over (deferred objects are read by
        // run-time code), so the calls are counted on a shorter chain.
        HandRewritten.Chain deep = chain(300);
        GraphAssert.assertGraphEquals(read(write(deep), 1)[0], deep);
        HandRewritten.Chain original = chain(50);
        HandRewritten.Chain.written = 0;
        HandRewritten.Chain.read = 0;
        byte[] byRewritten = write(original);
        Object copy = read(byRewritten, 1)[0];
        GraphAssert.assertGraphEquals(copy, original);
        assertEquals(HandRewritten.Chain.written, 50, "every link written by its ibisWrite");
        assertEquals(HandRewritten.Chain.read, 50, "every link read by its reading constructor");
        try {
            // The stream uses a run-time serializer for the class (as when it finds its rewritten
            // members unusable): the rewritten code must not be entered through a field either.
            sc.setCodecForTesting(Codecs.runtimeCodec(sc));
            HandRewritten.Chain.written = 0;
            HandRewritten.Chain.read = 0;
            byte[] byRuntime = write(original);
            assertEquals(byRuntime, byRewritten, "same wire format");
            GraphAssert.assertGraphEquals(read(byRuntime, 1)[0], original);
            assertEquals(HandRewritten.Chain.written, 0);
            assertEquals(HandRewritten.Chain.read, 0);
        } finally {
            sc.setCodecForTesting(rewritten);
        }
    }

    /** A tree of {@code n} nodes, numbered in pre-order from {@code first}. */
    private static HandRewritten.Node tree(int n, int first) {
        if (n == 0) {
            return null;
        }
        HandRewritten.Node node = new HandRewritten.Node(first);
        int rest = n - 1;
        node.left = tree(rest - rest / 2, first + 1);
        node.right = tree(rest / 2, first + 1 + rest - rest / 2);
        return node;
    }

    /**
     * Node graphs that take every way through selfHeader: null, new objects of the class, back
     * references (shared nodes, a cycle), subclass objects, a chain deeper than the deferral depth.
     */
    private static Object[] nodeGraphs() {
        HandRewritten.Node shared = tree(63, 0);
        shared.left.left.left = shared.right;                 // a back reference in a folded field
        shared.right.right.right = shared;                    // a cycle through a beginPlain field
        shared.right.left.left = shared.right.left;           // a node that is its own left link
        HandRewritten.Node mixed = tree(15, 100);
        mixed.left = new HandRewritten.SubNode(7);            // another class in a folded field
        mixed.left.left = new HandRewritten.Node(8);
        mixed.right.left = new HandRewritten.SubNode(9);
        HandRewritten.Node chain = new HandRewritten.Node(1000);
        HandRewritten.Node tail = chain;
        for (int i = 1; i < 3 * IbisSerializationOutput.DEFER_DEPTH; i++) {
            tail.left = new HandRewritten.Node(1000 + i);
            tail.right = i % 5 == 0 ? chain : null;
            tail = tail.left;
        }
        return new Object[] {shared, mixed, chain, tree(1, 5000)};
    }

    /** The payloads of a stream's blocks, each message's followed by an end mark (io/README.md, "Block framing"). */
    private static String payload(byte[] wire) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(wire);
        StringBuilder messages = new StringBuilder();
        while (b.hasRemaining()) {
            int header = b.getInt();
            for (int n = header & 0x7fff_ffff; n > 0; n--) {
                messages.append(String.format("%02x", b.get()));
            }
            if (header < 0) {
                messages.append("|\n");
            }
        }
        return messages.toString();
    }

    /** The shape of rewritten code before headers joined runs: the run, then beginPlain for both links. */
    private static final class UnfoldedNodeCodec extends ObjectCodec {
        @Override
        void writeContents(Object obj, IbisSerializationOutput out) throws java.io.IOException {
            write((HandRewritten.Node) obj, out);
        }

        private static void write(HandRewritten.Node node, IbisSerializationOutput out) throws java.io.IOException {
            int p = out.reservePrimitives(16);
            out.putInt(p, node.a);
            out.putInt(p + 4, node.b);
            out.putLong(p + 8, node.c);
            if (out.beginPlain(node.left, HandRewritten.Node.class)) {
                write(node.left, out);
                out.endPlain();
            }
            if (out.beginPlain(node.right, HandRewritten.Node.class)) {
                write(node.right, out);
                out.endPlain();
            }
        }

        @Override
        Object readNew(IbisSerializationInput in) throws java.io.IOException, ClassNotFoundException {
            Object node = allocate();
            in.registerObject(node);
            readContents(node, in);
            return node;
        }

        @Override
        Object allocate() {
            return new HandRewritten.Node(0);
        }

        @Override
        void readContents(Object obj, IbisSerializationInput in) throws java.io.IOException, ClassNotFoundException {
            HandRewritten.Node node = (HandRewritten.Node) obj;
            int p = in.claimPrimitives(16);
            node.a = in.intAt(p);
            node.b = in.intAt(p + 4);
            node.c = in.longAt(p + 8);
            node.left = readLink(in);
            node.right = readLink(in);
        }

        private HandRewritten.Node readLink(IbisSerializationInput in)
                throws java.io.IOException, ClassNotFoundException {
            if (in.beginPlain(HandRewritten.Node.class)) {
                Object v = readNew(in);
                in.endPlain();
                return (HandRewritten.Node) v;
            }
            return (HandRewritten.Node) in.readAfterHeader();
        }
    }

    /**
     * A reference field of the class's own type right after a run of primitives has its header in
     * the run's reservation (rewriter contract): the bytes are exactly those of the run followed by
     * beginPlain, and those of the run-time serializer (which folds the same way), over a block
     * stream (blocks of 16 bytes, too small for a run and a header, to 4 KiB) and over a plain
     * DataOutput; and they read back as the same graphs by the rewritten code (which claims the
     * header with the run), by the shape before and by the run-time serializer.
     */
    @Test(timeOut = 60_000)
    public void aSelfTypedFieldAfterARunWritesTheSameBytesWithItsHeaderInTheRun() throws Exception {
        SerialClass sc = SerialClass.of(HandRewritten.Node.class);
        ObjectCodec rewritten = sc.codec();
        assertTrue(rewritten instanceof RewrittenCodec);
        Object[] graphs = nodeGraphs();
        int[] bufferSizes = {16, 20, 23, 1 << 12};
        // [2i]: over the block stream, [2i + 1]: over it as a plain DataOutput (blocks cut elsewhere)
        byte[][] folded = new byte[2 * bufferSizes.length][];
        for (int i = 0; i < folded.length; i++) {
            HandRewritten.Node.written = 0;
            folded[i] = write(bufferSizes[i / 2], i % 2 == 1, graphs);
            assertTrue(HandRewritten.Node.written > 63,
                    "the rewritten code wrote the nodes: " + HandRewritten.Node.written);
        }
        try {
            for (ObjectCodec other : new ObjectCodec[] {new UnfoldedNodeCodec(), Codecs.runtimeCodec(sc)}) {
                sc.setCodecForTesting(other);
                HandRewritten.Node.written = 0;
                for (int i = 0; i < folded.length; i++) {
                    // The same payload; runs may cut blocks at other places when the rest of a block is small.
                    assertEquals(payload(write(bufferSizes[i / 2], i % 2 == 1, graphs)), payload(folded[i]),
                            other + ", blocks of " + bufferSizes[i / 2] + (i % 2 == 1 ? ", as a DataOutput" : ""));
                }
                assertEquals(write(graphs), folded[folded.length - 2], "whole runs in large blocks: the same blocks");
                assertEquals(HandRewritten.Node.written, 0);
            }
        } finally {
            sc.setCodecForTesting(rewritten);
        }
        // Every payload read by the rewritten code (its header claimed with the run), by the shape
        // before (the run, then beginPlain) and by the run-time serializer, over the block stream
        // and over it as a plain DataInput.
        Object[] copies = null;
        for (ObjectCodec reader : new ObjectCodec[] {rewritten, new UnfoldedNodeCodec(), Codecs.runtimeCodec(sc)}) {
            sc.setCodecForTesting(reader);
            try {
                for (byte[] bytes : folded) {
                    for (boolean opaque : new boolean[] {false, true}) {
                        HandRewritten.Node.read = 0;
                        copies = read(bytes, graphs.length, opaque);
                        for (int i = 0; i < graphs.length; i++) {
                            GraphAssert.assertGraphEquals(copies[i], graphs[i]);
                        }
                        assertEquals(HandRewritten.Node.read > 63, reader == rewritten, reader + " read the nodes");
                    }
                }
            } finally {
                sc.setCodecForTesting(rewritten);
            }
        }
        HandRewritten.Node shared = (HandRewritten.Node) copies[0];
        assertSame(shared.left.left.left, shared.right);
        assertSame(shared.right.right.right, shared);
        assertSame(shared.right.left.left, shared.right.left);
        assertEquals(copies[1].getClass(), HandRewritten.Node.class);
        assertEquals(((HandRewritten.Node) copies[1]).left.getClass(), HandRewritten.SubNode.class);
    }

    @Test(timeOut = 60_000)
    public void aClassWithHooksIsNotTreatedAsRewrittenEvenIfItClaimsToBe() throws Exception {
        assertTrue(SerialClass.of(HandRewritten.Wrong.class).codec() instanceof HookCodec);
        HandRewritten.Wrong copy = (HandRewritten.Wrong) IbisSerializationTest.roundTrip("ibis", new Wire(256, 0, 0),
                new HandRewritten.Wrong(7)).get(0);
        assertEquals(copy.v, 7);
        assertTrue(copy.hookRan);
        assertEquals(Codecs.rewrittenGenerator(HandRewritten.Wrong.class, true), null);
        assertEquals(List.of(HandRewritten.Foo.class.getInterfaces()), List.of(Serializable.class));
    }
}
