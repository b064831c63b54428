package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;
import static org.testng.Assert.fail;

import ibis.testsupport.Waits;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.testng.SkipException;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The JNI glue against the real UCX: one worker talks to itself through an endpoint to its own
 * address. Fails when the library cannot be loaded; skipped only when the jar says its native part
 * was not built (no UCX header on the build machine).
 */
public class NativeGlueTest {

    /** Each test uses its own tags, so that no test sees another's messages. */
    private static final long SMALL_TAG = 0x1111_0000_0000_0001L;
    private static final long LARGE_TAG = 0x1111_0000_0000_0002L;
    private static final long WAKE_TAG = 0x1111_0000_0000_0003L;
    private static final long PEER_TAG = 0x1111_0000_0000_0004L;
    private static final long PEEK_TAG = 0x1111_0000_0000_0005L;
    private static final long UNUSED_TAG = 0x2222_0000_0000_0000L;
    private static final long ALL_BITS = -1L;

    private long worker;
    private long endpoint;
    /** Where probe stores a message's length and sender tag. */
    private final ByteBuffer info = ByteBuffer.allocateDirect(16).order(ByteOrder.nativeOrder());
    private long infoAddress;

    @BeforeClass
    public void loadTheLibraryAndConnectAWorkerToItself() throws Exception {
        String notBuilt = NativeLibrary.notBuiltReason();
        if (notBuilt != null) {
            System.err.println("[ibis-ucx] NativeGlueTest SKIPPED: the native part was not built (" + notBuilt + ")");
            throw new SkipException("the native part was not built (" + notBuilt + ")");
        }
        NativeLibrary.load();
        assertNull(NativeLibrary.unavailableReason());
        worker = UcxNative.workerCreate(null);
        assertNotEquals(worker, 0L);
        endpoint = UcxNative.endpointCreate(worker, UcxNative.workerAddress(worker), UcxNative.ERROR_MODE_NONE);
        infoAddress = UcxNative.address(info);
    }

    @AfterClass(alwaysRun = true)
    public void destroyTheWorker() {
        if (endpoint != 0) {
            UcxNative.endpointClose(worker, endpoint, false, 5_000);
        }
        if (worker != 0) {
            UcxNative.workerDestroy(worker);
        }
    }

    @Test
    public void versionIsNotEmpty() {
        assertFalse(UcxNative.version().isBlank());
    }

    @Test
    public void statusStringNamesBusy() {
        assertTrue(UcxNative.statusString(UcxNative.ERR_BUSY).toLowerCase().contains("busy"),
                UcxNative.statusString(UcxNative.ERR_BUSY));
    }

    @Test
    public void addressOfAHeapBufferIsRejected() {
        expectThrows(IllegalArgumentException.class, () -> UcxNative.address(ByteBuffer.allocate(8)));
    }

    @Test
    public void aSmallMessageToItselfIsProbedAndReceivedWithItsBytesAndSenderTag() {
        assertMessageArrivesIntact(endpoint, SMALL_TAG, 100);
    }

    @Test
    public void an8MiBMessageToItselfArrivesIntact() {
        assertMessageArrivesIntact(endpoint, LARGE_TAG, 8 << 20);
    }

    @Test
    public void peekSeesAMessageAndLeavesItForProbe() {
        ByteBuffer data = filled(64, 9);
        assertEquals(UcxNative.peek(worker, PEEK_TAG, ALL_BITS), 0, "nothing sent yet");
        long send = UcxNative.send(worker, endpoint, PEEK_TAG, UcxNative.address(data), 64);
        assertTrue(send >= 0, "send: " + status(send));
        long deadline = deadline();
        while (UcxNative.peek(worker, PEEK_TAG, ALL_BITS) == 0) {
            if (System.nanoTime() - deadline > 0) {
                fail("peek never saw the message");
            }
            UcxNative.progress(worker);
        }
        assertEquals(UcxNative.peek(worker, PEEK_TAG, ALL_BITS), 1, "a second look sees it still");
        assertEquals(UcxNative.peek(worker, PEEK_TAG + 1, ALL_BITS), 0, "another tag");
        long message = UcxNative.probe(worker, PEEK_TAG, ALL_BITS, infoAddress);
        assertNotEquals(message, 0L, "probe takes what peek left");
        assertEquals(UcxNative.peek(worker, PEEK_TAG, ALL_BITS), 0, "taken");
        receive(message, ByteBuffer.allocateDirect(64), send);
    }

    @Test
    public void probeWithANonMatchingTagFindsNothing() {
        ByteBuffer data = filled(64, 7);
        long send = UcxNative.send(worker, endpoint, UNUSED_TAG - 1, UcxNative.address(data), 64);
        assertTrue(send >= 0, "send: " + status(send));
        UcxNative.progress(worker);
        assertEquals(UcxNative.probe(worker, UNUSED_TAG, ALL_BITS, infoAddress), 0L);
        // Take the message away again.
        long message = probeUntilFound(UNUSED_TAG - 1, ALL_BITS);
        receive(message, ByteBuffer.allocateDirect(64), send);
    }

    @Test
    public void waitEventRunsOutWhenNothingIsPending() {
        armUntilOk();
        assertEquals(UcxNative.waitEvent(worker, 20), 0);
    }

