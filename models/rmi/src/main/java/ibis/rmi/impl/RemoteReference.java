package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.rmi.server.RemoteRef;

import java.io.IOException;
import java.rmi.ConnectException;
import java.rmi.RemoteException;

/**
 * The client side of one remote object: its skeleton's receive port, its interfaces, and the one
 * send port through which this JVM's stubs of it send their requests. The send port is connected
 * on the first call (and again after a broken connection), followed by a {@link RmiProtocol#PING}
 * carrying the epoch of this JVM's reply port for the server ({@link ReplyChannel}), so that the
 * server has its reply connection to us before any real call; a PING is sent again when that
 * reply port was replaced. As the {@link RemoteRef} of the object's stubs (and of the exported
 * object itself) it identifies the object by member and port name.
 */
public final class RemoteReference implements RemoteRef {

    private final RmiRuntime runtime;
    private final IbisIdentifier member;
    private final String portName;
    private final String[] interfaceNames;
    private final String remoteClass;

    /** The replies of the member serving the object. */
    private final ReplyChannel channel;
    /** The connected send port, or null; replaced under the lock of this, read without it by calls. */
    private volatile SendPort sendPort;
    /** The epoch of the reply port announced to the server by the last PING on this send port. */
    private volatile int pingedEpoch = -1;

    RemoteReference(RmiRuntime runtime, IbisIdentifier member, String portName, String[] interfaceNames,
            String remoteClass) {
        this.runtime = runtime;
        this.member = member;
        this.portName = portName;
        this.interfaceNames = interfaceNames.clone();
        this.remoteClass = remoteClass;
        this.channel = runtime.channel(member);
    }

    /** @return the member serving the remote object */
    @Override
    public IbisIdentifier member() {
        return member;
    }

    /** @return the name of the skeleton's receive port */
    @Override
    public String portName() {
        return portName;
    }

    @Override
    public boolean remoteEquals(RemoteRef other) {
        return other != null && portName.equals(other.portName()) && member.equals(other.member());
    }

    @Override
    public int remoteHashCode() {
        return portName.hashCode() * 31 + member.hashCode();
    }

    @Override
    public String remoteToString() {
        return portName + "@" + member;
    }

    ReplyChannel channel() {
        return channel;
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
        ClientCall call = ClientCall.obtain();
        try {
            SendPort port = sendPort;
            while (true) {
                if (port != null) {
                    call.start(this, returnKind);
                    // Registered before the request goes out: the reply may come at once.
                    if (channel.register(call) == pingedEpoch) {
                        break;
                    }
                    // The reply port was replaced since our last PING: announce the new one first.
                    channel.unregister(call);
                }
                port = prepare();
            }
            WriteMessage out;
            try {
                out = port.newMessage();
            } catch (IOException e) {
                channel.unregister(call);
                broken(port);
                throw connectException("cannot send a request", e);
            }
            call.begin(port, out, methodNumber);
            return call;
        } catch (RemoteException | RuntimeException | Error e) {
            call.release();
            throw e;
        }
    }

    /**
     * The slow path of a call: connects the send port if needed and sends a PING with the epoch
     * of the current reply port, so that the server (re)connects its reply port to it.
     */
    private synchronized SendPort prepare() throws RemoteException {
        if (runtime.isGone(member)) {
            throw new ConnectException("RMI server " + member + " has left or died (" + describe() + ")");
        }
        SendPort port = sendPort;
        if (port == null) {
            try {
                port = runtime.createSendPort(this);
                port.connect(member, portName, runtime.connectTimeout(), false);
            } catch (IOException e) {
                discard(port);
                throw connectException("cannot connect", e);
            }
            pingedEpoch = -1;
            sendPort = port;
        } else if (pingedEpoch == channel.epoch()) {
            return port; // another call announced the current reply port meanwhile
        }
        // The PING makes the server open its reply connection to this JVM, so that a lost server is
        // noticed by the reply port even during the first real call.
        ClientCall ping = ClientCall.obtain();
        ping.start(this, 'V');
        int epoch;
        try {
            epoch = channel.register(ping);
        } catch (ConnectException e) {
            ping.release();
            throw e;
        }
        try {
            ping.begin(port, port.newMessage(), RmiProtocol.PING);
        } catch (IOException e) {
            channel.unregister(ping);
            ping.release();
            dropPort(port);
            throw connectException("cannot send a request", e);
        }
        ping.writeHeaderInt(epoch);
        try {
            // The server needs up to a connect time-out for its reply connection to us.
            ping.invoke(2 * runtime.connectTimeout() + 1000);
            ping.done();
        } catch (RemoteException e) {
            dropPort(port);
            throw e;
        } catch (Throwable t) {
            dropPort(port);
            throw new RemoteException("unexpected answer to the connection check of " + describe(), t);
        }
        pingedEpoch = epoch;
        return port;
    }

    private void dropPort(SendPort port) {
        if (sendPort == port) {
            sendPort = null;
        }
        discard(port);
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
