package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.PrintStream;
import java.io.Serializable;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** The "ibis" object serialization: round trips of the class-shape corpus, identities, types, strings, arrays. */
public class IbisSerializationTest {

    @DataProvider
    public static Object[][] corpus() {
        List<Object[]> rows = new ArrayList<>();
        for (Map.Entry<String, Supplier<Object>> e : Corpus.samples().entrySet()) {
            rows.add(new Object[] {e.getKey(), e.getValue()});
        }
        return rows.toArray(new Object[0][]);
    }

    /** Writes each graph in its own message (twice: the second copy must be a new copy), reads them back. */
    static List<Object> roundTrip(String serialization, Wire wire, Object... graphs) throws Exception {
        SerializationOutput out = wire.output(serialization);
        SerializationInput in = wire.input(serialization);
        for (Object g : graphs) {
            out.writeInt(17);
            out.writeObject(g);
            out.writeObject(g);
            out.writeInt(18);
            wire.endMessage(out);
        }
        List<Object> back = new ArrayList<>();
        for (int i = 0; i < graphs.length; i++) {
            assertEquals(in.readInt(), 17);
            Object first = in.readObject();
            Object second = in.readObject();
            assertEquals(in.readInt(), 18);
            assertThrows(EndOfMessageException.class, in::readInt);
            wire.endMessage(in);
            if (first != null && !(first instanceof String)) {
                assertSame(second, first, "the same object twice in one message is one object");
            }
            back.add(first);
        }
        return back;
    }

    @Test(dataProvider = "corpus", timeOut = 60_000)
    public void everyShapeRoundTripsThroughIbis(String name, Supplier<Object> sample) throws Exception {
        Object original = sample.get();
        Object copy = roundTrip("ibis", new Wire(1 << 12, 0, 1), original).get(0);
        GraphAssert.assertGraphEquals(copy, original);
    }

    @Test(dataProvider = "corpus", timeOut = 60_000)
    public void everyShapeRoundTripsThroughIbisOverTinyBlocksAndTheOtherByteOrder(String name, Supplier<Object> sample)
            throws Exception {
        ByteOrder other = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN
                : ByteOrder.BIG_ENDIAN;
        Object original = sample.get();
        Object copy = roundTrip("ibis", new Wire(61, 7, name.hashCode(), other), original).get(0);
        GraphAssert.assertGraphEquals(copy, original);
    }

    /** Streams that are not block streams: runs of primitive fields are then read and written value by value. */
    @Test(dataProvider = "corpus", timeOut = 60_000)
    public void everyShapeRoundTripsThroughIbisOverStreamsThatAreNotBlockStreams(String name, Supplier<Object> sample)
            throws Exception {
        Object original = sample.get();
        Wire wire = new Wire(61, 7, name.hashCode());
        wire.opaque = true;
        Object copy = roundTrip("ibis", wire, original).get(0);
        GraphAssert.assertGraphEquals(copy, original);
    }

    @Test(dataProvider = "corpus", timeOut = 60_000)
    public void everyShapeRoundTripsThroughSun(String name, Supplier<Object> sample) throws Exception {
        Object original = sample.get();
        Wire wire = new Wire(1 << 12, 0, 1);
        SerializationOutput sun = wire.output("sun");
        SerializationInput sunIn = wire.input("sun");
        sun.writeObject(original);
        sun.reset();
        wire.endMessage(sun);
        Object copy = sunIn.readObject();
        wire.endMessage(sunIn);
        GraphAssert.assertGraphEquals(copy, original);
    }

