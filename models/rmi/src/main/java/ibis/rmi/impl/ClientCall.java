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

/**
 * One remote call seen from the caller: the generated stub writes the parameters with the typed
 * {@code write} methods, calls {@link #invoke()}, reads the result with the typed {@code read}
 * methods and ends with {@link #done()}. The write and read methods do not throw: a failure is
 * remembered and reported by {@link #invoke()} or {@link #done()}, so the generated code is
 * straight-line, without exception handlers.
 *
 * <p>The reply is read by the reply port's upcall thread ({@link #deliver}): it knows the kind of
 * the return type (given to {@link RemoteReference#newCall(int, int)}), reads a primitive result
 * into a {@code long} holding its bits (no boxing) and a reference result or exception as an
 * object, finishes the message and wakes the caller: one thread switch per reply, and the reply
 * port never waits for a caller.
 */
public final class ClientCall {

    private static final int WAITING = 0;
    private static final int ARRIVED = 1;
    private static final int FAILED = 2;
    private static final int DELIVERING = 3;

    private final RemoteReference ref;
    private final int callId;
    private final int kind;
    private SendPort port;
    private WriteMessage out;
    private Throwable writeFailure;

    /** Guarded by this. */
    private int state = WAITING;
    private Throwable lostCause;
    /** Written by the reply upcall before ARRIVED, read by the caller after it. */
    private byte status;
    private long bits;
    private Object value;
    private Throwable readFailure;

    /**
     * @param kind the return type: its descriptor character ('V', 'Z', 'B', 'C', 'S', 'I', 'J',
     *        'F', 'D'), or 'L' for references and arrays
     */
    ClientCall(RemoteReference ref, int callId, int kind) {
        this.ref = ref;
        this.callId = callId;
        this.kind = kind;
    }

    int callId() {
        return callId;
    }

    RemoteReference reference() {
        return ref;
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
        RmiRuntime runtime = ref.runtime();
        if (writeFailure != null) {
            out.finish(writeFailure instanceof IOException ? (IOException) writeFailure : new IOException(writeFailure));
            runtime.unregisterCall(this);
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
            runtime.unregisterCall(this);
            ref.broken(port);
            throw ref.connectException("cannot send a request", e);
        }
        synchronized (this) {
            boolean interrupted = false;
            long deadline = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : 0;
            while (state == WAITING || state == DELIVERING) {
                try {
                    if (timeoutMillis > 0 && state == WAITING) {
                        long left = (deadline - System.nanoTime()) / 1_000_000L;
                        if (left <= 0) {
                            runtime.unregisterCall(this);
                            lostCause = new IOException("no answer within " + timeoutMillis + " ms");
                            state = FAILED;
                            break;
                        }
                        wait(left);
                    } else {
                        wait();
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            if (state == FAILED) {
                ref.broken(port);
                Throwable cause = lostCause;
                throw new ConnectException("connection to " + ref.describe() + " lost during the call: "
                        + cause.getMessage(), cause instanceof Exception ? (Exception) cause : new Exception(cause));
            }
        }
        if (readFailure != null) {
            throw new UnmarshalException("cannot read the reply of a call to " + ref.describe() + ": "
                    + readFailure, readFailure instanceof Exception ? (Exception) readFailure : new Exception(readFailure));
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

    // ---- result (generated stubs; the value was read by the reply upcall) ----

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
     * Ends the call after the result was read. Nothing is left to release (the reply message was
     * finished by the reply upcall); kept so that generated stubs have one end point.
     *
     * @throws RemoteException never
     */
    public void done() throws RemoteException {
        // The reply was read completely before invoke() returned.
    }

    // ---- runtime side ----

    /**
     * Reads the reply (called by the reply upcall, which then finishes the message) and wakes
     * the caller.
     */
    void deliver(ReadMessage m) {
        synchronized (this) {
            if (state != WAITING) {
                return;
            }
            state = DELIVERING;
        }
        try {
            byte s = m.readByte();
            status = s;
            if (s != RmiProtocol.RESULT) {
                value = m.readObject();
            } else {
                int wireKind = m.readByte();
                readValue(m, wireKind);
                if (wireKind != kind) {
                    readFailure = new UnmarshalException("the reply has a result of kind " + (char) wireKind
                            + " where the stub expects " + (char) kind + " (different remote interfaces?)");
                }
            }
        } catch (Throwable t) {
            readFailure = t;
        }
        synchronized (this) {
            state = ARRIVED;
            notifyAll();
        }
    }

    /** Reads a result value of a kind (a descriptor character, 'L' for objects). */
    private void readValue(ReadMessage m, int wireKind) throws IOException, ClassNotFoundException {
        switch (wireKind) {
        case 'V':
            break;
        case 'Z':
            bits = m.readBoolean() ? 1 : 0;
            break;
        case 'B':
            bits = m.readByte();
            break;
        case 'C':
            bits = m.readChar();
            break;
        case 'S':
            bits = m.readShort();
            break;
        case 'I':
            bits = m.readInt();
            break;
        case 'J':
            bits = m.readLong();
            break;
        case 'F':
            bits = Float.floatToRawIntBits(m.readFloat());
            break;
        case 'D':
            bits = Double.doubleToRawLongBits(m.readDouble());
            break;
        case 'L':
            value = m.readObject();
            break;
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
        } else {
            new ClientCall(null, 0, 'V').readValue(m, m.readByte());
        }
    }

    /** Fails a call still waiting for its reply (lost connection, dead server). */
    synchronized void fail(Throwable cause) {
        if (state == WAITING) {
            lostCause = cause;
            state = FAILED;
            notifyAll();
        }
    }
}
