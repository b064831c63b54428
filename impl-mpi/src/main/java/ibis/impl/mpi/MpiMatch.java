package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A message {@link MpiProcess#poll()} matched, handed to the {@link MpiReceiver} of its kind. One
 * object per process, used under the poll lock and reused for every message: no allocation per
 * message. Valid only during {@link MpiReceiver#matched}.
 *
 * <p>A message comes from one of three places: a {@link MpiLanding} slot (a message of at most
 * {@link MpiLanding#SLOT_BYTES} bytes, already received: {@link #receive} copies it), the bulk
 * communicator (a longer message whose announcement was in the slot: {@link #receive} receives its
 * bytes straight into the destination), or a byte array (a message whose kind had no receiver yet
 * when it arrived, handed over when the receiver registers, {@link MpiProcess#register}).
 */
public final class MpiMatch {

    private final MpiProcess process;
    private final MpiBackend backend;
    private final MpiTags tags;
    private final MpiLanding landing;
    private final MpiStatus status;
    /** For messages nobody receives, and {@link #receiveBytes()}; grown on demand. */
    private MpiBuffer scratch;

    private int source;
    private int tag;
    private int length;
    private boolean received;
    /** Whether the message filled a reader's buffer completely, straight from MPI. */
    private boolean filledReader;
    /** A held message's bytes; null for a live one. */
    private byte[] held;
    /** Whether a live message's bytes are on the bulk communicator (else in the landing slot). */
    private boolean bulk;
    /** Where a landed message's bytes start in the landing memory. */
    private int landedAt;

    MpiMatch(MpiProcess process) {
        this.process = process;
        this.backend = process.unguardedBackend(); // used under the poll lock only
        this.tags = process.tags();
        this.landing = process.landing();
        this.status = backend.newStatus();
    }

    /**
     * Takes the next message of any source and tag that arrived, if there is one (holding the poll
     * lock); an announcement of a bulk message stands for that message, its tag and length. Tests
     * for one up to {@code polls} times ({@link MpiLanding#next}).
     *
     * @throws IOException when MPI fails or an announcement is malformed
     */
    boolean probe(int polls) throws IOException {
        int slot = landing.next(status, polls);
        if (slot < 0) {
            return false;
        }
        source = status.source();
        tag = status.tag();
        length = status.count();
        received = false;
        filledReader = false;
        held = null;
        bulk = false;
        landedAt = MpiLanding.offset(slot);
        if (tags.kind(tag) == MpiTags.BULK) {
            ByteBuffer b = landing.memory().buffer();
            if (length != 8 || b.getInt(landedAt + 4) <= MpiLanding.SLOT_BYTES) {
                received = true;
                throw new IOException("a malformed bulk announcement of " + length + " bytes from rank " + source
                        + ": is that rank running the same Ibis version?");
            }
            tag = b.getInt(landedAt);
            length = b.getInt(landedAt + 4);
            bulk = true;
        }
        return true;
    }

    /** Turns this object into a view of a held message. */
    void hold(int heldSource, int heldTag, byte[] bytes) {
        source = heldSource;
        tag = heldTag;
        length = bytes.length;
        received = false;
        filledReader = false;
        held = bytes;
        bulk = false;
    }

    /** The sender's rank in {@code MPI_COMM_WORLD}. */
    public int source() {
        return source;
    }

    /** The full tag. */
    public int tag() {
        return tag;
    }

    /** The tag's kind ({@link MpiTags#CONTROL} ...). */
    public int kind() {
        return tags.kind(tag);
    }

    /** The tag's id. */
    public int id() {
        return tags.id(tag);
    }

    /** The message's length in bytes. */
    public int length() {
        return length;
    }

    /**
     * Says that this message completed a reader's read (it went straight into the reader's buffer):
     * {@link MpiProcess#poll(java.util.function.BooleanSupplier)} may return after it as after a small
     * message, so that the reader gets to its next read before the next message is received.
     */
    void filledReader() {
        filledReader = true;
    }

    /** Whether {@link #filledReader()} was called for this message. */
    boolean hasFilledReader() {
        return filledReader;
    }

    /**
     * Whether the message's bytes are in memory already (landed, or kept for a late receiver), so
     * that {@link #receive} is a copy of at most {@link MpiLanding#SLOT_BYTES} bytes (or a kept
     * message's), not a receive from MPI.
     */
    boolean inMemory() {
        return !bulk;
    }

    /** Whether the message was received already. */
    public boolean received() {
        return received;
    }

    /**
     * Receives the message into {@code buffer} at {@code offset}; blocks only while its bytes arrive.
     *
     * @return its length
     * @throws IOException when it is longer than {@code capacity} (it is discarded) or MPI fails
     * @throws IllegalStateException when it was received already
     */
    public int receive(MpiBuffer buffer, int offset, int capacity) throws IOException {
        if (received) {
            throw new IllegalStateException("message from rank " + source + " tag " + tag + " received twice");
        }
        if (length > capacity) {
            discard();
            throw new IOException("a message of " + length + " bytes from rank " + source + " (tag " + tag
                    + ") does not fit in " + capacity + " bytes: discarded");
        }
        received = true;
        buffer.check(offset, length);
        if (held != null) {
            buffer.buffer().put(offset, held, 0, length);
        } else if (bulk) {
            backend.recvBulk(buffer, offset, length, source, tag, status);
        } else {
            buffer.buffer().put(offset, landing.memory().buffer(), landedAt, length);
        }
        return length;
    }

    /**
     * Receives the message into a new array (for rare, small messages such as the registry's; the
     * transport's data path uses {@link #receive}).
     */
    public byte[] receiveBytes() throws IOException {
        if (held != null && !received) {
            received = true;
            return held;
        }
        MpiBuffer into = scratch(length);
        int n = receive(into, 0, length);
        byte[] bytes = new byte[n];
        into.buffer().get(0, bytes);
        return bytes;
    }

    /** Receives and drops the message unless it was received already. */
    void discard() throws IOException {
        if (received) {
            return;
        }
        received = true;
        if (bulk) {
            // At most a long message's worth of memory for bytes nobody wants: a longer one is cut off
            // (MPI's truncation error consumes it as well).
            int room = Math.min(length, MpiTransportSettings.MESSAGE_MAX);
            try {
                backend.recvBulk(scratch(room), 0, room, source, tag, status);
            } catch (IOException e) {
                if (room == length) {
                    throw e;
                }
            }
        }
    }

    private MpiBuffer scratch(int capacity) {
        if (scratch == null || scratch.capacity() < capacity) {
            scratch = MpiBuffer.allocate(process, Math.max(capacity, 4096));
        }
        return scratch;
    }
}
