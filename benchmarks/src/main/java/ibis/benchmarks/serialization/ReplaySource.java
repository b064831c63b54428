package ibis.benchmarks.serialization;

import ibis.io.ByteSource;
import ibis.io.ByteViews;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;

/**
 * An in-memory {@link ByteSource} that delivers a prologue once (the first message of a stream,
 * which carries the type definitions) and then one steady-state message over and over, so that a
 * reader can read the same message any number of times. Every read copies the bytes into the
 * reader's buffer, as a transport does; it fills the destination as far as it can.
 */
final class ReplaySource implements ByteSource {

    private final byte[] prologue;
    private final byte[] message;
    private final ByteViews prologueViews;
    private final ByteViews messageViews;
    private byte[] current;
    private int position;

    /** A source of {@code prologue} followed by {@code message} repeated without end. */
    ReplaySource(byte[] prologue, byte[] message) {
        if (message.length == 0) {
            throw new IllegalArgumentException("empty message");
        }
        this.prologue = prologue;
        this.message = message;
        this.current = prologue.length > 0 ? prologue : message;
        this.prologueViews = new ByteViews(ByteBuffer.wrap(prologue));
        this.messageViews = new ByteViews(ByteBuffer.wrap(message));
    }

    /** Arrays are stored straight from the recorded message, as the TCP source stores them from its staging buffer. */
    @Override
    public boolean takesArrays() {
        return true;
    }

    @Override
    public void read(Buffer destination) throws IOException {
        if (position == current.length) {
            current = message;
            position = 0;
        }
        int n = ByteViews.byteLength(destination);
        if (n > current.length - position) {
            ByteSource.super.read(destination); // across the end of a message: not in this suite
            return;
        }
        (current == message ? messageViews : prologueViews).get(position, destination);
        position += n;
    }

    @Override
    public int read(ByteBuffer destination, int minimum) {
        int done = 0;
        while (destination.hasRemaining()) {
            if (position == current.length) {
                current = message;
                position = 0;
            }
            int n = Math.min(destination.remaining(), current.length - position);
            destination.put(current, position, n);
            position += n;
            done += n;
        }
        return done;
    }

    @Override
    public int available() {
        return message.length; // never runs dry
    }

    @Override
    public boolean awaitData(long timeoutMillis) {
        return true;
    }

    /** Bytes of the prologue (the first message of the stream). */
    int prologueLength() {
        return prologue.length;
    }

    @Override
    public void close() {
    }
}
