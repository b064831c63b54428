package ibis.impl.mpi;

import java.io.IOException;

/**
 * The receives that every message of this process lands in: {@value #SLOTS} receives of any source
 * and any tag ({@code MPI_Irecv}), of {@value #SLOT_BYTES} bytes each, posted ahead on Ibis'
 * communicator. MPI matches an arriving message to the earliest posted receive that matches, and
 * these all match everything, so they complete in the order they were posted: {@link #next} tests
 * the oldest only, and posts its slot again (as the newest) when the caller is done with it.
 *
 * <p>Why not a matched probe ({@code MPI_Improbe}, then {@code MPI_Mrecv}): a message that finds a
 * posted receive is copied into it as it arrives, while one that finds none is first kept in MPI's
 * unexpected queue and searched for by the probe. In C, with {@code MPI_THREAD_MULTIPLE} and Open
 * MPI's shared memory, a 1-byte ping-pong took 0.25 µs one way with probe and receive, 0.13 µs with
 * a posted receive tested in a loop (0.16 µs with blocking {@code MPI_Send}/{@code MPI_Recv}).
 *
 * <p>A message longer than a slot never comes here: {@link MpiProcess#isendTest} sends it as a bulk
 * message, an eight-byte announcement of kind {@link MpiTags#BULK} (its tag and length) followed by
 * its bytes on the second communicator, which {@link MpiMatch#receive} takes with
 * {@link MpiBackend#recvBulk} once the announcement is handled, in the sender's order.
 *
 * <p>Used under {@link MpiProcess}'s poll lock only. {@link #stop} cancels the receives before
 * {@code MPI_Finalize}.
 */
final class MpiLanding {

    /** The bytes of one receive: longer messages are sent as bulk messages. */
    static final int SLOT_BYTES = 4096;
    /** The receives posted ahead. */
    static final int SLOTS = 16;

    private final MpiBackend backend;
    private final MpiBuffer memory;
    private final MpiSlots requests;
    private final boolean[] posted = new boolean[SLOTS];
    /** The oldest posted receive. */
    private int head;
    /** The slot handed out by the last {@link #next}, to post again, or -1. */
    private int taken = -1;
    private boolean started;
    private boolean stopped;

    MpiLanding(MpiProcess process) {
        this.backend = process.unguardedBackend(); // used under the poll lock only
        this.memory = MpiBuffer.allocate(process, SLOTS * SLOT_BYTES);
        this.requests = backend.newRequests(SLOTS);
    }

    /**
     * The slot of the next message that arrived, its sender, tag and length in {@code status}, or -1
     * when none did. The slot's bytes stay there until the next call. Posts the receives at the first
     * call, and the slot of the previous message again. The oldest receive is tested up to
     * {@code polls} times ({@link MpiBackend#testSpin}; more than once for a thread that waits).
     *
     * @throws IOException when MPI fails (a message longer than a slot, which no Ibis sends, is one);
     *     the slot is posted again at the next call
     */
    int next(MpiStatus status, int polls) throws IOException {
        if (stopped) {
            return -1;
        }
        if (!started) {
            started = true;
            for (int slot = 0; slot < SLOTS; slot++) {
                post(slot);
            }
        }
        int slot = head;
        boolean done = false;
        try {
            if (taken >= 0) {
                // Post the last message's slot again and test the oldest, in one call. Should the post
                // fail, the slot is lost until the head reaches it: a test of its spent request
                // completes at once, with a message no receiver takes (or an IOException), and the
                // slot is posted again after that.
                int again = taken;
                taken = -1;
                done = backend.irecvTest(memory, offset(again), SLOT_BYTES, MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG,
                        requests, again, slot, status);
                posted[again] = true;
                if (!done && polls > 1) {
                    done = backend.testSpin(requests, slot, status, polls - 1);
                }
            } else {
                done = backend.testSpin(requests, slot, status, polls);
            }
        } catch (IOException e) {
            done = true;
            throw e;
        } finally {
            if (done) {
                posted[slot] = false;
                taken = slot;
                head = (slot + 1) % SLOTS;
            }
        }
        return done ? slot : -1;
    }

    private void post(int slot) throws IOException {
        backend.irecv(memory, offset(slot), SLOT_BYTES, MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, requests, slot);
        posted[slot] = true;
    }

    /** Where a slot's bytes start in {@link #memory()}. */
    static int offset(int slot) {
        return slot * SLOT_BYTES;
    }

    /** The slots' bytes. */
    MpiBuffer memory() {
        return memory;
    }

    /**
     * Cancels the posted receives and completes them (a message that matched one meanwhile is
     * dropped): MPI must have no receive pending at {@code MPI_Finalize}. Nothing is posted after.
     */
    void stop() throws IOException {
        stopped = true;
        IOException failure = null;
        for (int slot = 0; slot < SLOTS; slot++) {
            if (posted[slot]) {
                posted[slot] = false;
                try {
                    backend.cancel(requests, slot);
                    backend.await(requests, slot, null);
                } catch (IOException e) {
                    failure = failure == null ? e : failure;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
