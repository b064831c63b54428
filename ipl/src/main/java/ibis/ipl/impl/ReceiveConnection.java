package ibis.ipl.impl;

import ibis.io.BlockInputStream;
import ibis.io.Serialization;
import ibis.io.SerializationInput;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteOrder;

/**
 * One connection from a send port to a receive port, on the receiving side: the block stream with
 * the sender's byte order, the serialization input (re-created when a message says
 * {@link MessageHeader#NEW_STREAM}) and the reused {@link IncomingMessage}.
 *
 * <p>Exactly one thread reads the connection at any time: the {@code receive()} caller (explicit
 * port with one sender) or the pooled reader thread that the port runs for it; the read position
 * is handed from thread to thread through the port's lock, which orders the accesses.
 */
final class ReceiveConnection {

    /** Result of {@link #readHeader()}: a data message is ready to be read. */
    static final int DATA = 0;
    /** Result of {@link #readHeader()}: the sender disconnected regularly. */
    static final int CLOSED = 1;

    final AbstractReceivePort port;
    final SendPortId origin;
    final ConnectionEnds ends;
    /** The transport source, watched for failures (see {@link WatchedSource}). */
    final WatchedSource source;
    final BlockInputStream in;
    final IncomingMessage message;
    /** Continues this connection's upcall reader on a pooled thread; created once, reused for hand-offs. */
    final Runnable reader;

    private final String serializationName;
    private final boolean numbered;
    private SerializationInput serializationIn;

    // Guarded by the port's lock.
    /** No longer one of the port's connections. */
    boolean removed;
    /** The port closed it (so a read failure is not a lost connection). */
    boolean closedByPort;
    /**
     * Many-sender explicit port without a wait set: a message header was read and waits in the
     * ready queue ({@link HandedOffReceipt}).
     */
    boolean queued;
    /**
     * Many-sender explicit port: the message handed to the ready queue was finished completely
     * (its rest skipped), so the connection's reader may read on. Set only after the finishing
     * thread is done with the stream: the reader may wake up early (a stale permit from an earlier
     * unpark), and must not read while the stream is still being skipped.
     */
    boolean released;
    /** The pooled thread reading this connection now (null while the receive() caller reads it). */
    Thread readerThread;
    /**
     * Upcall port: finish() inside an upcall released the connection, and a pooled thread was (or,
     * through {@link UpcallHandOffs}, may later be) asked to read on; whichever of that thread and
     * the returning upcall thread clears it first reads. Written under the port's lock; volatile
     * because the hand-off watcher looks at it without that lock.
     */
    volatile boolean handOffPending;
    /** When the pending hand-off was noted (System.nanoTime); guarded by the Ibis's {@link UpcallHandOffs}. */
    long handOffSince;
    /** Queued in the Ibis's {@link UpcallHandOffs}; guarded by it. */
    boolean handOffListed;
    /**
     * One-sender explicit and poll-upcall ports: the header of the next DATA message has been read
     * already (by the idle check or by a poll that could not deliver it yet).
     */
    boolean headerReady;
    /** Poll-upcall port: a polling thread (or the idle check) is reading this connection. */
    boolean busy;
    /** Many-sender port: the source is in the port's wait set (read and written by the reading receive call only). */
    boolean watched;
    /** Upcall port: the poll-then-block policy of this connection's reader (created on first use). */
    SpinWait upcallSpin;
    /** Headers read so far, and the count seen by the previous idle check (activity detection). */
    long headersRead;
    long idleMark;

    ReceiveConnection(AbstractReceivePort port, SendPortId origin, ConnectionEnds ends, ByteOrder senderOrder,
            int bufferSize, String serializationName, boolean numbered) {
        this.port = port;
        this.origin = origin;
        this.ends = ends;
        this.source = new WatchedSource(ends.source());
        this.in = new BlockInputStream(source, bufferSize, senderOrder);
        this.serializationName = serializationName;
        this.numbered = numbered;
        this.message = new IncomingMessage(port, this);
        this.reader = () -> port.continueReading(this);
    }

    /**
     * Reads the header of the next message (blocking until it arrives) and prepares the message
     * for reading.
     *
     * @return {@link #DATA} or {@link #CLOSED}
     * @throws IOException when the connection broke (an end of stream without CLOSE included) or
     *         the header is malformed
     */
    int readHeader() throws IOException {
        long before = in.bytesRead();
        byte kind = in.readByte();
        headersRead++;
        if (kind == MessageHeader.CLOSE) {
            return CLOSED;
        }
        if (kind != MessageHeader.DATA) {
            throw new StreamCorruptedException("unknown message kind " + kind + " from " + origin);
        }
        int flags = in.readByte();
        long sequenceNumber = numbered ? in.readLong() : -1;
        if ((flags & MessageHeader.NEW_STREAM) != 0) {
            serializationIn = Serialization.createInput(serializationName, in);
        } else if (serializationIn == null) {
            throw new StreamCorruptedException("first message from " + origin + " does not start a stream");
        } else if (serializationIn.failure() != null) {
            // A sender whose own write failed starts a new stream; this one goes on with a stream
            // this side cannot read past its earlier error (a corrupt or rejected object): give up
            // the connection, so that the sender learns it rather than sending on into nothing.
            IOException broken = serializationIn.failure();
            throw new IOException("the " + serializationIn.serializationName() + " serialization stream from "
                    + origin + " cannot be read past an earlier error, so the connection is given up: " + broken,
                    broken);
        }
        message.prepare(serializationIn, sequenceNumber, before);
        return DATA;
    }

    /**
     * Whether the connection ended before anything arrived on it: then the sender withdrew its
     * connection attempt (its handshake timed out after this side had accepted, and it closed the
     * connection) or went away before its first message; nothing was lost, so this is an end, not
     * a broken connection. Only the thread reading the connection may ask.
     */
    boolean nothingArrived() {
        return !source.anyByteArrived();
    }

    /**
     * Whether the next message (or the end of the stream) has arrived, looking only at bytes this
     * connection has buffered already: no system call. Only the thread reading the connection may ask.
     */
    boolean messageBuffered() throws IOException {
        return source.bufferedOnly(in);
    }

    /**
     * Polls briefly for the start of the next message ({@link SpinWait}: poll briefly, then block;
     * yielding the processor between polls). Only the thread reading the connection may ask.
     *
     * @return true when the message started (or the stream ended); false when the caller should block
     */
    boolean awaitSpinning(SpinWait spin) throws IOException {
        if (messageBuffered()) {
            return true; // read ahead already: no system call needed
        }
        if (spin.spinNanos() > 0 && in.awaitMessageSpinning()) {
            return true; // there already: no clock read, no pause
        }
        if (spin.start()) {
            while (spin.next()) {
                if (in.awaitMessageSpinning()) {
                    spin.succeeded();
                    return true;
                }
            }
        }
        return false;
    }

    /** Skips the rest of the current message (serialization first, then blocks). */
    void endMessage() throws IOException {
        serializationIn.endMessage();
        in.endMessage();
    }

    @Override
    public String toString() {
        return "connection from " + origin + " (" + ends.peerDescription() + ")";
    }
}
