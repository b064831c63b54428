package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.testng.annotations.Test;

/** The send port's multicast sink: every block to every connection; a failed one is skipped. */
public class MulticastSinkTest {

    private static SendConnection connection(MemoryPipe pipe, String name) {
        MemberIdentifier m = new MemberIdentifier(name, "pool", new HierarchicalLocation("x"), null, "test", null);
        return new SendConnection(new ReceivePortId(m, "in"), new ConnectionEnds(pipe.sink, pipe.source, name),
                ByteOrder.BIG_ENDIAN);
    }

    private static byte[] drain(MemoryPipe pipe) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(pipe.source.available());
        pipe.source.read(b, b.capacity());
        return b.array();
    }

    @Test
    public void everyConnectionGetsEveryByte() throws IOException {
        MemoryPipe[] pipes = {new MemoryPipe(), new MemoryPipe(), new MemoryPipe()};
        MulticastSink sink = new MulticastSink();
        sink.setTargets(new SendConnection[] {connection(pipes[0], "a"), connection(pipes[1], "b"),
            connection(pipes[2], "c")});
        ByteBuffer header = ByteBuffer.wrap(new byte[] {1, 2});
        ByteBuffer payload = ByteBuffer.wrap(new byte[] {3, 4, 5});
        sink.write(new ByteBuffer[] {header, payload}, 0, 2);
        assertFalse(header.hasRemaining());
        assertFalse(payload.hasRemaining());
        for (MemoryPipe p : pipes) {
            assertEquals(drain(p), new byte[] {1, 2, 3, 4, 5});
        }
        assertEquals(sink.failures(), 0);
    }

    @Test
    public void aFailedConnectionIsSkippedAndTheOthersStillGetTheData() throws IOException {
        MemoryPipe good1 = new MemoryPipe();
        MemoryPipe bad = new MemoryPipe();
        MemoryPipe good2 = new MemoryPipe();
        SendConnection badConnection = connection(bad, "bad");
        MulticastSink sink = new MulticastSink();
        sink.setTargets(new SendConnection[] {connection(good1, "a"), badConnection, connection(good2, "c")});
        bad.source.close(); // the receiver went away: writes to it fail
        sink.write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {1, 2, 3})}, 0, 1);
        sink.write(new ByteBuffer[] {ByteBuffer.wrap(new byte[] {4})}, 0, 1);
        assertEquals(sink.failures(), 1, "a failed connection is counted once and then skipped");
        assertNotNull(badConnection.failure);
        assertFalse(sink.nobodyLeft());
        assertEquals(drain(good1), new byte[] {1, 2, 3, 4});
        assertEquals(drain(good2), new byte[] {1, 2, 3, 4});
    }

    @Test
    public void singleFailedConnectionConsumesTheBuffersAndLeavesNobody() throws IOException {
        MemoryPipe bad = new MemoryPipe();
        SendConnection c = connection(bad, "bad");
        MulticastSink sink = new MulticastSink();
        sink.setTargets(new SendConnection[] {c});
        assertNull(c.failure);
        bad.source.close();
        ByteBuffer b = ByteBuffer.wrap(new byte[] {1, 2, 3});
        sink.write(new ByteBuffer[] {b}, 0, 1);
        assertFalse(b.hasRemaining(), "the block stream expects consumed buffers even on failure");
        assertTrue(sink.nobodyLeft());
    }

    /**
     * An array part (a send port's block stream hands large arrays over as they are) reaches every
     * connection whole, a failed one in between included; a sink that does not take arrays itself
     * gets it through the interface's copy.
     */
    @Test
    public void anArrayPartReachesEveryConnectionAndIsConsumed() throws IOException {
        MemoryPipe good1 = new MemoryPipe();
        MemoryPipe bad = new MemoryPipe();
        MemoryPipe good2 = new MemoryPipe();
        MulticastSink sink = new MulticastSink();
        assertTrue(sink.takesArrays());
        sink.setTargets(new SendConnection[] {connection(good1, "a"), connection(bad, "bad"), connection(good2, "c")});
        bad.source.close();
        ByteBuffer header = ByteBuffer.wrap(new byte[] {9, 8});
        java.nio.IntBuffer array = java.nio.IntBuffer.wrap(new int[] {1, 2, 3, 0x01020304, 5});
        array.position(1).limit(4);
        sink.write(new ByteBuffer[] {header}, 0, 1, array);
        assertFalse(header.hasRemaining());
        assertFalse(array.hasRemaining());
        assertEquals(sink.failures(), 1);
        ByteBuffer expected = ByteBuffer.allocate(14).order(ByteOrder.nativeOrder());
        expected.put((byte) 9).put((byte) 8).putInt(2).putInt(3).putInt(0x01020304);
        assertEquals(drain(good1), expected.array());
        assertEquals(drain(good2), expected.array());
    }
}
