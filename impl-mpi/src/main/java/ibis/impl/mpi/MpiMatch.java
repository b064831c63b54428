package ibis.impl.mpi;

import java.io.IOException;

/**
 * A message {@link MpiProcess#poll()} matched, handed to the {@link MpiReceiver} of its kind. One
 * object per polling thread, reused for every message: no allocation per message. Valid only during
 * {@link MpiReceiver#matched}.
 *
 * <p>A message whose kind had no receiver yet when it arrived was received into a byte array and is
 * handed over when the receiver registers ({@link MpiProcess#register}); {@link #receive} copies it.
 */
public final class MpiMatch {

    private final MpiProcess process;
    private final MpiBackend backend;
    private final MpiTags tags;
    private final MpiSlots message;
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

    MpiMatch(MpiProcess process) {
        this.process = process;
        this.backend = process.backend();
        this.tags = process.tags();
        this.message = backend.newMessages(1);
        this.status = backend.newStatus();
    }

    /** Matches the next message of any source and tag, if there is one. */
    boolean probe() throws IOException {
        if (!backend.improbe(MpiBackend.ANY_SOURCE, MpiBackend.ANY_TAG, message, 0, status)) {
            return false;
        }
        source = status.source();
        tag = status.tag();
        length = status.count();
        received = false;
        filledReader = false;
        held = null;
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
        if (held != null) {
            buffer.check(offset, length);
            buffer.buffer().put(offset, held, 0, length);
            return length;
        }
        backend.mrecv(buffer, offset, capacity, message, 0, status);
        return status.count();
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
        if (held == null) {
            backend.mrecv(scratch(length), 0, length, message, 0, status);
        }
    }

    private MpiBuffer scratch(int capacity) {
        if (scratch == null || scratch.capacity() < capacity) {
            scratch = MpiBuffer.allocate(process, Math.max(capacity, 4096));
        }
        return scratch;
    }
}
