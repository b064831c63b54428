package ibis.ipl.tck;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.ipl.ConnectionFailedException;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * The rules a network implementation keeps below the API (documented on {@code ibis.io.ByteSource}
 * and {@code ibis.io.ByteSink} and in docs/network-implementation.md): interrupts never break a
 * connection; a sender may write far more than the transport buffers while nobody reads yet;
 * polling sees a message that arrived; a member of another implementation is refused with a clear
 * error.
 */
public class TransportRulesTest {

    // ---- interrupts: the application's business, never a reason to break a connection (a thread
    // pool's cancel or a timeout mechanism would otherwise cut the connection of every other user)

    private static void sendInt(SendPort sp, int value) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    private static int receiveInt(ReceivePort rp) throws IOException {
        ReadMessage m = rp.receive(30_000);
        int value = m.readInt();
        m.finish();
        return value;
    }

    private static byte[] payload(int size) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 13));
        }
        return bytes;
    }

    @Test(timeOut = 60_000)
    public void anInterruptedReceiveThrowsInterruptedIoExceptionAndTheConnectionGoesOn() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ONE_TO_ONE);
            Ibis b = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "rx");
            rp.enableConnections();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            sendInt(sp, 1);
            assertEquals(receiveInt(rp), 1);
            Thread.currentThread().interrupt();
            try {
                expectThrows(InterruptedIOException.class, () -> rp.receive(30_000));
                assertTrue(Thread.interrupted(), "the interrupt status is kept for the caller");
            } finally {
                Thread.interrupted();
            }
            sendInt(sp, 2);
            assertEquals(receiveInt(rp), 2, "the connection still delivers");
            assertEquals(rp.lostConnections().length, 0);
            assertEquals(rp.connectedTo().length, 1);
            sp.close();
            rp.close();
        }
    }

    @Test(timeOut = 60_000)
    public void aSenderWithAPendingInterruptSendsAndKeepsTheInterrupt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ONE_TO_ONE);
            Ibis b = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "rx");
            rp.enableConnections();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            byte[] big = new byte[300_000]; // several blocks, and more than one socket write
            for (int i = 0; i < big.length; i++) {
                big[i] = (byte) (i * 13);
            }
            Thread.currentThread().interrupt();
            try {
                WriteMessage w = sp.newMessage();
                w.writeInt(7);
                w.writeArray(big);
                w.finish();
                assertTrue(Thread.interrupted(), "the interrupt status is kept for the caller");
            } finally {
                Thread.interrupted();
            }
            ReadMessage m = rp.receive(30_000);
            assertEquals(m.readInt(), 7);
            byte[] back = new byte[big.length];
            m.readArray(back);
            m.finish();
            assertEquals(back, big);
            sendInt(sp, 8);
            assertEquals(receiveInt(rp), 8, "the connection still delivers");
            assertEquals(sp.lostConnections().length, 0);
            sp.close();
            rp.close();
        }
    }

    /**
     * A receiver that waits for the next message and is interrupted there (not before) gets an
     * InterruptedIOException and keeps its connection.
     */
    @Test(timeOut = 60_000)
    public void aReceiverInterruptedWhileItWaitsKeepsTheConnection() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ONE_TO_ONE);
            Ibis b = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "rx");
            rp.enableConnections();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread receiver = new Thread(() -> {
                try {
                    ReadMessage m = rp.receive(60_000);
                    m.finish();
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            }, "interrupted receiver");
            receiver.start();
            // Blocked, or still polling (RUNNABLE) before it blocks: either way inside receive().
            Waits.untilStack(receiver, "into receive()", false, stack -> Waits.inMethod(stack, "receive"));
            receiver.interrupt();
            Throwable t = outcome.get(60, TimeUnit.SECONDS);
            assertTrue(t instanceof InterruptedIOException,
                    "an interrupted wait ends with InterruptedIOException: " + t);
            sendInt(sp, 3);
            assertEquals(receiveInt(rp), 3, "the connection still delivers");
            assertEquals(rp.lostConnections().length, 0);
            assertEquals(sp.lostConnections().length, 0);
        }
    }

    /**
     * A sender interrupted while its send waits for the receiver (which is not reading; the message
     * is far larger than any transport buffers) keeps its connection: the send completes once the
     * receiver reads, every byte arrives intact, later messages go through, and the sender's
     * interrupt status is set when its call returns.
     */
    @Test(timeOut = 120_000)
    public void anInterruptWhileASendWaitsForTheReceiverKeepsTheConnectionAndTheData() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ONE_TO_ONE);
            Ibis b = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            byte[] payload = payload(64 << 20);
            CompletableFuture<Boolean> interruptSeen = new CompletableFuture<>();
            Thread sender = new Thread(() -> {
                try {
                    WriteMessage w = sp.newMessage();
                    w.writeInt(1);
                    w.writeArray(payload);
                    w.finish();
                    boolean interrupted = Thread.interrupted(); // cleared: the next message must not see it
                    sendInt(sp, 2);
                    interruptSeen.complete(interrupted);
                } catch (Throwable t) {
                    interruptSeen.completeExceptionally(t);
                }
            }, "interrupted sender");
            sender.start();
            try {
                // The send waits for room (the receiver reads nothing): parked or in a native call,
                // inside the message's writeArray or finish.
                Waits.untilStack(sender, "to wait in its send", false, stack -> waitingIn(sender, stack));
                sender.interrupt(); // as a thread pool's cancel(true) would
                ReadMessage first = rp.receive(60_000);
                assertEquals(first.readInt(), 1);
                byte[] got = new byte[payload.length];
                first.readArray(got);
                first.finish();
                assertTrue(Arrays.equals(got, payload), "every byte arrives intact");
                assertEquals(receiveInt(rp), 2, "the connection carries the next message");
                assertTrue(interruptSeen.get(60, TimeUnit.SECONDS), "the sender's interrupt status is kept");
                assertEquals(rp.connectedTo().length, 1, "still connected");
                assertEquals(sp.lostConnections().length, 0, "no connection lost");
            } finally {
                sender.interrupt();
                sender.join(30_000);
            }
            assertNull(rp.poll(), "nothing more arrived");
        }
    }

    /** Whether a thread with this stack waits (parked, or in a native call) inside writing a message. */
    private static boolean waitingIn(Thread t, StackTraceElement[] stack) {
        if (stack.length == 0 || !Waits.inMethod(stack, "writeArray", "finish", "flush")) {
            return false;
        }
        Thread.State s = t.getState();
        return stack[0].isNativeMethod() || s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }

    // ---- flow control: what the receiver has not read yet must not stop a sender for good

    /** What a connection must carry while nobody reads it: 2 MiB (TCP on loopback holds more). */
    public static final int UNREAD_BYTES = 2 << 20;

    /**
     * One thread connects a send port to its own receive port, writes a message of {@value
     * #UNREAD_BYTES} bytes (far more than a small transport buffer, or the block buffer of a
     * port), finishes it, and only then receives it. A transport that holds back a sender as soon
     * as its own small buffers are full, until the receiving application reads, deadlocks here.
     */
    @Test(timeOut = 60_000)
    public void oneThreadSendsFarMoreThanTheBuffersHoldToItselfAndThenReceivesIt() throws Exception {
        toItself((sp, rp) -> {
            byte[] payload = payload(UNREAD_BYTES);
            WriteMessage w = sp.newMessage();
            w.writeInt(payload.length);
            w.writeArray(payload);
            w.finish();
            ReadMessage m = rp.receive(60_000);
            byte[] got = new byte[m.readInt()];
            m.readArray(got);
            m.finish();
            assertTrue(Arrays.equals(got, payload), "every byte arrives intact");
        });
    }

    /**
     * The same with {@value #UNREAD_BYTES} bytes of a direct buffer, written with {@code
     * writeByteBuffer} and read with {@code readByteBuffer} into a direct buffer: a transport may
     * receive such a buffer straight into the reader's memory, but the sender's {@code finish()}
     * must not wait for the reader (as a send from the writer's memory that completes only when the
     * receiver takes it would), and the writer may change its buffer once {@code finish()} returned.
     */
    @Test(timeOut = 60_000)
    public void oneThreadSendsADirectBufferLargerThanTheBuffersToItselfAndThenReceivesIt() throws Exception {
        toItself((sp, rp) -> {
            byte[] payload = payload(UNREAD_BYTES);
            ByteBuffer out = ByteBuffer.allocateDirect(payload.length);
            out.put(0, payload);
            WriteMessage w = sp.newMessage();
            w.writeByteBuffer(out);
            w.finish();
            out.put(0, new byte[payload.length]); // allowed once finish() returned
            ReadMessage m = rp.receive(60_000);
            ByteBuffer in = ByteBuffer.allocateDirect(payload.length);
            m.readByteBuffer(in);
            m.finish();
            byte[] got = new byte[payload.length];
            in.get(0, got);
            assertTrue(Arrays.equals(got, payload), "every byte arrives as it was when finish() was called");
        });
    }

    /** What {@link #toItself} runs. */
    private interface SelfBody {
        void run(SendPort sp, ReceivePort rp) throws Exception;
    }

    /** Runs {@code body} in one thread with a send port connected to a receive port of the same Ibis. */
    private static void toItself(SelfBody body) throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis ibis = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = ibis.createReceivePort(Types.ONE_TO_ONE, "self");
            rp.enableConnections();
            SendPort sp = ibis.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            body.run(sp, rp);
            sp.close();
            rp.close();
        }
    }

    // ---- polling: sees what arrived, and nothing else

    @Test(timeOut = 60_000)
    public void pollReturnsNullWhenNothingArrivedAndTheMessageOnceItArrived() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            Ibis a = pool.create(Types.ONE_TO_ONE);
            Ibis b = pool.create(Types.ONE_TO_ONE);
            ReceivePort rp = b.createReceivePort(Types.ONE_TO_ONE, "polled");
            rp.enableConnections();
            SendPort sp = a.createSendPort(Types.ONE_TO_ONE);
            sp.connect(rp.identifier());
            assertNull(rp.poll(), "nothing was sent");
            sendInt(sp, 41);
            ReadMessage[] polled = new ReadMessage[1];
            Waits.until("poll() returns the message that was sent", () -> {
                try {
                    polled[0] = rp.poll();
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                return polled[0] != null;
            });
            assertEquals(polled[0].readInt(), 41);
            polled[0].finish();
            assertNull(rp.poll(), "the message was delivered once");
            sendInt(sp, 42);
            sendInt(sp, 43);
            assertEquals(receiveInt(rp), 42, "receive() after polls gets the next message");
            Waits.until("poll() returns the message that arrived while none was polled", () -> {
                try {
                    polled[0] = rp.poll();
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                return polled[0] != null;
            });
            assertEquals(polled[0].readInt(), 43);
            polled[0].finish();
            assertNull(rp.poll());
        }
    }

    // ---- one implementation per pool connection: a member of another one is refused, clearly

    @Test(timeOut = 60_000)
    public void aConnectionToAMemberOfAnotherImplementationIsRefusedNamingIt() throws Exception {
        try (PoolFixture pool = ImplementationUnderTest.pool()) {
            IbisCapabilities capabilities = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT);
            Ibis ibis = pool.create(capabilities, null, Types.ONE_TO_ONE);
            // A member of the same pool that runs another implementation (its contact data means
            // nothing to the implementation under test).
            IbisIdentifier other = pool.join(pool.properties(), capabilities, null, "tck-other-implementation",
                    "not contact data of the implementation under test".getBytes(StandardCharsets.UTF_8))
                    .elect("other");
            assertNotNull(other);
            assertEquals(ibis.registry().getElectionResult("other", Waits.EVENTUALLY_MILLIS), other);
            SendPort sp = ibis.createSendPort(Types.ONE_TO_ONE);
            ConnectionFailedException e = expectThrows(ConnectionFailedException.class,
                    () -> sp.connect(other, "in", Waits.EVENTUALLY_MILLIS, false));
            String all = PortTypeContractTest.fullMessage(e);
            assertTrue(all.contains("tck-other-implementation"), "the error names the other implementation: " + all);
            assertEquals(sp.connectedTo().length, 0);
        }
    }
}