    @Test(timeOut = 60_000)
    public void jdkSemanticsAreHonoured() throws Exception {
        List<Object> back = roundTrip("ibis", new Wire(1 << 12, 0, 0),
                new Corpus.WithTransient(), new Corpus.SerializableChild(5, 6), new Corpus.Custom(7),
                new Object[] {Corpus.Singleton.INSTANCE}, new Corpus.Replaced("r"), Corpus.Op.PLUS, Corpus.circle(1));
        Corpus.WithTransient t = (Corpus.WithTransient) back.get(0);
        assertEquals(t.kept, 5);
        assertEquals(t.dropped, 0, "transient fields get their default");
        assertNull(t.droppedRef);
        Corpus.SerializableChild child = (Corpus.SerializableChild) back.get(1);
        assertEquals(child.childValue, 6);
        assertEquals(child.parentValue, 42, "the non-serializable superclass's no-arg constructor ran");
        assertEquals(((Corpus.Custom) back.get(2)).derived, 14, "readObject restored the transient field");
        assertSame(((Object[]) back.get(3))[0], Corpus.Singleton.INSTANCE, "readResolve");
        assertEquals(((Corpus.Replaced) back.get(4)).text, "r", "writeReplace then readResolve");
        assertSame(back.get(5), Corpus.Op.PLUS, "enum constants are canonical");
        assertEquals(((Corpus.Shape) back.get(6)).area(), Math.PI, 1e-12);
    }

