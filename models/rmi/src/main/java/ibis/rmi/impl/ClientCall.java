package ibis.rmi.impl;

import ibis.ipl.ReadMessage;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.io.NotSerializableException;
import java.rmi.ConnectException;
import java.rmi.MarshalException;
import java.rmi.RemoteException;
import java.rmi.ServerError;
import java.rmi.UnmarshalException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One remote call seen from the caller: the generated stub writes the parameters with the typed
 * {@code write} methods, calls {@link #invoke()}, reads the result with the typed {@code read}
 * methods and ends with {@link #done()}. The write and read methods do not throw: a failure is
 * remembered and reported by {@link #invoke()} or {@link #done()}, so the generated code is
 * straight-line, without exception handlers.
 *
 * <p>Each thread reuses one call object ({@link #obtain()}; a second one only for a call started
 * while the thread's call is still in use). The reply is read by whichever waiting caller leads
 * the server's {@link ReplyChannel} (usually the caller itself): it knows the kind of the return
 * type (given to {@link RemoteReference#newCall(int, int)}), reads a primitive result into a
 * {@code long} holding its bits (no boxing) and a reference result or exception as an object.
 */
public final class ClientCall {

    static final int IDLE = 0;
    static final int WAITING = 1;
    static final int ARRIVED = 2;
    static final int FAILED = 3;

    private static final ThreadLocal<ClientCall> PER_THREAD = new ThreadLocal<>();
    private static final AtomicInteger NEXT_CALL_ID = new AtomicInteger();

    private RemoteReference ref;
    private ReplyChannel channel;
    private int callId;
    private int kind;
    private boolean inUse;
    private SendPort port;
    private WriteMessage out;
    private Throwable writeFailure;
    private Thread thread;
    private int epoch;
    /** The thread was interrupted before the call: restored when the call ends. */
    private boolean interruptPending;

    /** Written before the volatile state leaves WAITING, read by the caller after. */
    private volatile int state = IDLE;
    private Throwable lostCause;
    private byte status;
    private long bits;
    private Object value;
    private Throwable readFailure;

    private ClientCall() {
    }

    /** @return this thread's call object, or a new one when it is in use (a call within a call) */
    static ClientCall obtain() {
        ClientCall c = PER_THREAD.get();
        if (c == null) {
            c = new ClientCall();
            PER_THREAD.set(c);
        } else if (c.inUse) {
            c = new ClientCall();
        }
        c.inUse = true;
        return c;
    }

    /** Prepares the call (a new call id) for a reference; registers nothing yet. */
    void start(RemoteReference reference, int returnKind) {
        ref = reference;
        channel = reference.channel();
        kind = returnKind;
        callId = NEXT_CALL_ID.incrementAndGet();
        thread = Thread.currentThread();
        // As with java.rmi, a pending interrupt does not end the call; it is kept for after it
        // (cleared meanwhile, so that parking and the IPL's waits work normally).
        interruptPending |= Thread.interrupted();
        writeFailure = null;
        lostCause = null;
        readFailure = null;
        value = null;
        bits = 0;
        status = RmiProtocol.RESULT;
        state = IDLE;
    }

    /** Gives the call object back for the thread's next call. */
    void release() {
        ref = null;
        channel = null;
        port = null;
        out = null;
        value = null;
        lostCause = null;
        readFailure = null;
        writeFailure = null;
        state = IDLE;
        inUse = false;
        if (interruptPending) {
            interruptPending = false;
            Thread.currentThread().interrupt();
        }
    }

    int callId() {
        return callId;
    }

    RemoteReference reference() {
        return ref;
    }

    int state() {
        return state;
    }

    /** Called by the channel when registering (under its lock). */
    void waitIn(int portEpoch) {
        epoch = portEpoch;
        state = WAITING;
    }

    /** @return the epoch of the reply port this call was registered for */
    int epoch() {
        return epoch;
    }

    void begin(SendPort sendPort, WriteMessage message, int methodNumber) {
        this.port = sendPort;
        this.out = message;
        try {
            out.writeInt(callId);
            out.writeInt(methodNumber);
        } catch (IOException e) {
            writeFailure = e;
        }
    }

    /** Writes an int of the request header (the PING's reply port epoch). */
    void writeHeaderInt(int v) {
        writeInt(v);
    }

    // ---- parameters (generated stubs) ----

    /** @param v a parameter */
    public void writeBoolean(boolean v) {
        if (writeFailure == null) {
            try {
                out.writeBoolean(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeByte(byte v) {
        if (writeFailure == null) {
            try {
                out.writeByte(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeChar(char v) {
        if (writeFailure == null) {
            try {
                out.writeChar(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeShort(short v) {
        if (writeFailure == null) {
            try {
                out.writeShort(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeInt(int v) {
        if (writeFailure == null) {
            try {
                out.writeInt(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeLong(long v) {
        if (writeFailure == null) {
            try {
                out.writeLong(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeFloat(float v) {
        if (writeFailure == null) {
            try {
                out.writeFloat(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter */
    public void writeDouble(double v) {
        if (writeFailure == null) {
            try {
                out.writeDouble(v);
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    /** @param v a parameter (an exported remote object travels as its stub) */
    public void writeObject(Object v) {
        if (writeFailure == null) {
            try {
                out.writeObject(RmiRuntime.replaceExported(v));
            } catch (IOException | RuntimeException e) {
                writeFailure = e;
            }
        }
    }

    // ---- the call ----

    /**
     * Sends the request and waits for the reply. On return the result can be read.
     *
     * @throws Throwable the exception thrown by the remote method, or a {@link RemoteException}
     *         when the call failed
     */
    public void invoke() throws Throwable {
        invoke(0);
    }

    /**
     * Like {@link #invoke()}, but fails with a {@link ConnectException} when no reply came within
     * the time-out (used for the connection check, whose reply needs the server's reply
     * connection to this JVM).
     *
     * @param timeoutMillis how long to wait for the reply; 0 = as long as the connection lives
     * @throws Throwable as {@link #invoke()}
     */
    void invoke(long timeoutMillis) throws Throwable {
        boolean ok = false;
        try {
            send();
            long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
            channel.await(this, deadline);
            throwFailure();
            ok = true;
        } finally {
            if (!ok) {
                release();
            }
        }
    }

    private void send() throws RemoteException {
        if (writeFailure != null) {
            out.finish(writeFailure instanceof IOException ? (IOException) writeFailure
                    : new IOException(writeFailure));
            channel.unregister(this);
            // The object stream of this connection may now hold half an object graph (and type
            // information the server never got): the next call starts on a fresh connection.
            ref.broken(port);
            if (writeFailure instanceof NotSerializableException || !(writeFailure instanceof IOException)) {
                throw new MarshalException("cannot marshal the parameters of a call to " + ref.describe()
                        + ": " + writeFailure, (Exception) writeFailure);
            }
            throw ref.connectException("cannot send a request", (Exception) writeFailure);
        }
        try {
            out.finish();
        } catch (IOException e) {
            channel.unregister(this);
            ref.broken(port);
            throw ref.connectException("cannot send a request", e);
        }
    }

    private void throwFailure() throws Throwable {
        if (state == FAILED) {
            ref.broken(port);
            Throwable cause = lostCause;
            throw new ConnectException("connection to " + ref.describe() + " lost during the call: "
                    + cause.getMessage(), cause instanceof Exception ? (Exception) cause : new Exception(cause));
        }
        if (readFailure != null) {
            throw new UnmarshalException("cannot read the reply of a call to " + ref.describe() + ": "
                    + readFailure, readFailure instanceof Exception ? (Exception) readFailure
                    : new Exception(readFailure));
        }
        if (status == RmiProtocol.RESULT) {
            return;
        }
        if (!(value instanceof Throwable)) {
            throw new UnmarshalException("malformed reply (status " + status + ") from " + ref.describe());
        }
        Throwable t = (Throwable) value;
        if (status == RmiProtocol.SYSTEM_EXCEPTION && t instanceof UnmarshalException) {
            // The server could not read our request: the request stream may be out of step.
            ref.broken(port);
        }
        if (status == RmiProtocol.APPLICATION_EXCEPTION) {
            appendLocalStackTrace(t);
            if (t instanceof Error) {
                throw new ServerError("error thrown by remote method on " + ref.describe(), (Error) t);
            }
        }
        throw t;
    }

    /** Appends the caller's stack to the remote stack trace, as java.rmi does. */
    private static void appendLocalStackTrace(Throwable t) {
        StackTraceElement[] remote = t.getStackTrace();
        StackTraceElement[] local = new Throwable().getStackTrace();
        StackTraceElement[] all = new StackTraceElement[remote.length + local.length];
        System.arraycopy(remote, 0, all, 0, remote.length);
        System.arraycopy(local, 0, all, remote.length, local.length);
        t.setStackTrace(all);
    }

    // ---- result (generated stubs; the value was read by the channel's leader) ----

    /** @return the result */
    public boolean readBoolean() {
        return bits != 0;
    }

    /** @return the result */
    public byte readByte() {
        return (byte) bits;
    }

    /** @return the result */
    public char readChar() {
        return (char) bits;
    }

    /** @return the result */
    public short readShort() {
        return (short) bits;
    }

    /** @return the result */
    public int readInt() {
        return (int) bits;
    }

    /** @return the result */
    public long readLong() {
        return bits;
    }

    /** @return the result */
    public float readFloat() {
        return Float.intBitsToFloat((int) bits);
    }

    /** @return the result */
    public double readDouble() {
        return Double.longBitsToDouble(bits);
    }

    /** @return the result */
    public Object readObject() {
        return value;
    }

    /**
     * Ends the call after the result was read (the reply message was finished already): the call
     * object goes back to the thread for its next call.
     *
     * @throws RemoteException never
     */
    public void done() throws RemoteException {
        release();
    }

    // ---- runtime side ----

    /**
     * Reads the reply (called by the channel's leader, which then finishes the message and calls
     * {@link #arrived()}). Never throws: a failure is reported to the caller.
     */
    void deliver(ReadMessage m) {
        try {
            byte s = m.readByte();
            status = s;
            if (s != RmiProtocol.RESULT) {
                value = m.readObject();
            } else {
                int wireKind = m.readByte();
                switch (wireKind) {
                case 'V':
                    break;
                case 'L':
                    value = m.readObject();
                    break;
                default:
                    bits = readBits(m, wireKind);
                    break;
                }
                if (wireKind != kind) {
                    readFailure = new UnmarshalException("the reply has a result of kind " + (char) wireKind
                            + " where the stub expects " + (char) kind + " (different remote interfaces?)");
                }
            }
        } catch (Throwable t) {
            readFailure = t;
        }
    }

    /** The reply was read: wakes the caller (unless it is the reading thread itself). */
    void arrived() {
        Thread t = thread;
        state = ARRIVED;
        if (t != Thread.currentThread()) {
            LockSupport.unpark(t);
        }
    }

    /** Wakes the caller (it became the leader of its channel). */
    void wake() {
        LockSupport.unpark(thread);
    }

    /** Reads a primitive result of a kind (a descriptor character) as its bits. */
    private static long readBits(ReadMessage m, int wireKind) throws IOException {
        switch (wireKind) {
        case 'Z':
            return m.readBoolean() ? 1 : 0;
        case 'B':
            return m.readByte();
        case 'C':
            return m.readChar();
        case 'S':
            return m.readShort();
        case 'I':
            return m.readInt();
        case 'J':
            return m.readLong();
        case 'F':
            return Float.floatToRawIntBits(m.readFloat());
        case 'D':
            return Double.doubleToRawLongBits(m.readDouble());
        default:
            throw new UnmarshalException("malformed reply: unknown result kind " + wireKind);
        }
    }

    /**
     * Reads a reply nobody waits for, to its end: the object stream must see every object (and
     * type definition) the server wrote, or later replies on the connection cannot be read.
     */
    static void skipReply(ReadMessage m) throws IOException, ClassNotFoundException {
        byte s = m.readByte();
        if (s != RmiProtocol.RESULT) {
            m.readObject();
            return;
        }
        int wireKind = m.readByte();
        if (wireKind == 'L') {
            m.readObject();
        } else if (wireKind != 'V') {
            readBits(m, wireKind);
        }
    }

    /** Fails a call waiting for its reply (called by its channel, under the channel's lock). */
    void fail(Throwable cause) {
        Thread t = thread;
        lostCause = cause;
        state = FAILED;
        LockSupport.unpark(t);
    }
}
