package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;

import java.nio.ByteBuffer;

import org.testng.annotations.Test;

public class RecentBuffersTest {

    @Test
    public void remembersBuffersByIdentity() {
        RecentBuffers<String> recent = new RecentBuffers<>();
        ByteBuffer a = ByteBuffer.allocateDirect(8);
        ByteBuffer same = ByteBuffer.allocateDirect(8); // equal contents, another object
        assertSame(recent.put(a, "a"), "a");
        assertEquals(recent.get(a), "a");
        assertNull(recent.get(same));
        assertNull(recent.get(a.duplicate()));
    }

    @Test
    public void theOldestMakesWay() {
        RecentBuffers<Integer> recent = new RecentBuffers<>();
        ByteBuffer[] b = new ByteBuffer[RecentBuffers.SIZE + 1];
        for (int i = 0; i < b.length; i++) {
            b[i] = ByteBuffer.allocateDirect(1);
        }
        for (int i = 0; i < RecentBuffers.SIZE; i++) {
            recent.put(b[i], i);
        }
        for (int i = 0; i < RecentBuffers.SIZE; i++) {
            assertEquals(recent.get(b[i]), Integer.valueOf(i), "buffer " + i);
        }
        recent.put(b[RecentBuffers.SIZE], RecentBuffers.SIZE);
        assertNull(recent.get(b[0]), "the oldest made way");
        for (int i = 1; i <= RecentBuffers.SIZE; i++) {
            assertEquals(recent.get(b[i]), Integer.valueOf(i), "buffer " + i);
        }
        recent.clear();
        for (ByteBuffer x : b) {
            assertNull(recent.get(x));
        }
    }
}
