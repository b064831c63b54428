package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.MessageUpcall;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.rmi.server.RemoteStub;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.rmi.NoSuchObjectException;
import java.rmi.RemoteException;
import java.rmi.UnmarshalException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One exported object of this JVM: its receive port, its stub, and its skeleton's upcall. */
final class ExportedObject implements MessageUpcall {

    private static final Logger LOG = LoggerFactory.getLogger(ExportedObject.class);

    private final RmiRuntime runtime;
    final Object target;
    final Skeleton skeleton;
    final RemoteInterfaces remote;
    final AtomicInteger active = new AtomicInteger();
    volatile boolean unexported;
    ReceivePort port;
    RemoteStub stub;

    ExportedObject(RmiRuntime runtime, Object target, Skeleton skeleton, RemoteInterfaces remote) {
        this.runtime = runtime;
        this.target = target;
        this.skeleton = skeleton;
        this.remote = remote;
    }

    /** One line of the call log ({@link RmiRuntime#setCallLog}). */
    private void logCall(PrintStream log, int method) {
        Method[] methods = remote.methods();
        String name = method >= 0 && method < methods.length && methods[method] != null
                ? methods[method].getName() : "#" + method;
        IbisIdentifier caller = ServerCall.currentCaller();
        log.println(Instant.now() + " Ibis RMI call from " + caller + " to "
                + target.getClass().getName() + "." + name + " (" + port.name() + ")");
    }

    @Override
    public void upcall(ReadMessage m) throws IOException {
        int callId = m.readInt();
        int method = m.readInt();
        ServerCall call = ServerCall.obtain(runtime, m, callId);
        try {
            serve(m, method, call);
        } finally {
            call.release();
        }
    }

    private void serve(ReadMessage m, int method, ServerCall call) throws IOException {
        if (method == RmiProtocol.PING) {
            int epoch = m.readInt();
            call.invoking();
            try {
                // The caller's reply port for us (a new one after the previous broke).
                call.replyTo(epoch);
                call.returnVoid();
            } catch (IOException e) {
                call.abortReply(e);
                runtime.replyFailed(call.sender(), call.replyPort(), e);
            }
            return;
        }
        if (unexported) {
            try {
                // Read the parameters anyway: the request stream must see every object.
                skeleton.skip(method, m);
            } catch (Throwable t) {
                LOG.debug("cannot read a request for unexported object {}: {}", port.name(), t.toString());
            }
            call.invoking();
            call.replyException(RmiProtocol.SYSTEM_EXCEPTION,
                    new NoSuchObjectException("object " + port.name() + " at " + runtime.ibis().identifier()
                            + " is no longer exported"));
            return;
        }
        PrintStream log = RmiRuntime.callLog();
        if (log != null) {
            logCall(log, method);
        }
        call.enterActive(active);
        try {
            skeleton.dispatch(target, method, m, call);
        } catch (Throwable t) {
            switch (call.phase()) {
            case ServerCall.READING:
                try {
                    m.finish();
                } catch (IOException | RuntimeException e) {
                    // The request is unreadable anyway; the reply says why.
                }
                RemoteException cause = t instanceof RemoteException ? (RemoteException) t
                        : new UnmarshalException("cannot read the parameters of method " + method + " of "
                                + target.getClass().getName() + ": " + t,
                                t instanceof Exception ? (Exception) t : null);
                call.replyException(RmiProtocol.SYSTEM_EXCEPTION, cause);
                break;
            case ServerCall.INVOKING:
                call.replyException(RmiProtocol.APPLICATION_EXCEPTION, t);
                break;
            default:
                LOG.debug("cannot send the reply of a call to {}: {}", port.name(), t.toString());
                call.abortReply(t);
                runtime.replyFailed(call.sender(), call.replyPort(), t);
                break;
            }
        } finally {
            call.leaveActive();
        }
    }
}
