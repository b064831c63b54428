package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.lang.management.ManagementFactory;

import org.testng.annotations.Test;

/**
 * Once warm, writing and reading messages of primitives and primitive arrays through the block
 * streams and the data serialization allocates nothing per message. This counts bytes allocated
 * by the current thread (com.sun.management.ThreadMXBean); it asserts an allocation count, not a
 * time.
 */
public class HotPathAllocationTest {

    private static final int MESSAGES = 10_000;

    @Test(timeOut = 120_000)
    public void warmMessagesOfIntsAndIntArraysAllocateNothing() throws IOException {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported()) {
            throw new AssertionError("must be available on every supported JDK: per-thread allocation counting is not "
                    + "available on this JVM");
        }
        threads.setThreadAllocatedMemoryEnabled(true);

        MemoryPipe pipe = new MemoryPipe(0, 0, 1 << 16);
        BlockOutputStream blocksOut = new BlockOutputStream(pipe.sink, 512); // arrays span blocks
        BlockInputStream blocksIn = new BlockInputStream(pipe.source, 700, blocksOut.order());
        SerializationOutput out = Serialization.createOutput("data", blocksOut);
        SerializationInput in = Serialization.createInput("data", blocksIn);
        int[] sent = new int[300];
        int[] received = new int[300];
        double[] doubles = new double[37];
        double[] doublesBack = new double[37];

        long checksum = exchange(MESSAGES * 3, blocksOut, blocksIn, out, in, sent, received, doubles, doublesBack);

        long before = threads.getCurrentThreadAllocatedBytes();
        checksum += exchange(MESSAGES, blocksOut, blocksIn, out, in, sent, received, doubles, doublesBack);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(checksum != 0);
        double perMessage = (double) allocated / MESSAGES;
        assertTrue(perMessage < 16, "allocated " + allocated + " bytes for " + MESSAGES + " messages ("
                + perMessage + " per message)");
    }

    private static long exchange(int messages, BlockOutputStream blocksOut, BlockInputStream blocksIn,
            SerializationOutput out, SerializationInput in, int[] sent, int[] received, double[] doubles,
            double[] doublesBack) throws IOException {
        long checksum = 0;
        for (int m = 0; m < messages; m++) {
            sent[m % sent.length] = m;
            out.writeInt(m);
            out.writeByte((byte) m); // misaligns what follows
            out.writeArray(sent, 0, sent.length);
            out.writeArray(doubles, 0, doubles.length);
            out.writeLong(m);
            out.endMessage();
            blocksOut.endMessage();

            if (!blocksIn.awaitMessage(-1)) {
                throw new AssertionError("message " + m + " not there");
            }
            checksum += in.readInt();
            checksum += in.readByte();
            in.readArray(received, 0, received.length);
            in.readArray(doublesBack, 0, doublesBack.length);
            checksum += in.readLong() + received[m % received.length];
            in.endMessage();
            blocksIn.endMessage();
        }
        assertEquals(received[(messages - 1) % received.length], messages - 1);
        return checksum;
    }
    @Test(timeOut = 120_000)
    public void warmLargeByteArraysReadStraightIntoTheDestinationAllocateNothing() throws IOException {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
                || !threads.isThreadAllocatedMemorySupported()) {
            throw new AssertionError("must be available on every supported JDK: per-thread allocation counting is not "
                    + "available on this JVM");
        }
        threads.setThreadAllocatedMemoryEnabled(true);

        // Big blocks and a small reader buffer: most of each array bypasses the buffer
        // (BlockInputStream.DIRECT_READ) and goes from the source into the reused destination;
        // arrays larger than a block are sent by reference (BlockOutputStream.sendBlockWith).
        MemoryPipe pipe = new MemoryPipe(0, 0, 1 << 17);
        BlockOutputStream blocksOut = new BlockOutputStream(pipe.sink, 1 << 16);
        BlockInputStream blocksIn = new BlockInputStream(pipe.source, 1024, blocksOut.order());
        SerializationOutput out = Serialization.createOutput("data", blocksOut);
        SerializationInput in = Serialization.createInput("data", blocksIn);
        byte[] sent = new byte[150_000];
        byte[] received = new byte[sent.length];

        long checksum = exchangeBytes(3_000, blocksOut, blocksIn, out, in, sent, received);
        long before = threads.getCurrentThreadAllocatedBytes();
        checksum += exchangeBytes(MESSAGES, blocksOut, blocksIn, out, in, sent, received);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertTrue(checksum != 0);
        double perMessage = (double) allocated / MESSAGES;
        assertTrue(perMessage < 16, "allocated " + allocated + " bytes for " + MESSAGES + " messages ("
                + perMessage + " per message)");
    }

    private static long exchangeBytes(int messages, BlockOutputStream blocksOut, BlockInputStream blocksIn,
            SerializationOutput out, SerializationInput in, byte[] sent, byte[] received) throws IOException {
        long checksum = 0;
        for (int m = 0; m < messages; m++) {
            sent[m % sent.length] = (byte) (m | 1);
            sent[sent.length - 1 - m % sent.length] = (byte) m;
            out.writeInt(m);
            out.writeArray(sent, 0, sent.length);
            out.endMessage();
            blocksOut.endMessage();

            if (!blocksIn.awaitMessage(-1)) {
                throw new AssertionError("message " + m + " not there");
            }
            checksum += in.readInt();
            in.readArray(received, 0, received.length);
            in.endMessage();
            blocksIn.endMessage();
            if (received[m % received.length] != (byte) (m | 1)
                    || received[received.length - 1 - m % received.length] != sent[sent.length - 1 - m % sent.length]) {
                throw new AssertionError("message " + m + " arrived changed");
            }
            checksum += received[m % received.length];
        }
        return checksum;
    }
}
