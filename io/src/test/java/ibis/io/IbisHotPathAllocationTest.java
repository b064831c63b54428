package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.io.Serializable;
import java.lang.management.ManagementFactory;

import org.testng.annotations.Test;

/**
 * Once warm, the ibis serialization writes object graphs without allocating, and reads them
 * allocating little more than the objects themselves (no boxing, no per-field temporaries: the
 * per-class code is found once and called directly). Counts bytes allocated by this thread; asserts
 * allocation, not time.
 */
public class IbisHotPathAllocationTest {

    static class TreeNode implements Serializable {
        private static final long serialVersionUID = 1L;
        int a;
        int b;
        int c;
        int d;
        TreeNode left;
        TreeNode right;
    }

    static TreeNode tree(int n) {
        if (n == 0) {
            return null;
        }
        TreeNode t = new TreeNode();
        t.a = n;
        int l = (n - 1) / 2;
        t.left = tree(l);
        t.right = tree(n - 1 - l);
        return t;
    }

    @Test(timeOut = 120_000)
    public void warmTreeMessagesAllocateNothingToWriteAndOnlyTheObjectsToRead() throws Exception {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported()) {
            throw new AssertionError("must be available on every supported JDK: per-thread allocation counting is not "
                    + "available on this JVM");
        }
        threads.setThreadAllocatedMemoryEnabled(true);
        MemoryPipe pipe = new MemoryPipe(0, 0, 1 << 20);
        BlockOutputStream blocksOut = new BlockOutputStream(pipe.sink, 1 << 16);
        BlockInputStream blocksIn = new BlockInputStream(pipe.source, 1 << 16, blocksOut.order());
        SerializationOutput out = Serialization.createOutput("ibis", blocksOut);
        SerializationInput in = Serialization.createInput("ibis", blocksIn);
        TreeNode tree = tree(1023);
        int[] array = new int[1000];

        for (int m = 0; m < 2000; m++) { // warm up
            exchange(out, in, blocksOut, blocksIn, tree, array);
        }
        int messages = 500;
        long writeBytes = 0;
        long readBytes = 0;
        for (int m = 0; m < messages; m++) {
            long t0 = threads.getCurrentThreadAllocatedBytes();
            out.writeObject(tree);
            out.writeArray(array, 0, array.length);
            out.endMessage();
            blocksOut.endMessage();
            long t1 = threads.getCurrentThreadAllocatedBytes();
            TreeNode back = (TreeNode) in.readObject();
            in.readArray(array, 0, array.length);
            in.endMessage();
            blocksIn.endMessage();
            long t2 = threads.getCurrentThreadAllocatedBytes();
            assertEquals(back.a, 1023);
            writeBytes += t1 - t0;
            readBytes += t2 - t1;
        }
        double writePerMessage = (double) writeBytes / messages;
        double readPerNode = (double) readBytes / messages / 1023;
        assertTrue(writePerMessage < 64, "writing allocated " + writePerMessage + " bytes per message");
        assertTrue(readPerNode < 80, "reading allocated " + readPerNode + " bytes per node");
    }

    private static void exchange(SerializationOutput out, SerializationInput in, BlockOutputStream blocksOut,
            BlockInputStream blocksIn, TreeNode tree, int[] array) throws IOException, ClassNotFoundException {
        out.writeObject(tree);
        out.writeArray(array, 0, array.length);
        out.endMessage();
        blocksOut.endMessage();
        in.readObject();
        in.readArray(array, 0, array.length);
        in.endMessage();
        blocksIn.endMessage();
    }
}
