package ibis.registry.server;

import ibis.ipl.impl.MemberIdentifier;
import ibis.registry.protocol.MalformedMessageException;
import ibis.registry.protocol.MessageBuilder;
import ibis.registry.protocol.MessageReader;
import ibis.registry.protocol.RegistryProtocol;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection on the server. Its reader thread runs the handshake (preamble and join)
 * and then handles the member's requests in order; its writer thread drains a bounded queue of
 * finished frames, so a pool never blocks on a slow member's socket while holding its lock. A
 * member that does not read its events fast enough (queue full) is disconnected, which makes it
 * dead like any other lost connection.
 */
final class ServerConnection implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerConnection.class);

    /** Frames a member may have outstanding before it is considered hopelessly slow. */
    static final int MAX_QUEUED_FRAMES = 100_000;

    /** Queue marker: flush what came before, then close the socket. */
    private static final byte[] CLOSE_MARKER = new byte[0];

    private final CentralRegistryServer server;
    private final Socket socket;
    private final String peer;
    private final long acceptedAt = System.nanoTime();
    private final BlockingQueue<byte[]> outgoing = new LinkedBlockingQueue<>(MAX_QUEUED_FRAMES);

    private volatile boolean closing;
    /** When closeAfterFlush() was called (System.nanoTime), or 0; the reaper cuts off slow flushes. */
    private volatile long closeRequestedAt;
    private Thread writer;

    // Set once the join was accepted (under the pool's lock), read by the reaper.
    private volatile Pool pool;
    private volatile MemberIdentifier member;
    private volatile long heartbeatTimeoutNanos;
    private volatile long lastHeard = System.nanoTime();
    /** Deadline (System.nanoTime) for an answer to a maybeDead ping, or 0 when not suspected. */
    private volatile long pingDeadline;

    ServerConnection(CentralRegistryServer server, Socket socket) {
        this.server = server;
        this.socket = socket;
        this.peer = socket.getRemoteSocketAddress().toString();
    }

    String peer() {
        return peer;
    }

    Pool pool() {
        return pool;
    }

    MemberIdentifier member() {
        return member;
    }

    long acceptedAt() {
        return acceptedAt;
    }

    long lastHeard() {
        return lastHeard;
    }

    long heartbeatTimeoutNanos() {
        return heartbeatTimeoutNanos;
    }

    long pingDeadline() {
        return pingDeadline;
    }

    boolean isClosing() {
        return closing;
    }

    /** Called by the pool (under its lock) when the join was accepted. */
    void becomeMember(Pool pool, MemberIdentifier member, long heartbeatTimeoutMillis) {
        this.heartbeatTimeoutNanos = heartbeatTimeoutMillis * 1_000_000L;
        this.lastHeard = System.nanoTime();
        this.member = member;
        this.pool = pool;
    }

    @Override
    public void run() {
        boolean joined = false;
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(server.handshakeTimeoutMillis());
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (!readPreamble(in)) {
                return;
            }
            MessageReader join = MessageReader.readFrame(in, RegistryProtocol.MAX_CLIENT_FRAME);
            if (join == null) {
                LOG.warn("connection from {} closed before it joined a pool", peer);
                return;
            }
            if (join.type() != RegistryProtocol.JOIN) {
                throw new MalformedMessageException("expected a JOIN message, got "
                        + RegistryProtocol.messageName(join.type()));
            }
            MemberIdentifier prototype = join.readMember();
            int flags = join.readByte();
            int poolSize = join.readInt();
            int heartbeatInterval = join.readInt();
            int heartbeatTimeout = join.readInt();
            join.expectEnd();
            joined = server.join(this, prototype, (flags & RegistryProtocol.JOIN_FLAG_CLOSED_WORLD) != 0,
                    poolSize, heartbeatInterval, heartbeatTimeout);
            if (!joined) {
                return;
            }
            socket.setSoTimeout(0); // liveness from now on is the reaper's job (heartbeat timeout)
            while (true) {
                MessageReader message = MessageReader.readFrame(in, RegistryProtocol.MAX_CLIENT_FRAME);
                if (message == null) {
                    if (!closing && pool.isMember(this)) {
                        LOG.info("connection to {} ({}) closed without a leave", member, peer);
                    }
                    return;
                }
                lastHeard = System.nanoTime();
                pingDeadline = 0;
                pool.handle(this, message);
            }
        } catch (MalformedMessageException e) {
            LOG.warn("closing connection from {}{}: malformed input: {}", peer,
                    member == null ? "" : " (member " + member + ")", e.getMessage());
        } catch (SocketTimeoutException e) {
            LOG.warn("closing connection from {}: no complete join within {} ms", peer,
                    server.handshakeTimeoutMillis());
        } catch (EOFException e) {
            LOG.warn("connection from {} ended inside its handshake", peer);
        } catch (IOException e) {
            if (!closing && !server.isClosed()) {
                LOG.info("connection from {}{} lost: {}", peer,
                        member == null ? "" : " (member " + member + ")", e.toString());
            }
        } catch (RuntimeException e) {
            LOG.error("internal error on connection from " + peer + "; closing it", e);
        } finally {
            if (closeRequestedAt == 0) {
                closeNow();
            } // else the writer closes once the last frame (a refusal, the leave reply) is out
            server.connectionEnded(this);
        }
    }

    private boolean readPreamble(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        int magic = data.readInt();
        if (magic != RegistryProtocol.MAGIC) {
            throw new MalformedMessageException(String.format(
                    "not an Ibis registry client (magic 0x%08x, expected 0x%08x)", magic, RegistryProtocol.MAGIC));
        }
        int version = data.readUnsignedByte();
        startWriter();
        send(preamble());
        if (version != RegistryProtocol.VERSION) {
            LOG.warn("refusing connection from {}: it speaks registry protocol version {}, this server {}",
                    peer, version, RegistryProtocol.VERSION);
            refuse("registry protocol version mismatch: client " + version + ", server " + RegistryProtocol.VERSION);
            return false;
        }
        return true;
    }

    static byte[] preamble() {
        return new byte[] {
            (byte) (RegistryProtocol.MAGIC >>> 24), (byte) (RegistryProtocol.MAGIC >>> 16),
            (byte) (RegistryProtocol.MAGIC >>> 8), (byte) RegistryProtocol.MAGIC, RegistryProtocol.VERSION };
    }

    /** Sends a REFUSED message and closes the connection once it is written. */
    void refuse(String reason) {
        send(new MessageBuilder(RegistryProtocol.REFUSED).writeString(reason).frame());
        closeAfterFlush();
    }

    /** Records that a maybeDead() suspicion started: the member must answer before the deadline. */
    void suspect(long pingTimeoutNanos) {
        if (pingDeadline == 0) {
            pingDeadline = System.nanoTime() + pingTimeoutNanos;
        }
        send(new MessageBuilder(RegistryProtocol.PING).frame());
    }

    private void startWriter() {
        writer = new Thread(this::writeLoop, "ibis-registry-writer " + peer);
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * Queues a frame. Never blocks: if the queue is full the member is too slow to keep up with
     * the pool, so the connection is closed (the reader thread then reports the member dead).
     */
    void send(byte[] frame) {
        if (closing) {
            return;
        }
        if (!outgoing.offer(frame)) {
            LOG.warn("{} ({}) has {} unread registry messages; disconnecting it", member, peer, MAX_QUEUED_FRAMES);
            closeNow();
        }
    }

    /** Closes the connection after everything queued so far has been written. */
    void closeAfterFlush() {
        if (closing) {
            return;
        }
        if (writer == null || !outgoing.offer(CLOSE_MARKER)) {
            closeNow();
            return;
        }
        closeRequestedAt = System.nanoTime();
        closing = true;
    }

    /** When {@link #closeAfterFlush()} was called (System.nanoTime), or 0. */
    long closeRequestedAt() {
        return closeRequestedAt;
    }

    /** True once the socket is closed (by either side's thread). */
    boolean isSocketClosed() {
        return socket.isClosed();
    }

    /** Closes the socket at once; queued frames are dropped. Idempotent. */
    void closeNow() {
        closing = true;
        outgoing.clear();
        outgoing.offer(CLOSE_MARKER);
        try {
            socket.close();
        } catch (IOException e) {
            LOG.debug("closing socket of {}", peer, e);
        }
        server.socketClosed(this);
    }

    private void writeLoop() {
        try (OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 8192)) {
            while (true) {
                byte[] frame = outgoing.take();
                if (frame == CLOSE_MARKER) {
                    out.flush();
                    break;
                }
                out.write(frame);
                if (outgoing.isEmpty()) {
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            if (!closing) {
                LOG.debug("writing to {} failed", peer, e);
            }
        } finally {
            closing = true;
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("closing socket of {}", peer, e);
            }
            server.socketClosed(this);
        }
    }

    @Override
    public String toString() {
        return member == null ? "connection from " + peer : "member " + member + " (" + peer + ")";
    }
}
