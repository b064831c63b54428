package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.Ibis;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;

import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** Every serialization through real ports: primitives, arrays and slices, strings, objects. */
public class SerializationThroughPortsTest {

    private static PortType type(String serialization) {
        return new PortType(PortType.CONNECTION_ONE_TO_MANY, serialization, PortType.RECEIVE_EXPLICIT,
                PortType.COMMUNICATION_FIFO, PortType.RECEIVE_TIMEOUT);
    }

    private static final PortType BYTE = type(PortType.SERIALIZATION_BYTE);
    private static final PortType DATA = type(PortType.SERIALIZATION_DATA);
    private static final PortType SUN = type(PortType.SERIALIZATION_OBJECT_SUN);
    private static final PortType IBIS = type(PortType.SERIALIZATION_OBJECT_IBIS);
    private static final PortType OBJECT = type(PortType.SERIALIZATION_OBJECT);

    private PoolFixture pool;
    private Ibis a;
    private Ibis b;
    private int names;

    @BeforeClass
    public void start() throws Exception {
        pool = new PoolFixture("tcp");
        a = pool.create(BYTE, DATA, SUN, IBIS, OBJECT);
        b = pool.create(BYTE, DATA, SUN, IBIS, OBJECT);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (pool != null) {
            pool.close();
        }
    }

    @DataProvider
    public Object[][] allTypes() {
        return new Object[][] {{BYTE}, {DATA}, {SUN}, {IBIS}, {OBJECT}};
    }

    @DataProvider
    public Object[][] objectTypes() {
        return new Object[][] {{SUN}, {IBIS}, {OBJECT}};
    }

    private synchronized String fresh() {
        return "in-" + (++names);
    }

    private SendPort[] channel(PortType type, ReceivePort[] out) throws IOException {
        ReceivePort rp = b.createReceivePort(type, fresh());
        rp.enableConnections();
        SendPort sp = a.createSendPort(type);
        sp.connect(rp.identifier());
        out[0] = rp;
        return new SendPort[] {sp};
    }

    @Test(dataProvider = "allTypes", timeOut = 60_000)
    public void primitivesArraysSlicesAndStringsRoundTrip(PortType type) throws Exception {
        ReceivePort[] rp = new ReceivePort[1];
        SendPort sp = channel(type, rp)[0];
        int[] ints = {1, -2, Integer.MAX_VALUE, Integer.MIN_VALUE, 5};
        double[] doubles = {1.5, -0.0, Double.NaN, Double.MAX_VALUE};
        String longString = "x".repeat(70_000) + "\u00e9\u4e2d\ud83d\ude00";
        for (int round = 0; round < 3; round++) {
            WriteMessage w = sp.newMessage();
            w.writeBoolean(true);
            w.writeByte((byte) -7);
            w.writeChar('\u4e2d');
            w.writeShort((short) -300);
            w.writeInt(round);
            w.writeLong(Long.MIN_VALUE + round);
            w.writeFloat(3.25f);
            w.writeDouble(-1e300);
            w.writeString("h\u00e9llo");
            w.writeString("");
            w.writeString(longString);
            w.writeArray(new boolean[] {true, false, true});
            w.writeArray(new byte[] {1, 2, 3, 4, 5}, 1, 3);
            w.writeArray(new char[] {'a', 'b'});
            w.writeArray(new short[] {1, 2, 3}, 2, 1);
            w.writeArray(ints);
            w.writeArray(ints, 1, 3);
            w.writeArray(new long[] {Long.MAX_VALUE, 0});
            w.writeArray(new float[] {0.5f, Float.NEGATIVE_INFINITY});
            w.writeArray(doubles);
            w.writeByteBuffer(ByteBuffer.wrap(new byte[] {9, 8, 7}));
            w.finish();
        }
        for (int round = 0; round < 3; round++) {
            ReadMessage r = rp[0].receive();
            assertEquals(r.readBoolean(), true);
            assertEquals(r.readByte(), (byte) -7);
            assertEquals(r.readChar(), '\u4e2d');
            assertEquals(r.readShort(), (short) -300);
            assertEquals(r.readInt(), round);
            assertEquals(r.readLong(), Long.MIN_VALUE + round);
            assertEquals(r.readFloat(), 3.25f);
            assertEquals(r.readDouble(), -1e300);
            assertEquals(r.readString(), "h\u00e9llo");
            assertEquals(r.readString(), "");
            assertEquals(r.readString(), longString);
            boolean[] bools = new boolean[3];
            r.readArray(bools);
            assertEquals(bools, new boolean[] {true, false, true});
            byte[] bytes = new byte[5];
            r.readArray(bytes, 2, 3);
            assertEquals(bytes, new byte[] {0, 0, 2, 3, 4});
            char[] chars = new char[2];
            r.readArray(chars);
            assertEquals(chars, new char[] {'a', 'b'});
            short[] shorts = new short[1];
            r.readArray(shorts, 0, 1);
            assertEquals(shorts, new short[] {3});
            int[] allInts = new int[5];
            r.readArray(allInts);
            assertEquals(allInts, ints);
            int[] slice = new int[3];
            r.readArray(slice);
            assertEquals(slice, new int[] {-2, Integer.MAX_VALUE, Integer.MIN_VALUE});
            long[] longs = new long[2];
            r.readArray(longs);
            assertEquals(longs, new long[] {Long.MAX_VALUE, 0});
            float[] floats = new float[2];
            r.readArray(floats);
            assertEquals(floats, new float[] {0.5f, Float.NEGATIVE_INFINITY});
            double[] ds = new double[4];
            r.readArray(ds);
            assertTrue(Arrays.equals(ds, doubles));
            ByteBuffer bb = ByteBuffer.allocate(3);
            r.readByteBuffer(bb);
            assertEquals(bb.array(), new byte[] {9, 8, 7});
            // Object streams send the same String object again as a back reference, so only the
            // first round surely carries the long string's bytes.
            assertTrue(round > 0 || r.bytesRead() > 70_000, "bytesRead " + r.bytesRead());
            r.finish();
        }
    }

