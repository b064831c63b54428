package ibis.ipl.impl;

import ibis.io.SerializationInput;
import ibis.ipl.ConnectionClosedException;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPortIdentifier;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * The {@link ReadMessage} of an {@link AbstractReceivePort}. Every connection has one instance,
 * reused for each of its messages (a connection has at most one live message), so receiving
 * allocates nothing. Reads go straight to the connection's serialization input; a message that is
 * not live refuses every call. A read that fails because the connection broke throws
 * {@link ConnectionClosedException}.
 */
final class IncomingMessage implements ReadMessage {

    private static final VarHandle LIVE;

    static {
        try {
            LIVE = MethodHandles.lookup().findVarHandle(IncomingMessage.class, "live", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AbstractReceivePort port;
    private final ReceiveConnection connection;

    private SerializationInput in;
    private long sequenceNumber;
    private long startBytes;
    /**
     * True from delivery until finish. Written under the port's lock by the finishing thread, read
     * by the reading thread (which is the one that finishes in the normal case): release writes and
     * acquire reads ({@link #LIVE}), which cost no fence on x86, where a volatile write costs one per
     * message on each side.
     */
    private boolean live;
    /** The thread running the upcall for this message, or null (explicit receipt); guarded by the port's lock. */
    Thread upcallThread;
    /** Counts the upcall deliveries of this (reused) object; guarded by the port's lock. */
    long delivery;

    IncomingMessage(AbstractReceivePort port, ReceiveConnection connection) {
        this.port = port;
        this.connection = connection;
    }

    /** Called by the connection's reader after the header; the message is not yet live. */
    void prepare(SerializationInput stream, long seqno, long bytesBefore) {
        this.in = stream;
        this.sequenceNumber = seqno;
        this.startBytes = bytesBefore;
    }

    void setLive(boolean value) {
        LIVE.setRelease(this, value);
    }

    boolean isLive() {
        return (boolean) LIVE.getAcquire(this);
    }

    ReceiveConnection connection() {
        return connection;
    }

    private SerializationInput in() throws IOException {
        if (!isLive()) {
            throw new IOException("read message from " + connection.origin + " is not live (already finished)");
        }
        return in;
    }

    @Override
    public long finish() throws IOException {
        in();
        return port.finishMessage(this, null);
    }

    @Override
    public void finish(IOException exception) {
        if (!isLive()) {
            return;
        }
        try {
            port.finishMessage(this, exception);
        } catch (IOException e) {
            // already reported by the port (lost connection); the caller is handling its own error
        }
    }

    @Override
    public long bytesRead() throws IOException {
        in();
        return connection.in.bytesRead() - startBytes;
    }

    long bytesSinceStart() {
        return connection.in.bytesRead() - startBytes;
    }

    /** Unknown: messages are streamed, their size is not known in advance. */
    @Override
    public int size() {
        return -1;
    }

    /** Unknown: messages are streamed, their size is not known in advance. */
    @Override
    public int remaining() {
        return -1;
    }

    @Override
    public ReceivePort localPort() {
        return port;
    }

    @Override
    public long sequenceNumber() {
        if (!port.getPortType().hasCapability(PortType.COMMUNICATION_NUMBERED)) {
            throw new IbisConfigurationException(port + ": sequenceNumber() needs "
                    + PortType.COMMUNICATION_NUMBERED + " in the port type");
        }
        return sequenceNumber;
    }

    @Override
    public SendPortIdentifier origin() {
        return connection.origin;
    }

    @Override
    public boolean readBoolean() throws IOException {
        try {
            return in().readBoolean();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public byte readByte() throws IOException {
        try {
            return in().readByte();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public char readChar() throws IOException {
        try {
            return in().readChar();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public short readShort() throws IOException {
        try {
            return in().readShort();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public int readInt() throws IOException {
        try {
            return in().readInt();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public long readLong() throws IOException {
        try {
            return in().readLong();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public float readFloat() throws IOException {
        try {
            return in().readFloat();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public double readDouble() throws IOException {
        try {
            return in().readDouble();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public String readString() throws IOException {
        try {
            return in().readString();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public Object readObject() throws IOException, ClassNotFoundException {
        try {
            return in().readObject();
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(boolean[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(byte[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(char[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(short[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(int[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(long[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(float[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(double[] destination) throws IOException {
        try {
            in().readArray(destination, 0, destination.length);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(Object[] destination) throws IOException, ClassNotFoundException {
        readArray(destination, 0, destination.length);
    }

    @Override
    public void readArray(boolean[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(byte[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(char[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(short[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(int[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(long[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(float[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    @Override
    public void readArray(double[] destination, int offset, int size) throws IOException {
        try {
            in().readArray(destination, offset, size);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    /**
     * Reads an array of objects written with {@code writeArray(Object[])}, which travels as one
     * array object (so that {@link #readObject()} can read it too); its length must be {@code size}.
     */
    @Override
    public void readArray(Object[] destination, int offset, int size) throws IOException, ClassNotFoundException {
        Object read;
        try {
            read = in().readObject();
        } catch (IOException e) {
            throw broken(e);
        }
        if (!(read instanceof Object[])) {
            throw new IOException("readArray(Object[]) expected an array of objects but read "
                    + (read == null ? "null" : "a " + read.getClass().getName()));
        }
        Object[] array = (Object[]) read;
        if (array.length != size) {
            throw new IOException("readArray(Object[]) expected " + size + " elements but the array written has "
                    + array.length);
        }
        try {
            System.arraycopy(array, 0, destination, offset, size);
        } catch (ArrayStoreException e) {
            throw new IOException("readArray: the elements written (" + array.getClass().getComponentType().getName()
                    + ") do not fit into " + destination.getClass().getComponentType().getName() + "[]", e);
        }
    }

    @Override
    public void readByteBuffer(ByteBuffer value) throws IOException, ReadOnlyBufferException {
        if (value.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        try {
            in().readByteBuffer(value);
        } catch (IOException e) {
            throw broken(e);
        }
    }

    /**
     * Turns a read failure caused by a broken connection into a {@link ConnectionClosedException}
     * (and reports the lost connection at once); other failures (reading past the end of the
     * message, malformed data) are returned unchanged.
     */
    private IOException broken(IOException e) {
        IOException failure = connection.source.failure();
        if (failure == null || e instanceof ConnectionClosedException) {
            return e;
        }
        port.connectionEnded(connection, failure);
        return new ConnectionClosedException("the connection from " + connection.origin
                + " broke while a message was being read: " + failure, e);
    }

    @Override
    public String toString() {
        return "read message from " + connection.origin + " on " + port + (isLive() ? "" : " (finished)");
    }
}
