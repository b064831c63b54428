package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReadMessage;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortIdentifier;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.rmi.RemoteException;
import java.rmi.UnmarshalException;

/**
 * One remote call seen from the server: it tracks in which phase the generated skeleton is
 * (reading the parameters, running the method, writing the result), so that an exception escaping
 * the skeleton is answered correctly: an unreadable request with an {@link UnmarshalException}, an
 * exception of the method with itself.
 */
public final class ServerCall {

    static final int READING = 0;
    static final int INVOKING = 1;
    static final int REPLYING = 2;
    static final int REPLIED = 3;

    private static final ThreadLocal<ServerCall> PER_THREAD = new ThreadLocal<>();

    private RmiRuntime runtime;
    private ReadMessage request;
    private int callId;
    private int phase = READING;
    private WriteMessage reply;
    /** The port the reply of this call was started on, or null (see {@link #replyPort()}). */
    private SendPort replyPort;
    private java.util.concurrent.atomic.AtomicInteger active;
    private boolean inUse;
    /** The reply sender of the last call served by this thread, and the request connection it was for. */
    private ReplySender sender;
    private SendPortIdentifier senderOrigin;

    private ServerCall() {
    }

    /**
     * The call object of this upcall thread (a new one if it is in use), set up for a request.
     *
     * @param runtime the runtime
     * @param request the request, positioned after the call id and method number
     * @param callId the call id
     * @return the call
     */
    static ServerCall obtain(RmiRuntime runtime, ReadMessage request, int callId) {
        ServerCall c = PER_THREAD.get();
        if (c == null) {
            c = new ServerCall();
            PER_THREAD.set(c);
        } else if (c.inUse) {
            c = new ServerCall();
        }
        c.inUse = true;
        c.runtime = runtime;
        c.request = request;
        c.callId = callId;
        c.phase = READING;
        c.reply = null;
        c.replyPort = null;
        c.active = null;
        // Requests over one connection come from one caller: its reply sender is looked up once.
        SendPortIdentifier origin = request.origin();
        if (origin != c.senderOrigin) {
            c.sender = runtime.replySender(origin.ibisIdentifier());
            c.senderOrigin = origin;
        }
        return c;
    }

    /**
     * The caller of the remote call that this thread is serving (between the request and the end
     * of its upcall), or null when it serves none.
     *
     * @return the calling member, or null
     */
    public static IbisIdentifier currentCaller() {
        ServerCall c = PER_THREAD.get();
        return c != null && c.inUse && c.senderOrigin != null ? c.senderOrigin.ibisIdentifier() : null;
    }

    /** The upcall is over: the object serves the thread's next call. */
    void release() {
        request = null;
        reply = null;
        replyPort = null;
        active = null;
        inUse = false;
    }

    /** @return the reply sender to the caller */
    ReplySender sender() {
        return sender;
    }

    /**
     * The port this call's reply was started on, or null (no reply started, or no port could be
     * connected): after a failed reply only that port is given up, not one that another call
     * connected meanwhile to the caller's newer reply port.
     *
     * @return the port, or null
     */
    SendPort replyPort() {
        return replyPort;
    }

    /** A PING: the caller's reply port for this member has this epoch. */
    void replyTo(int epoch) {
        sender.announce(epoch);
    }

    int phase() {
        return phase;
    }

    /** Counts this call as running in the counter until its reply starts (see {@link #leaveActive()}). */
    void enterActive(java.util.concurrent.atomic.AtomicInteger counter) {
        counter.incrementAndGet();
        active = counter;
    }

    /** The method is done: the call no longer counts as running (before the reply is sent). */
    void leaveActive() {
        if (active != null) {
            active.decrementAndGet();
            active = null;
        }
    }

    /**
     * Called by the skeleton once the parameters are read: finishes the request, so that the
     * port delivers the next one (to another thread) while this method runs.
     *
     * @throws IOException when the request cannot be finished
     */
    public void invoking() throws IOException {
        request.finish();
        phase = INVOKING;
    }

    /**
     * Called by the skeleton when a void method returned: sends the reply.
     *
     * @throws IOException when the reply cannot be sent
     */
    public void returnVoid() throws IOException {
        result('V');
        sendResult();
    }

    /**
     * Called by the skeleton when a method returned a value: starts the reply, to which the
     * skeleton writes the value.
     *
     * @param kind the descriptor character of the return type ('L' for references and arrays),
     *        sent so that any receiver can read the whole reply
     * @return the reply message
     * @throws IOException when the reply cannot be started
     */
    public WriteMessage result(int kind) throws IOException {
        leaveActive();
        phase = REPLYING;
        replyPort = sender.port();
        reply = replyPort.newMessage();
        reply.writeInt(callId);
        reply.writeByte(RmiProtocol.RESULT);
        reply.writeByte((byte) kind);
        return reply;
    }

    /**
     * Called by the skeleton after it wrote the value: sends the reply.
     *
     * @throws IOException when the reply cannot be sent
     */
    public void sendResult() throws IOException {
        WriteMessage r = reply;
        reply = null;
        phase = REPLIED;
        r.finish();
    }

    /**
     * Replaces an exported remote object by its stub (a result value written by a skeleton).
     *
     * @param value the value
     * @return the value, or its stub
     */
    public static Object replace(Object value) {
        return RmiRuntime.replaceExported(value);
    }

    /** Sends an exception reply; {@code status} says whose exception it is. */
    void replyException(byte status, Throwable t) {
        leaveActive();
        phase = REPLYING;
        WriteMessage w = null;
        try {
            replyPort = sender.port();
            w = replyPort.newMessage();
            w.writeInt(callId);
            w.writeByte(status);
            w.writeObject(t);
            phase = REPLIED;
            w.finish();
        } catch (IOException | RuntimeException e) {
            if (w != null) {
                w.finish(e instanceof IOException ? (IOException) e : new IOException(e));
            }
            // The reply stream may hold half an object graph: the next reply uses a new connection.
            runtime.replyFailed(sender, replyPort, e);
            if (w != null && status == RmiProtocol.APPLICATION_EXCEPTION) {
                // The exception itself could not be serialized: tell the caller so.
                replyException(RmiProtocol.SYSTEM_EXCEPTION, new RemoteException(
                        "the remote method threw " + t + ", which could not be sent: " + e));
            }
        }
    }

    /** Ends a reply message whose writing failed half-way. */
    void abortReply(Throwable t) {
        WriteMessage r = reply;
        reply = null;
        if (r != null) {
            r.finish(t instanceof IOException ? (IOException) t : new IOException(t));
        }
    }
}