    @Test(dataProvider = "allTypes", timeOut = 60_000)
    public void largeArraysStreamThroughSmallBuffers(PortType type) throws Exception {
        ReceivePort[] rp = new ReceivePort[1];
        SendPort sp = channel(type, rp)[0];
        double[] big = new double[512 * 1024]; // 4 MiB, many blocks
        for (int i = 0; i < big.length; i++) {
            big[i] = i * 0.5;
        }
        Thread writer = new Thread(() -> {
            try {
                WriteMessage w = sp.newMessage();
                w.writeArray(big);
                int ticket = w.send();
                w.sync(ticket);
                w.writeArray(big, 10, 1000);
                w.finish();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        ReadMessage r = rp[0].receive();
        double[] got = new double[big.length];
        r.readArray(got);
        assertTrue(Arrays.equals(got, big));
        double[] part = new double[1000];
        r.readArray(part);
        assertTrue(Arrays.equals(part, Arrays.copyOfRange(big, 10, 1010)));
        r.finish();
        writer.join();
    }

    @Test(dataProvider = "allTypes", timeOut = 60_000)
    public void readingPastTheEndOfAMessageFailsWithoutHurtingTheNext(PortType type) throws Exception {
        ReceivePort[] rp = new ReceivePort[1];
        SendPort sp = channel(type, rp)[0];
        for (int i = 0; i < 2; i++) {
            WriteMessage w = sp.newMessage();
            w.writeInt(i);
            w.finish();
        }
        ReadMessage r = rp[0].receive();
        assertEquals(r.readInt(), 0);
        expectThrows(IOException.class, r::readLong);
        r.finish();
        r = rp[0].receive();
        assertEquals(r.readInt(), 1);
        r.finish();
    }

    @Test(timeOut = 60_000)
    public void dataSerializationRefusesObjects() throws Exception {
        for (PortType type : new PortType[] {BYTE, DATA}) {
            ReceivePort[] rp = new ReceivePort[1];
            SendPort sp = channel(type, rp)[0];
            WriteMessage w = sp.newMessage();
            expectThrows(IOException.class, () -> w.writeObject("an object"));
            w.finish();
        }
    }

    /** A serializable graph node for the object tests. */
    static final class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;
        Node next;
        final List<Node> friends = new ArrayList<>();

        Node(String name) {
            this.name = name;
        }
    }

    @Test(dataProvider = "objectTypes", timeOut = 60_000)
    public void objectGraphsKeepIdentityWithinAMessageAndResetForgetsIt(PortType type) throws Exception {
        ReceivePort[] rp = new ReceivePort[1];
        SendPort sp = channel(type, rp)[0];
        Node x = new Node("x");
        Node y = new Node("y");
        x.next = y;
        y.next = x; // a cycle
        x.friends.add(y);
        WriteMessage w = sp.newMessage();
        w.writeObject(x);
        w.writeObject(y); // shared with the first graph
        w.reset();
        w.writeObject(y); // after reset: a new copy
        w.writeObject(null);
        w.writeObject(List.of(1, 2, 3));
        w.finish();

        ReadMessage r = rp[0].receive();
        Node x2 = (Node) r.readObject();
        Node y2 = (Node) r.readObject();
        Node y3 = (Node) r.readObject();
        assertEquals(r.readObject(), null);
        assertEquals(r.readObject(), List.of(1, 2, 3));
        r.finish();
        assertEquals(x2.name, "x");
        assertSame(x2.next, y2, "identity within a message was lost");
        assertSame(y2.next, x2, "the cycle was lost");
        assertSame(x2.friends.get(0), y2);
        assertNotSame(y3, y2, "reset() did not forget the identity");
        assertEquals(y3.name, "y");
        assertEquals(y3.next.name, "x");
    }

    @Test(dataProvider = "objectTypes", timeOut = 60_000)
    public void writeArrayMayBeReadWithReadObjectOrReadArray(PortType type) throws Exception {
        ReceivePort[] rp = new ReceivePort[1];
        SendPort sp = channel(type, rp)[0];
        int[] ints = {3, 1, 4, 1, 5};
        String[] strings = {"a", null, "c"};
        WriteMessage w = sp.newMessage();
        w.writeArray(ints);
        w.writeArray(ints, 1, 2);
        w.writeArray(strings);
        w.writeArray(strings);
        w.writeArray(new Object[] {"p", 7, "q"}, 0, 2);
        w.writeArray(strings);
        w.finish();
        ReadMessage r = rp[0].receive();
        assertEquals((int[]) r.readObject(), ints);
        int[] part = new int[2];
        r.readArray(part);
        assertEquals(part, new int[] {1, 4});
        assertEquals((String[]) r.readObject(), strings);
        String[] s = new String[3];
        r.readArray(s);
        assertEquals(s, strings);
        Object[] o = new Object[2];
        r.readArray(o);
        assertEquals(o, new Object[] {"p", 7});
        IOException wrongLength = expectThrows(IOException.class, () -> r.readArray(new Object[5]));
        assertTrue(wrongLength.getMessage().contains("5"), wrongLength.getMessage());
        r.finish();
    }

    @Test(dataProvider = "objectTypes", timeOut = 60_000)
    public void aReceiverThatJoinsAMulticastMidStreamGetsAFreshStream(PortType type) throws Exception {
        ReceivePort first = b.createReceivePort(type, fresh());
        first.enableConnections();
        ReceivePort second = a.createReceivePort(type, fresh());
        second.enableConnections();
        SendPort sp = a.createSendPort(type);
        sp.connect(first.identifier());
        Node shared = new Node("shared");
        for (int i = 0; i < 3; i++) {
            WriteMessage w = sp.newMessage();
            w.writeObject(shared); // after the first message this is a back reference in the stream
            w.writeInt(i);
            w.finish();
        }
        sp.connect(second.identifier());
        for (int i = 3; i < 6; i++) {
            WriteMessage w = sp.newMessage();
            w.writeObject(shared);
            w.writeInt(i);
            w.finish();
        }
        for (int i = 0; i < 6; i++) {
            ReadMessage r = first.receive();
            assertEquals(((Node) r.readObject()).name, "shared");
            assertEquals(r.readInt(), i);
            r.finish();
        }
        for (int i = 3; i < 6; i++) {
            ReadMessage r = second.receive();
            assertEquals(((Node) r.readObject()).name, "shared");
            assertEquals(r.readInt(), i);
            r.finish();
        }
    }
}
