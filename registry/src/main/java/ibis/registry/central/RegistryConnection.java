package ibis.registry.central;

import ibis.ipl.IbisProperties;
import ibis.ipl.impl.MemberIdentifier;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's one TCP connection to the central registry server: connecting and the join
 * handshake, a reader thread that hands the pool's events to the {@link PoolView} and the answers
 * to the requests waiting for them, sending requests, and heartbeats. The server answers each
 * heartbeat, so a server that stays silent for the heartbeat timeout is treated as lost, like a
 * closed connection.
 */
final class RegistryConnection {

    private static final Logger LOG = LoggerFactory.getLogger(CentralRegistryClient.class);

    private final MemberIdentifier identifier;
    private final PoolView view;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /**
     * Requests sent and not yet answered, by request id. A request whose caller was interrupted
     * stays here (its future already completed) until the server's answer arrives and is disposed of.
     */
    private final ConcurrentHashMap<Integer, Request> pending = new ConcurrentHashMap<>();
    /** Monitor notified after every request sent (for {@link #awaitRequestsSent}). */
    private final Object sentMonitor = new Object();
    private final AtomicInteger nextRequestId = new AtomicInteger();
    /** Test hook: when set, no heartbeats and no ping answers are sent (the connection stays open). */
    private volatile boolean hung;
    /** When the last frame from the server arrived (System.nanoTime). */
    private volatile long lastHeardFromServer = System.nanoTime();
    private final long heartbeatTimeoutNanos;

    private final AtomicLong heartbeatsSent = new AtomicLong();
    private final AtomicLong requestsSent = new AtomicLong();

    private final ScheduledExecutorService heartbeats;