    @Test
    public void aSendToItselfWakesAThreadInWaitEvent() throws Exception {
        AtomicInteger woken = new AtomicInteger(-1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                armUntilOk();
                long deadline = deadline();
                int r;
                while ((r = UcxNative.waitEvent(worker, 100)) == 0 && System.nanoTime() - deadline < 0) {
                    // Time ran out before the send: wait again.
                }
                woken.set(r);
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "ucx-waiter");
        waiter.start();
        Waits.untilStack(waiter, "waiter in waitEvent", true,
                stack -> stack.length > 0 && stack[0].getMethodName().equals("waitEvent"));
        ByteBuffer data = filled(32, 3);
        long send = UcxNative.send(worker, endpoint, WAKE_TAG, UcxNative.address(data), 32);
        assertTrue(send >= 0, "send: " + status(send));
        waiter.join(Waits.EVENTUALLY_MILLIS);
        assertFalse(waiter.isAlive(), "the waiter was never woken");
        assertNull(failure.get());
        assertEquals(woken.get(), 1, "waitEvent's result");
        receive(probeUntilFound(WAKE_TAG, ALL_BITS), ByteBuffer.allocateDirect(32), send);
    }

    @Test
    public void signalWakesAThreadInWaitEvent() throws Exception {
        AtomicInteger woken = new AtomicInteger(-1);
        Thread waiter = new Thread(() -> {
            armUntilOk();
            woken.set(UcxNative.waitEvent(worker, (int) Waits.EVENTUALLY_MILLIS));
        }, "ucx-signalled");
        waiter.start();
        Waits.untilStack(waiter, "waiter in waitEvent", true,
                stack -> stack.length > 0 && stack[0].getMethodName().equals("waitEvent"));
        assertEquals(UcxNative.signal(worker), UcxNative.OK);
        waiter.join(Waits.EVENTUALLY_MILLIS);
        assertEquals(woken.get(), 1);
    }

    @Test
    public void aPeerModeEndpointCarriesMessagesRecordsNoErrorAndClosesForcibly() throws Exception {
        long peer = UcxNative.endpointCreate(worker, UcxNative.workerAddress(worker), UcxNative.ERROR_MODE_PEER);
        assertMessageArrivesIntact(peer, PEER_TAG, 1000);
        assertEquals(UcxNative.endpointError(peer), 0);
        UcxNative.endpointClose(worker, peer, true, 5_000);
    }

    @Test
    public void closingALiveEndpointCompletes() throws Exception {
        long other = UcxNative.endpointCreate(worker, UcxNative.workerAddress(worker), UcxNative.ERROR_MODE_NONE);
        UcxNative.endpointClose(worker, other, false, 5_000);
        long peer = UcxNative.endpointCreate(worker, UcxNative.workerAddress(worker), UcxNative.ERROR_MODE_PEER);
        UcxNative.endpointClose(worker, peer, false, 5_000);
    }

    @Test
    public void aWorkerWithAnOpenEndpointIsDestroyed() throws Exception {
        long second = UcxNative.workerCreate(null);
        byte[] address = UcxNative.workerAddress(second);
        UcxNative.endpointCreate(second, address, UcxNative.ERROR_MODE_PEER);
        UcxNative.endpointCreate(second, address, UcxNative.ERROR_MODE_NONE);
        UcxNative.workerDestroy(second);
    }

    // ------------------------------------------------------------------------------------ helpers

    /** Sends {@code length} bytes to itself, probes, receives, and compares bytes and sender tag. */
    private void assertMessageArrivesIntact(long ep, long tag, int length) {
        ByteBuffer data = filled(length, (int) tag);
        long send = UcxNative.send(worker, ep, tag, UcxNative.address(data), length);
        assertTrue(send >= 0, "send: " + status(send));
        long message = probeUntilFound(tag, ALL_BITS);
        assertEquals(info.getLong(0), length, "probed length");
        assertEquals(info.getLong(8), tag, "probed sender tag");
        ByteBuffer into = ByteBuffer.allocateDirect(length);
        receive(message, into, send);
        assertEquals(into, data, "received bytes");
    }

    /** Receives a probed message into {@code into}; completes it and the send request {@code send}. */
    private void receive(long message, ByteBuffer into, long send) {
        long receive = UcxNative.receiveMessage(worker, message, UcxNative.address(into), into.capacity());
        assertTrue(receive >= 0, "receiveMessage: " + status(receive));
        complete(receive, "receive");
        complete(send, "send");
    }

    /** Progresses the worker until the request (0: done at once) is done; checks it went well and frees it. */
    private void complete(long request, String what) {
        if (request == 0) {
            return;
        }
        long deadline = deadline();
        int s;
        while ((s = UcxNative.requestStatus(request)) == UcxNative.IN_PROGRESS) {
            if (System.nanoTime() - deadline > 0) {
                fail(what + " request never completed");
            }
            UcxNative.progress(worker);
        }
        UcxNative.requestFree(request);
        assertEquals(s, UcxNative.OK, what + ": " + UcxNative.statusString(s));
    }

    private long probeUntilFound(long tag, long mask) {
        long deadline = deadline();
        while (true) {
            long message = UcxNative.probe(worker, tag, mask, infoAddress);
            if (message != 0) {
                return message;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("no message with tag " + Long.toHexString(tag) + " arrived");
            }
            UcxNative.progress(worker);
        }
    }

    private void armUntilOk() {
        long deadline = deadline();
        int s;
        while ((s = UcxNative.arm(worker)) == UcxNative.ERR_BUSY) {
            if (System.nanoTime() - deadline > 0) {
                fail("the worker stayed busy");
            }
            UcxNative.progress(worker);
        }
        assertEquals(s, UcxNative.OK, "arm: " + UcxNative.statusString(s));
    }

    private static long deadline() {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Waits.EVENTUALLY_MILLIS);
    }

    private static ByteBuffer filled(int length, int seed) {
        ByteBuffer b = ByteBuffer.allocateDirect(length);
        for (int i = 0; i < length; i++) {
            b.put(i, (byte) (i * 31 + seed));
        }
        return b;
    }

    private static String status(long result) {
        return result + " (" + UcxNative.statusString((int) result) + ")";
    }
}
