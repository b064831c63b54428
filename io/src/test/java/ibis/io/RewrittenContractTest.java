package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

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
        Wire wire = new Wire(1 << 12, 0, 0);
        SerializationOutput out = wire.output("ibis");
        for (Object g : graphs) {
            out.writeObject(g);
            wire.endMessage(out);
        }
        return wire.pipe.unread();
    }

    private static Object[] read(byte[] bytes, int messages) throws Exception {
        BlockInputStream blocks = new BlockInputStream(MemoryPipe.of(bytes, 0, 0).source, 1 << 12, java.nio.ByteOrder.nativeOrder());
        SerializationInput in = Serialization.createInput("ibis", blocks);
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
        assertTrue(SerialClass.of(HandRewritten.Foo.class).codec() instanceof Codecs.RewrittenCodec);
        assertTrue(SerialClass.of(HandRewritten.Point.class).codec() instanceof Codecs.RewrittenCodec);
        HandRewritten.Foo original = graph();
        HandRewritten.Foo copy = (HandRewritten.Foo) IbisSerializationTest.roundTrip("ibis", new Wire(61, 5, 1), original).get(0);
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
        assertTrue(rewritten instanceof Codecs.RewrittenCodec);
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

    @Test(timeOut = 60_000)
    public void aClassWithHooksIsNotTreatedAsRewrittenEvenIfItClaimsToBe() throws Exception {
        assertTrue(SerialClass.of(HandRewritten.Wrong.class).codec() instanceof Codecs.HookCodec);
        HandRewritten.Wrong copy = (HandRewritten.Wrong) IbisSerializationTest.roundTrip("ibis", new Wire(256, 0, 0),
                new HandRewritten.Wrong(7)).get(0);
        assertEquals(copy.v, 7);
        assertTrue(copy.hookRan);
        assertEquals(Codecs.rewrittenGenerator(HandRewritten.Wrong.class, true), null);
        assertEquals(List.of(HandRewritten.Foo.class.getInterfaces()), List.of(Serializable.class));
    }
}