    /** Takes over a joined connection ({@link #handshake}) and starts the heartbeats. */
    RegistryConnection(ClientSettings settings, MemberIdentifier identifier, PoolView view, Socket socket,
            InputStream in, OutputStream out) {
        this.identifier = identifier;
        this.view = view;
        this.socket = socket;
        this.in = in;
        this.out = out;
        heartbeatTimeoutNanos = settings.heartbeatTimeout * 1_000_000L;
        int interval = settings.heartbeatInterval;
        heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ibis-registry-heartbeat " + identifier);
            t.setDaemon(true);
            return t;
        });
        heartbeats.scheduleWithFixedDelay(this::sendHeartbeat, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** Connects to the server, retrying while it is not (yet) listening, up to the connect timeout. */
    static Socket connect(ClientSettings settings) throws IOException {
        long deadline = System.nanoTime() + settings.connectTimeout * 1_000_000L;
        long backoff = 50;
        while (true) {
            Socket socket = new Socket();
            long remaining = (deadline - System.nanoTime()) / 1_000_000L;
            try {
                socket.connect(new InetSocketAddress(settings.server.host(), settings.server.port()),
                        (int) Math.max(1, Math.min(Integer.MAX_VALUE, remaining)));
                if (socket.getLocalSocketAddress().equals(socket.getRemoteSocketAddress())) {
                    // TCP simultaneous open with itself: nothing listens on that (ephemeral) port and
                    // the kernel picked it as our source port too. Treat it as refused.
                    throw new ConnectException("connection refused (connected to itself: nothing listens on "
                            + settings.server + ")");
                }
                return socket;
            } catch (UnknownHostException e) {
                closeQuietly(socket);
                throw new IOException("registry server host '" + settings.server.host() + "' ("
                        + IbisProperties.SERVER_ADDRESS + ") is unknown", e);
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                closeQuietly(socket);
                remaining = (deadline - System.nanoTime()) / 1_000_000L;
                if (remaining <= 0) {
                    String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
                    throw new IOException("cannot reach the Ibis registry server at " + settings.server + " ("
                            + IbisProperties.SERVER_ADDRESS + ") within " + settings.connectTimeout + " ms ("
                            + ibis.registry.RegistryProperties.CONNECT_TIMEOUT + "): " + why + "; start one with"
                            + " bin/ibis-server --port " + settings.server.port() + " (or java -jar"
                            + " ibis-registry-VERSION.jar --port " + settings.server.port() + "), or point "
                            + IbisProperties.SERVER_ADDRESS + " at a running one", e);
                }
                LOG.debug("registry server {} not reachable yet ({}); retrying", settings.server, e.getMessage());
                try {
                    Thread.sleep(Math.min(backoff, remaining)); // retry pacing, not synchronisation
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while connecting to the registry server");
                }
                backoff = Math.min(backoff * 2, 1000);
            }
        }
    }

    /**
     * The join handshake on a new connection: magic and version, the JOIN frame, and the
     * server's answer.
     *
     * @return the server's WELCOME, not read yet
     * @throws IOException when the server refused the join, speaks another protocol version, or
     *         is not an Ibis registry server
     */
    static MessageReader handshake(ClientSettings settings, InputStream in, OutputStream out, byte[] joinFrame)
            throws IOException {
        DataInputStream data = new DataInputStream(in);
        out.write(new byte[] {
            (byte) (RegistryProtocol.MAGIC >>> 24), (byte) (RegistryProtocol.MAGIC >>> 16),
            (byte) (RegistryProtocol.MAGIC >>> 8), (byte) RegistryProtocol.MAGIC, RegistryProtocol.VERSION });
        out.write(joinFrame);
        out.flush();
        int magic = data.readInt();
        if (magic != RegistryProtocol.MAGIC) {
            throw new MalformedMessageException(String.format("%s is not an Ibis registry server (magic 0x%08x)",
                    settings.server, magic));
        }
        int version = data.readUnsignedByte();
        MessageReader answer = MessageReader.readFrame(in, RegistryProtocol.MAX_SERVER_FRAME);
        if (answer == null) {
            throw new EOFException("the registry server closed the connection during the join");
        }
        if (answer.type() == RegistryProtocol.REFUSED) {
            throw new IOException("registry server at " + settings.server + " refused the join: "
                    + answer.readString());
        }
        if (version != RegistryProtocol.VERSION) {
            throw new IOException("registry server at " + settings.server + " speaks protocol version " + version
                    + ", this client " + RegistryProtocol.VERSION);
        }
        if (answer.type() != RegistryProtocol.WELCOME) {
            throw new MalformedMessageException("expected WELCOME from the registry server, got "
                    + RegistryProtocol.messageName(answer.type()));
        }
        return answer;
    }

    void startReader() {
        Thread reader = new Thread(this::readLoop, "ibis-registry-reader " + identifier);
        reader.setDaemon(true);
        reader.start();
    }

    // ---------------------------------------------------------------- incoming

    private void readLoop() {
        try {
            while (true) {
                MessageReader message = MessageReader.readFrame(in, RegistryProtocol.MAX_SERVER_FRAME);
                if (message == null) {
                    throw new EOFException("the registry server closed the connection");
                }
                lastHeardFromServer = System.nanoTime();
                switch (message.type()) {
                    case RegistryProtocol.EVENT:
                        view.applyEvent(message);
                        break;
                    case RegistryProtocol.REPLY:
                    case RegistryProtocol.ERROR: {
                        int id = message.readInt();
                        Request request = pending.remove(id);
                        if (request == null) {
                            throw new MalformedMessageException("reply to unknown request " + id);
                        }
                        if (message.type() == RegistryProtocol.REPLY) {
                            if (!request.reply.complete(message)) {
                                LOG.debug("{}: ignoring the answer to abandoned request {}", identifier, id);
                            }
                        } else {
                            String reason = message.readString();
                            if (!request.reply.completeExceptionally(new IOException("registry server: " + reason))) {
                                LOG.debug("{}: registry server answered abandoned request {}: {}", identifier, id,
                                        reason);
                            }
                        }
                        break;
                    }
                    case RegistryProtocol.ALIVE:
                        message.expectEnd();
                        break;
                    case RegistryProtocol.PING:
                        message.expectEnd();
                        if (!hung) {
                            send(new MessageBuilder(RegistryProtocol.PONG).frame());
                        }
                        break;
                    default:
                        throw new MalformedMessageException("unexpected message from the registry server: "
                                + RegistryProtocol.messageName(message.type()));
                }
            }
        } catch (IOException e) {
            connectionLost(e);
        } catch (RuntimeException e) {
            LOG.error("internal error in the registry client of " + identifier, e);
            connectionLost(new IOException("internal error in the registry client: " + e, e));
        }
    }

    private void connectionLost(IOException cause) {
        IOException failure = view.connectionLost(cause);
        for (Request waiter : pending.values()) {
            waiter.reply.completeExceptionally(failure);
        }
        close();
    }

    /** Stops the heartbeats and closes the socket (the reader thread then ends). */
    void close() {
        heartbeats.shutdownNow();
        closeQuietly(socket);
    }

    // ---------------------------------------------------------------- outgoing

    private void send(byte[] frame) throws IOException {
        try {
            synchronized (out) {
                out.write(frame);
                out.flush();
            }
        } catch (IOException e) {
            connectionLost(e);
            throw view.usable();
        }
    }

    private void sendHeartbeat() {
        if (hung) {
            return;
        }
        long silence = System.nanoTime() - lastHeardFromServer;
        if (silence > heartbeatTimeoutNanos) {
            // The server answers every heartbeat; this long a silence means it hangs or the network is cut.
            connectionLost(new IOException("no message from the registry server for " + silence / 1_000_000L + " ms"));
            return;
        }
        try {
            send(new MessageBuilder(RegistryProtocol.HEARTBEAT).frame());
            heartbeatsSent.incrementAndGet();
        } catch (IOException e) {
            LOG.debug("heartbeat of {} failed", identifier, e);
        }
    }

    /** @return the id of a new request */
    int nextRequestId() {
        return nextRequestId.incrementAndGet();
    }

    /** Starts the frame of a request. */
    static MessageBuilder request(byte type, int requestId) {
        return new MessageBuilder(type).writeInt(requestId);
    }

    /**
     * Sends a request and waits for its answer. Fails when the connection is (or gets) lost: every
     * waiting call is woken by {@link #connectionLost}.
     */
    MessageReader call(int requestId, MessageBuilder request) throws IOException {
        Request waiter = new Request();
        CompletableFuture<MessageReader> reply = waiter.reply;
        pending.put(requestId, waiter);
        boolean abandoned = false;
        try {
            IOException problem = view.usable();
            if (problem != null) {
                throw problem;
            }
            send(request.frame());
            requestsSent.incrementAndGet();
            synchronized (sentMonitor) {
                sentMonitor.notifyAll();
            }
            try {
                return reply.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException interrupted = new InterruptedIOException(
                        "interrupted while waiting for the registry server");
                if (reply.completeExceptionally(interrupted)) {
                    // No answer yet; the reader thread disposes of it when it comes (it stays pending).
                    abandoned = true;
                    throw interrupted;
                }
                try {
                    return reply.join(); // the answer arrived just now: use it (the interrupt stays set)
                } catch (CompletionException c) {
                    Throwable cause = c.getCause();
                    throw new IOException(cause.getMessage(), cause);
                }
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                throw new IOException(cause.getMessage(), cause);
            }
        } finally {
            if (!abandoned) {
                pending.remove(requestId);
            }
        }
    }

    /** Test hook: waits until at least {@code count} requests were written to the server. */
    void awaitRequestsSent(long count) throws InterruptedException {
        synchronized (sentMonitor) {
            while (requestsSent.get() < count) {
                sentMonitor.wait();
            }
        }
    }

    /** Test hook: stop heartbeats and ping answers while keeping the connection open (a hung member). */
    void simulateHang() {
        hung = true;
    }

    long heartbeatsSent() {
        return heartbeatsSent.get();
    }

    long requestsSent() {
        return requestsSent.get();
    }

    static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do with this socket
        }
    }

    /** A request waiting for the server's answer. */
    private static final class Request {
        final CompletableFuture<MessageReader> reply = new CompletableFuture<>();
    }
}