    @Test(timeOut = 60_000)
    public void aNonSerializableObjectGivesNotSerializableExceptionAndTheStreamGoesOn() throws Exception {
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        NotSerializableException e = expectThrows(NotSerializableException.class,
                () -> out.writeObject(new Corpus.HoldsUnserializable()));
        assertTrue(e.getMessage().contains("Unserializable"), e.getMessage());
        assertThrows(NotSerializableException.class, () -> out.writeObject(new Object()));
        wire.endMessage(out); // the port would drop this message; here the reader skips it
        out.writeObject(List.of("next"));
        wire.endMessage(out);
        wire.endMessage(in);
        assertEquals(in.readObject(), List.of("next"));
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void identitiesLastAMessageAndResetForgetsThemButNotTheTypes() throws Exception {
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        Corpus.Node node = new Corpus.Node(1);
        out.writeObject(node);
        out.writeObject(node);
        out.reset();
        out.writeObject(node);
        out.writeObject(node); // a back-reference numbered from the reset on
        wire.endMessage(out);
        out.writeObject(node);
        wire.endMessage(out);

        Object a = in.readObject();
        assertSame(in.readObject(), a, "shared within the message");
        Object c = in.readObject();
        assertNotSame(c, a, "reset() forgets the object");
        assertEquals(((Corpus.Node) c).value, 1);
        assertSame(in.readObject(), c, "the reader numbers objects from the reset on too");
        wire.endMessage(in);
        Object d = in.readObject();
        assertNotSame(d, c, "identity does not outlive the message");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void backReferencesResolveInMessagesOfManyObjectsAcrossResetsAndInSmallMessagesAfterThem()
            throws Exception {
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        Corpus.Node[] nodes = new Corpus.Node[1000];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new Corpus.Node(i);
        }
        for (int i = 0; i < nodes.length; i++) {
            nodes[i].next = nodes[(i * 13 + 1) % nodes.length]; // chains through the whole table, cycles
        }
        Object[] graph = new Object[3000]; // every node three times, in a scattered order
        for (int i = 0; i < graph.length; i++) {
            graph[i] = nodes[(i * 7) % nodes.length];
        }
        out.writeObject(graph);
        out.writeObject(nodes[5]); // a back reference after the whole large graph
        wire.endMessage(out);
        out.writeObject(graph);
        out.reset(); // in the middle of a message with more objects than the stream's own table
        out.writeObject(graph);
        wire.endMessage(out);
        Corpus.Node small = new Corpus.Node(-1);
        out.writeObject(new Object[] {small, small});
        wire.endMessage(out);

        Object[] first = (Object[]) in.readObject();
        assertGraph(first, graph);
        assertSame(in.readObject(), first[(5 * 143) % 3000], "node 5 after the graph"); // 5 * 143 * 7 = 5 mod 1000
        wire.endMessage(in);
        Object[] second = (Object[]) in.readObject();
        Object[] third = (Object[]) in.readObject();
        assertGraph(second, graph);
        assertGraph(third, graph);
        assertNotSame(third[0], second[0], "reset() forgets the objects");
        wire.endMessage(in);
        Object[] pair = (Object[]) in.readObject();
        assertSame(pair[1], pair[0]);
        assertEquals(((Corpus.Node) pair[0]).value, -1);
        wire.endMessage(in);
    }

    /** back has the values and the sharing of graph: equal positions hold one object, next links kept. */
    private static void assertGraph(Object[] back, Object[] graph) {
        assertEquals(back.length, graph.length);
        java.util.Map<Integer, Corpus.Node> byValue = new java.util.HashMap<>();
        for (int i = 0; i < back.length; i++) {
            Corpus.Node b = (Corpus.Node) back[i];
            Corpus.Node g = (Corpus.Node) graph[i];
            assertEquals(b.value, g.value);
            Corpus.Node seen = byValue.putIfAbsent(b.value, b);
            assertSame(b, seen == null ? b : seen, "one object per node at " + i);
        }
        assertEquals(byValue.size(), 1000);
        for (Corpus.Node b : byValue.values()) {
            assertSame(b.next, byValue.get((b.value * 13 + 1) % 1000), "next of node " + b.value);
        }
    }

    @Test(timeOut = 60_000)
    public void aTypeDescriptorCrossesTheStreamOnceAndIsANumberAfterwards() throws Exception {
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        long[] sizes = new long[4];
        for (int m = 0; m < sizes.length; m++) {
            long before = out.bytesWritten();
            Corpus.Derived d = new Corpus.Derived();
            d.baseName = "n";
            out.writeObject(d);
            if (m == 2) {
                out.reset();
            }
            wire.endMessage(out);
            sizes[m] = out.bytesWritten() - before;
        }
        assertTrue(sizes[1] < sizes[0], "second message " + sizes[1] + " bytes, first " + sizes[0]);
        assertTrue(sizes[0] - sizes[1] > Corpus.Derived.class.getName().length(), "the class name travelled once");
        assertEquals(sizes[2], sizes[1]);
        assertEquals(sizes[3], sizes[1], "reset() keeps the type ids");
        for (int m = 0; m < sizes.length; m++) {
            Corpus.Derived back = (Corpus.Derived) in.readObject();
            assertEquals(back.baseName, "n");
            wire.endMessage(in);
        }
        // A new stream (the port's NEW_STREAM) starts a new type table on both sides.
        SerializationOutput out2 = wire.output("ibis");
        long before = out2.bytesWritten();
        Corpus.Derived again = new Corpus.Derived();
        again.baseName = "n";
        out2.writeObject(again);
        wire.endMessage(out2);
        assertEquals(out2.bytesWritten() - before, sizes[0]);
        SerializationInput in2 = wire.input("ibis");
        assertTrue(in2.readObject() instanceof Corpus.Derived);
    }

    @Test(timeOut = 60_000)
    public void aHundredThousandNodeListNeedsNoDeepStack() throws Exception {
        Wire wire = new Wire(1 << 16, 0, 0);
        Corpus.Node list = Corpus.list(100_000, false);
        Corpus.Node cyclic = Corpus.list(100_000, true);
        Map<String, Object> holder = new HashMap<>(); // a JDK hook (HashMap.readObject) around the list
        holder.put("list", Corpus.list(100_000, false));
        Object[] nested = new Object[1]; // 100,000 nested arrays
        Object[] at = nested;
        for (int i = 0; i < 100_000; i++) {
            Object[] next = new Object[1];
            at[0] = next;
            at = next;
        }
        List<Object> back = roundTrip("ibis", wire, list, cyclic, holder, nested);
        GraphAssert.assertGraphEquals(back.get(0), list);
        GraphAssert.assertGraphEquals(back.get(1), cyclic);
        GraphAssert.assertGraphEquals(back.get(2), holder);
        int depth = 0;
        for (Object[] a = (Object[]) back.get(3); a != null; a = (Object[]) a[0]) {
            depth++;
        }
        assertEquals(depth, 100_001);
    }

    /** A list element with a writeObject hook inside a deferred part, and a doubly linked list. */
    static class DoubleNode implements Serializable {
        private static final long serialVersionUID = 1L;
        DoubleNode prev;
        DoubleNode next;
        Object payload;
    }

    @Test(timeOut = 60_000)
    public void deferredContentsKeepIdentitiesAndHooksSeeCompleteObjects() throws Exception {
        DoubleNode head = new DoubleNode();
        DoubleNode tail = head;
        for (int i = 1; i < 20_000; i++) {
            DoubleNode n = new DoubleNode();
            n.prev = tail;
            tail.next = n;
            n.payload = i % 1000 == 0 ? new Corpus.Custom(i) : i % 3 == 0 ? head : Integer.valueOf(i);
            tail = n;
        }
        head.payload = tail; // a back reference from the first node to the last
        Map<Object, Object> map = new HashMap<>(); // keys hashed by HashMap.readObject: must be complete
        map.put(new Corpus.Pair("deep", 1), Corpus.list(500, false));
        List<Object> back = roundTrip("ibis", new Wire(4096, 3, 5), head, map);
        GraphAssert.assertGraphEquals(back.get(0), head);
        GraphAssert.assertGraphEquals(back.get(1), map);
    }

    /** A class whose writeObject hook writes the next element itself: not deferrable, so nesting is limited. */
    static class HookedNode implements Serializable {
        private static final long serialVersionUID = 1L;
        HookedNode next;

        private void writeObject(ObjectOutputStream s) throws IOException {
            s.defaultWriteObject();
        }
    }

    @Test(timeOut = 60_000)
    public void aNonDeferrableChainDeeperThanTheLimitIsAnIOExceptionNotAStackOverflow() throws Exception {
        HookedNode head = new HookedNode();
        HookedNode at = head;
        for (int i = 0; i < 100_000; i++) {
            at.next = new HookedNode();
            at = at.next;
        }
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        IOException e = expectThrows(IOException.class, () -> out.writeObject(head));
        assertTrue(e.getMessage().contains("deeper") || e.getMessage().contains("too deep"), e.getMessage());
    }

    @Test(timeOut = 60_000)
    public void stringsTravelByValueWithLatin1AndUtf16Encodings() throws Exception {
        Wire wire = new Wire(128, 5, 3);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        String[] strings = {null, "", "a", "caf\u00e9", "\u4e16\u754c", "x".repeat(70_000), "\u0100".repeat(5000) + "z",
            "\ud83d\ude00", "x".repeat(4096), "y".repeat(4097)};
        for (String s : strings) {
            out.writeString(s);
        }
        long before = out.bytesWritten();
        out.writeString("abcdefgh");
        assertEquals(out.bytesWritten() - before, 4 + 1 + 8, "a Latin-1 string is one byte per char");
        before = out.bytesWritten();
        out.writeString("\u4e16\u754c");
        assertEquals(out.bytesWritten() - before, 4 + 1 + 4, "other strings two bytes per char");
        wire.endMessage(out);
        for (String s : strings) {
            assertEquals(in.readString(), s);
        }
        assertEquals(in.readString(), "abcdefgh");
        assertEquals(in.readString(), "\u4e16\u754c");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void primitiveArraysFromWriteArrayReadAsArraysOrObjects() throws Exception {
        Wire wire = new Wire(128, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        int[] ints = {1, 2, 3, 4, 5};
        Corpus.Node node = new Corpus.Node(3);
        out.writeObject(node);
        out.writeArray(ints, 0, 5);
        out.writeArray(ints, 1, 3);
        out.writeObject(node);
        out.writeArray(new double[] {0.5, 1.5}, 0, 2);
        out.writeArray(new Object[] {"x", null, ints}, 0, 3);
        out.writeArray(new char[] {'a', 'b'}, 0, 2);
        out.writeArray(new long[] {1, 2}, 0, 2);
        out.writeArray(new byte[] {9}, 0, 1);
        out.writeInt(9);
        wire.endMessage(out);

        Object n = in.readObject();
        int[] got = new int[7];
        in.readArray(got, 2, 5);
        assertEquals(got, new int[] {0, 0, 1, 2, 3, 4, 5});
        assertEquals((int[]) in.readObject(), new int[] {2, 3, 4});
        assertSame(in.readObject(), n, "arrays from writeArray take handle numbers on both sides");
        assertEquals((double[]) in.readObject(), new double[] {0.5, 1.5});
        Object[] objects = new Object[3];
        in.readArray(objects, 0, 3);
        assertEquals(objects[0], "x");
        assertNull(objects[1]);
        assertEquals((int[]) objects[2], ints);
        IOException wrongType = expectThrows(IOException.class, () -> in.readArray(new int[2], 0, 2));
        assertTrue(wrongType.getMessage().contains("char[]"), wrongType.getMessage());
        IOException wrongLength = expectThrows(IOException.class, () -> in.readArray(new long[3], 0, 3));
        assertTrue(wrongLength.getMessage().contains("length 2"), wrongLength.getMessage());
        byte[] b = new byte[1];
        in.readArray(b, 0, 1);
        assertEquals(b[0], 9);
        assertEquals(in.readInt(), 9, "a mismatch does not break the stream");
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void readingPastTheEndOfAMessageDoesNotSpoilTheNext() throws Exception {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        out.writeInt(1);
        out.writeShort((short) 2);
        wire.endMessage(out);
        out.writeObject("two");
        wire.endMessage(out);
        out.writeInt(3);
        out.writeObject(new Corpus.Node(3));
        wire.endMessage(out);
        wire.endMessage(out); // empty: the serialization adds nothing

        assertEquals(in.readInt(), 1);
        assertThrows(EndOfMessageException.class, in::readInt);
        assertThrows(EndOfMessageException.class, in::readObject);
        wire.endMessage(in);
        assertEquals(in.readObject(), "two");
        assertThrows(EndOfMessageException.class, in::readObject);
        assertThrows(EndOfMessageException.class, in::readString);
        wire.endMessage(in);
        assertEquals(in.readInt(), 3);
        assertEquals(((Corpus.Node) in.readObject()).value, 3);
        wire.endMessage(in);
        assertThrows(EndOfMessageException.class, in::readByte);
        wire.endMessage(in);
    }

    @Test(timeOut = 60_000)
    public void aMessageWhoseObjectsWereNotReadDoesNotSpoilLaterObjectsOfKnownTypes() throws Exception {
        Wire wire = new Wire(256, 0, 0);
        SerializationOutput out = wire.output("ibis");
        SerializationInput in = wire.input("ibis");
        out.writeObject(new Corpus.Point(1, 2));
        out.writeObject(new Corpus.Base());
        wire.endMessage(out);
        out.writeObject(new Corpus.Point(3, 4));
        out.writeObject(new Corpus.Base());
        wire.endMessage(out);
        out.writeObject(new Corpus.Point(5, 6));
        wire.endMessage(out);

        assertEquals(((Corpus.Point) in.readObject()).x, 1);
        wire.endMessage(in); // the Base (and its type definition) unread
        assertEquals(((Corpus.Point) in.readObject()).x, 3, "types read before stay known");
        IOException missed = expectThrows(IOException.class, in::readObject);
        assertTrue(missed.getMessage().contains("type id"), missed.getMessage());
    }

    @Test(timeOut = 60_000)
    public void theClassFilterAppliesToIbisSerialization() throws Exception {
        ObjectInputFilter noNodes = info -> info.serialClass() == Corpus.Node.class
                ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED;
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("ibis");
        out.writeObject(new ArrayList<>(List.of("fine")));
        wire.endMessage(out);
        out.writeObject(new Corpus.Node(1));
        wire.endMessage(out);
        SerializationInput in = Serialization.createInput("ibis", wire.blocksIn, noNodes);
        assertEquals(in.readObject(), List.of("fine"));
        wire.endMessage(in);
        InvalidClassException rejected = expectThrows(InvalidClassException.class, in::readObject);
        assertTrue(rejected.getMessage().contains("REJECTED"), rejected.getMessage());
        wire.endMessage(in);
        IOException after = expectThrows(IOException.class, in::readInt);
        assertTrue(after.getMessage().contains("unusable"), after.getMessage());

        for (String pattern : new String[] {"!ibis.io.*", "java.**;!*"}) {
            Properties properties = new Properties();
            properties.setProperty(IoProperties.CLASS_FILTER, pattern);
            Wire patterned = new Wire(64, 0, 0);
            SerializationOutput o = patterned.output("ibis");
            o.writeObject(new Corpus.Node(2));
            patterned.endMessage(o);
            SerializationInput i = Serialization.createInput("ibis", patterned.blocksIn, properties, null);
            expectThrows(InvalidClassException.class, i::readObject);
        }
        // Known-type fields (no type id on the wire) are filtered too.
        Properties noPoints = new Properties();
        noPoints.setProperty(IoProperties.CLASS_FILTER, "!" + Corpus.Point.class.getName());
        Wire known = new Wire(64, 0, 0);
        SerializationOutput o = known.output("ibis");
        o.writeObject(new Corpus.WithFinals(1, "f"));
        known.endMessage(o);
        SerializationInput i = Serialization.createInput("ibis", known.blocksIn, noPoints, null);
        expectThrows(InvalidClassException.class, i::readObject);
    }

    /** Only for the log test: no other test touches this class, so its serializer is made there. */
    static class LoggedOnce implements Serializable {
        private static final long serialVersionUID = 1L;
        int x = 1;
    }

    @Test(timeOut = 60_000)
    public void theRewriterWarnPropertyLogsEachClassThatNeededRunTimeCode() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setProperty(Codecs.WARN_PROPERTY, "true");
        System.setErr(new PrintStream(captured, true, "UTF-8"));
        try {
            roundTrip("ibis", new Wire(256, 0, 0), new LoggedOnce(), new LoggedOnce());
        } finally {
            System.setErr(err);
            System.clearProperty(Codecs.WARN_PROPERTY);
        }
        String log = captured.toString("UTF-8");
        int first = log.indexOf(LoggedOnce.class.getName());
        assertTrue(first >= 0, "logged: " + log);
        assertEquals(log.indexOf(LoggedOnce.class.getName(), first + 1), -1, "one line per class: " + log);
    }

    @Test(timeOut = 60_000)
    public void anObjectInputStreamCanReadWhatAHookWroteWithAnyApi() throws Exception {
        // putFields on one side, defaultReadObject on the other would be a different class; here
        // the same class mixes writeFields with GetField.defaulted and the field types.
        Corpus.Fields f = new Corpus.Fields();
        f.count = 1;
        f.label = null;
        f.any = new int[] {1};
        Corpus.Fields back = (Corpus.Fields) roundTrip("ibis", new Wire(64, 0, 0), f).get(0);
        assertEquals(back.count, 1);
        assertNull(back.label);
        assertEquals((int[]) back.any, new int[] {1});
        assertFalse(Iterator.class.isInstance(back.any));
        assertTrue(ObjectInputStream.class.isAssignableFrom(ObjectInputView.class));
    }

    /** A key whose hash depends on its fields. */
    static final class DeepKey implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        final int id;
        final String name;

        DeepKey(int id) {
            this.id = id;
            this.name = "k" + id;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(id, name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DeepKey k && k.id == id && k.name.equals(name);
        }
    }

    /** A plain node: its key (deferred when deep) is then hashed by the map of the next field. */
    static final class KeyedNode implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        DeepKey key;
        java.util.HashMap<DeepKey, String> map = new java.util.HashMap<>();
        KeyedNode next;
    }

    @Test(timeOut = 60_000)
    public void hooksDeepInAGraphSeeCompleteObjects() throws Exception {
        KeyedNode head = null;
        for (int i = 0; i < 300; i++) {
            KeyedNode n = new KeyedNode();
            n.key = new DeepKey(i);
            n.map.put(n.key, "v" + i);
            n.next = head;
            head = n;
        }
        for (Wire wire : new Wire[] {new Wire(1 << 12, 0, 1), new Wire(61, 7, 5)}) {
            KeyedNode copy = (KeyedNode) roundTrip("ibis", wire, head).get(0);
            int count = 0;
            for (KeyedNode n = copy; n != null; n = n.next) {
                // HashMap.readObject hashed each key as it was when the map was read: a key still
                // unfilled then sits in the wrong bucket.
                assertTrue(n.map.containsKey(n.key), "the map of node " + count + " finds its own key " + n.key.id);
                assertEquals(n.map.get(new DeepKey(n.key.id)), "v" + n.key.id);
                count++;
            }
            assertEquals(count, 300);
        }
    }
}
