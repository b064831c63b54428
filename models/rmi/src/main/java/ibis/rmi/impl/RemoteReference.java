package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.rmi.ConnectException;
import java.rmi.RemoteException;

/**
 * The client side of one remote object: its skeleton's receive port, its interfaces, and the one
 * send port through which this JVM's stubs of it send their requests. The send port is connected
 * on the first call (and again after a broken connection), followed by a {@link RmiProtocol#PING}
 * so that the server has its reply connection to us before any real call.
 */
public final class RemoteReference {

    private final RmiRuntime runtime;
    private final IbisIdentifier member;
    private final String portName;
    private final String[] interfaceNames;
    private final String remoteClass;

    /** Guarded by this: the connected send port, or null. */
    private SendPort sendPort;

    RemoteReference(RmiRuntime runtime, IbisIdentifier member, String portName, String[] interfaceNames,
            String remoteClass) {
        this.runtime = runtime;
        this.member = member;
        this.portName = portName;
        this.interfaceNames = interfaceNames.clone();
        this.remoteClass = remoteClass;
    }

    /** @return the member serving the remote object */
    public IbisIdentifier member() {
        return member;
    }

    /** @return the name of the skeleton's receive port */
    public String portName() {
        return portName;
    }

    RmiRuntime runtime() {
        return runtime;
    }

    /** @return "object NAME at MEMBER", for messages */
    String describe() {
        return "remote object " + portName + " at " + member;
    }

    /** @return the serialized form of a stub of this reference */
    public StubHandle handle() {
        return new StubHandle(member, portName, interfaceNames, remoteClass);
    }

    /**
     * Starts a call: registers it, and writes the request header (call id, method number).
     * Used by generated stubs.
     *
     * @param methodNumber the method number
     * @param returnKind the descriptor character of the return type ('L' for references and arrays)
     * @return the call, to which the stub writes the parameters
     * @throws RemoteException when the remote object cannot be reached
     */
    public ClientCall newCall(int methodNumber, int returnKind) throws RemoteException {
        SendPort port = connectedPort();
        ClientCall call = runtime.registerCall(this, returnKind);
        WriteMessage out;
        try {
            out = port.newMessage();
        } catch (IOException e) {
            runtime.unregisterCall(call);
            broken(port);
            throw connectException("cannot send a request", e);
        }
        call.begin(port, out, methodNumber);
        return call;
    }

    private synchronized SendPort connectedPort() throws RemoteException {
        if (sendPort != null) {
            return sendPort;
        }
        if (runtime.isGone(member)) {
            throw new ConnectException("RMI server " + member + " has left or died (" + describe() + ")");
        }
        SendPort port = null;
        try {
            port = runtime.createSendPort(this);
            port.connect(member, portName, runtime.connectTimeout(), false);
        } catch (IOException e) {
            discard(port);
            throw connectException("cannot connect", e);
        }
        sendPort = port;
        // The PING makes the server open its reply connection to this JVM, so that a lost server is
        // noticed by the reply port even during the first real call.
        ClientCall ping = runtime.registerCall(this, 'V');
        try {
            ping.begin(port, port.newMessage(), RmiProtocol.PING);
        } catch (IOException e) {
            runtime.unregisterCall(ping);
            sendPort = null;
            discard(port);
            throw connectException("cannot send a request", e);
        }
        try {
            // The server needs up to a connect time-out for its reply connection to us.
            ping.invoke(2 * runtime.connectTimeout() + 1000);
            ping.done();
        } catch (RemoteException e) {
            sendPort = null;
            discard(port);
            throw e;
        } catch (Throwable t) {
            sendPort = null;
            discard(port);
            throw new RemoteException("unexpected answer to the connection check of " + describe(), t);
        }
        return port;
    }

    /** Forgets a send port whose connection broke, so that the next call reconnects. */
    void broken(SendPort port) {
        synchronized (this) {
            if (sendPort != port) {
                return;
            }
            sendPort = null;
        }
        runtime.forgetPort(port);
        closeQuietly(port);
    }

    /**
     * Like {@link #broken}, but closes the port in another thread: used from the port's own
     * disconnect upcall, which must not wait for the port.
     */
    void brokenAsync(SendPort port) {
        synchronized (this) {
            if (sendPort != port) {
                return;
            }
            sendPort = null;
        }
        runtime.forgetPort(port);
        java.util.concurrent.CompletableFuture.runAsync(() -> closeQuietly(port));
    }

    /** Closes the send port (when the runtime ends). */
    void close() {
        SendPort port;
        synchronized (this) {
            port = sendPort;
            sendPort = null;
        }
        closeQuietly(port);
    }

    ConnectException connectException(String what, Exception cause) {
        return new ConnectException(what + " to " + describe() + ": " + cause.getMessage(), cause);
    }

    private void discard(SendPort port) {
        if (port != null) {
            runtime.forgetPort(port);
            closeQuietly(port);
        }
    }

    private static void closeQuietly(SendPort port) {
        if (port != null) {
            try {
                port.close();
            } catch (IOException | RuntimeException e) {
                // The connection is broken already; nothing more to release.
            }
        }
    }

    @Override
    public String toString() {
        return "RemoteReference[" + portName + "@" + member + "]";
    }
}
