package ibis.ipl.impl;

import ibis.io.SerializationOutput;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The {@link WriteMessage} of an {@link AbstractSendPort}. A send port has exactly one instance,
 * reused for every message (at most one message is live per port), so starting a message allocates
 * nothing. Writes go straight to the port's serialization stream; a message that is not live
 * (finished, or not yet started) refuses every call.
 */
final class OutgoingMessage implements WriteMessage {

    private final AbstractSendPort port;

    /** The serialization stream of the live message; only the writing thread touches these fields. */
    private SerializationOutput out;
    private boolean live;
    private long startBytes;
    private int tickets;

    OutgoingMessage(AbstractSendPort port) {
        this.port = port;
    }

    void start(SerializationOutput stream, long bytesBefore) {
        this.out = stream;
        this.startBytes = bytesBefore;
        this.tickets = 0;
        this.live = true;
    }

    /** Ends the message's life; called by the port before it releases its message slot. */
    void end() {
        live = false;
    }

    boolean isLive() {
        return live;
    }

    long startBytes() {
        return startBytes;
    }

    private SerializationOutput out() throws IOException {
        if (!live) {
            throw new IOException("write message of " + port.identifier() + " is not live (already finished)");
        }
        return out;
    }

    @Override
    public int send() throws IOException {
        out().flush();
        port.checkDeliverable();
        return ++tickets;
    }

    @Override
    public void sync(int ticket) throws IOException {
        out();
        if (ticket < 0 || ticket > tickets) {
            throw new IOException("unknown ticket " + ticket + " (this message issued " + tickets + ")");
        }
        // send() flushes synchronously: data before any ticket has already reached the transport.
        port.checkDeliverable();
    }

    @Override
    public void flush() throws IOException {
        out().flush();
        port.checkDeliverable();
    }

    @Override
    public void reset() throws IOException {
        SerializationOutput o = out();
        o.reset();
        o.flush();
        port.checkDeliverable();
    }

    @Override
    public long finish() throws IOException {
        out();
        return port.finishMessage(this, null);
    }

    @Override
    public void finish(IOException exception) {
        if (!live) {
            return;
        }
        try {
            port.finishMessage(this, exception);
        } catch (IOException e) {
            // The caller is already handling its own error; the failure was logged by the port.
        }
    }

    @Override
    public long bytesWritten() throws IOException {
        out();
        return port.streamBytesWritten() - startBytes;
    }

    /** Unknown: a message has no size limit. */
    @Override
    public int capacity() {
        return -1;
    }

    /** Unknown: a message has no size limit. */
    @Override
    public int remaining() {
        return -1;
    }

    @Override
    public SendPort localPort() {
        return port;
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        out().writeBoolean(value);
    }

    @Override
    public void writeByte(byte value) throws IOException {
        out().writeByte(value);
    }

    @Override
    public void writeChar(char value) throws IOException {
        out().writeChar(value);
    }

    @Override
    public void writeShort(short value) throws IOException {
        out().writeShort(value);
    }

    @Override
    public void writeInt(int value) throws IOException {
        out().writeInt(value);
    }

    @Override
    public void writeLong(long value) throws IOException {
        out().writeLong(value);
    }

    @Override
    public void writeFloat(float value) throws IOException {
        out().writeFloat(value);
    }

    @Override
    public void writeDouble(double value) throws IOException {
        out().writeDouble(value);
    }

    @Override
    public void writeString(String value) throws IOException {
        out().writeString(value);
    }

    @Override
    public void writeObject(Object value) throws IOException {
        out().writeObject(value);
    }

    @Override
    public void writeArray(boolean[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(byte[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(char[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(short[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(int[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(long[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(float[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    @Override
    public void writeArray(double[] value) throws IOException {
        out().writeArray(value, 0, value.length);
    }

    /**
     * Writes the array as one array object, so that the receiver may read it with
     * {@code readArray(Object[])} or with {@code readObject()} (an IPL rule).
     */
    @Override
    public void writeArray(Object[] value) throws IOException {
        out().writeObject(value);
    }

    @Override
    public void writeArray(boolean[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(byte[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(char[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(short[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(int[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(long[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(float[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    @Override
    public void writeArray(double[] value, int offset, int length) throws IOException {
        out().writeArray(value, offset, length);
    }

    /** Writes the slice as one array object of length {@code length} (a copy unless it is the whole array). */
    @Override
    public void writeArray(Object[] value, int offset, int length) throws IOException {
        SerializationOutput o = out();
        if (offset == 0 && length == value.length) {
            o.writeObject(value);
        } else {
            o.writeObject(Arrays.copyOfRange(value, offset, offset + length));
        }
    }

    @Override
    public void writeByteBuffer(ByteBuffer value) throws IOException {
        out().writeByteBuffer(value);
    }

    @Override
    public String toString() {
        return "write message of " + port.identifier() + (live ? "" : " (finished)");
    }
}
