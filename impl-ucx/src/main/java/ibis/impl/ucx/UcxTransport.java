package ibis.impl.ucx;

import ibis.io.config.InvalidPropertyException;
import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.ImplPropertyTable;
import ibis.ipl.impl.ImplSettings;
import ibis.ipl.impl.IncomingConnectionHandler;
import ibis.ipl.impl.ListenAddress;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.SourceWaitSet;
import ibis.ipl.impl.Transport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import jdk.net.ExtendedSocketOptions;

/**
 * The UCX transport of one Ibis: one UCP worker ({@link UcxWorker}, one context and worker in
 * thread mode multi) for all connections, and a side channel, a TCP server socket with an accept
 * thread, where connections are set up ({@link UcxHello}) and whose per-connection sockets then
 * only tell whether the peer is alive. Data moves as UCX tagged messages
 * ({@link UcxByteSink}, {@link UcxByteSource}); see impl-ucx/README.md.
 */
public final class UcxTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(UcxTransport.class);

    /** Keep-alive of the side channel: first probe after this much silence, then every interval, this many. */
    private static final int KEEPALIVE_IDLE_SECONDS = 10;
    private static final int KEEPALIVE_INTERVAL_SECONDS = 5;
    private static final int KEEPALIVE_PROBES = 3;

    /** Most side-channel set-ups in progress at once; more incoming sockets are closed at once. */
    private static final int MAX_SETUPS = 32;

    /** Numbers the transports of this JVM (for thread names). */
    private static final AtomicInteger TRANSPORTS = new AtomicInteger();

    /** What the ends of a connection are made with. */
    record Settings(int window, int messageMax, int closeTimeoutMillis, int errorMode) {
    }

    private final UcxWorker worker;
    private final byte[] workerAddress;
    private final Settings settings;
    private final long setupTimeoutMillis;
    private final ServerSocketChannel server;
    private final InetSocketAddress listenAddress;
    private final byte[] contactData;
    private final IncomingConnectionHandler handler;
    private final Thread acceptThread;
    private final ThreadPoolExecutor setups;
    private final AtomicInteger lastId = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();

    /**
     * Loads the native library, creates the worker, binds the side channel and starts accepting.
     *
     * @param properties the Ibis's properties (see {@link UcxPropertyTable})
     * @param handler where accepted connections go
     * @throws IOException when the native library or UCX is not usable, or the socket cannot be bound
     */
    public UcxTransport(Properties properties, IncomingConnectionHandler handler) throws IOException {
        this.handler = handler;
        InetAddress address;
        long spinMicros;
        long sliceMillis;
        String rndvThreshold;
        try {
            int window = UcxPropertyTable.WINDOW_PROPERTY.get(properties);
            int messageMax = UcxPropertyTable.MESSAGE_MAX_PROPERTY.get(properties);
            long closeTimeout = UcxPropertyTable.CLOSE_TIMEOUT_PROPERTY.get(properties);
            int errorMode = UcxPropertyTable.errorMode(properties);
            this.settings = new Settings(window, messageMax, (int) closeTimeout, errorMode);
            spinMicros = ImplPropertyTable.RECEIVE_SPIN_MICROS_PROPERTY.get(properties);
            sliceMillis = UcxPropertyTable.WAIT_SLICE_PROPERTY.get(properties);
            rndvThreshold = UcxPropertyTable.rndvThreshold(properties);
            this.setupTimeoutMillis = Math.max(1, ImplPropertyTable.HANDSHAKE_TIMEOUT_PROPERTY.get(properties));
            address = ListenAddress.choose(UcxPropertyTable.ADDRESS_PROPERTY.get(properties), properties);
        } catch (InvalidPropertyException e) {
            throw ImplSettings.configurationError(e);
        }
        NativeLibrary.load(); // says why when it cannot (NativeLibrary.UnavailableException)
        String name = Integer.toString(TRANSPORTS.incrementAndGet());
        this.worker = new UcxWorker(UcxNative.workerCreate(
                "auto".equals(rndvThreshold) ? null : rndvThreshold), spinMicros, name, sliceMillis);
        ServerSocketChannel s = null;
        try {
            this.workerAddress = UcxNative.workerAddress(worker.handle);
            s = ServerSocketChannel.open();
            try {
                s.bind(new InetSocketAddress(address, 0), 256);
            } catch (IOException e) {
                throw new IOException("cannot listen on " + address.getHostAddress() + ": " + e.getMessage(), e);
            }
        } catch (IOException | RuntimeException e) {
            if (s != null) {
                s.close();
            }
            worker.release();
            throw e;
        }
        this.server = s;
        int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
        this.listenAddress = new InetSocketAddress(address, port);
        this.contactData = new UcxContactData(workerAddress, listenAddress).toBytes();
        AtomicInteger setupThreads = new AtomicInteger();
        this.setups = new ThreadPoolExecutor(0, MAX_SETUPS, 10, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "ibis-ucx-setup-" + port + "-" + setupThreads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.acceptThread = new Thread(this::acceptLoop, "ibis-ucx-accept-" + port);
        acceptThread.setDaemon(true);
        acceptThread.start();
        LOG.debug("UCX {} worker ready; side channel on {}", UcxNative.version(), listenAddress);
    }

    /** The side channel's listening address. */
    public InetSocketAddress listenAddress() {
        return listenAddress;
    }

    /** The worker (for tests). */
    UcxWorker worker() {
        return worker;
    }

    /** A new local connection id: never 0 (unsigned, wraps after 2^32 - 1 connections). */
    private int newId() {
        while (true) {
            int id = lastId.incrementAndGet();
            if (id != 0) {
                return id;
            }
        }
    }

    private void acceptLoop() {
        while (closed.get() == 0) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed.get() != 0) {
                    return;
                }
                LOG.warn("accepting a connection on {} failed: {}", listenAddress, e.toString());
                pauseAfterFailure();
                continue;
            }
            try {
                setups.execute(() -> accepted(channel));
            } catch (RejectedExecutionException e) {
                LOG.info("dropping the connection from {}: {} set-ups are in progress already", remote(channel),
                        MAX_SETUPS);
                closeQuietly(channel);
            }
        }
    }

    /** The accepting half of the set-up (on a set-up thread); hands the connection to the handler. */
    private void accepted(SocketChannel channel) {
        String peer = "ucx " + remote(channel);
        if (!worker.tryRetain()) {
            closeQuietly(channel);
            return;
        }
        long endpoint = 0;
        boolean handedOver = false;
        try {
            configureSide(channel);
            channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, setupTimeoutMillis));
            UcxHello.Request request = UcxHello.readRequest(channel.socket().getInputStream());
            int id = newId();
            if (request.errorMode() != settings.errorMode()) {
                // UCX refuses endpoints of different error modes: tell the peer ours, and stop.
                UcxHello.writeReply(channel.socket().getOutputStream(),
                        new UcxHello.Reply(id, settings.window(), settings.errorMode()));
                throw new IOException("it uses " + UcxPropertyTable.ERROR_MODE + "="
                        + UcxHello.errorModeName(request.errorMode()) + ", this member "
                        + UcxHello.errorModeName(settings.errorMode()));
            }
            endpoint = UcxNative.endpointCreate(worker.handle, request.workerAddress(), settings.errorMode());
            UcxHello.writeReply(channel.socket().getOutputStream(),
                    new UcxHello.Reply(id, settings.window(), settings.errorMode()));
            channel.configureBlocking(false);
            boolean loopback = Arrays.equals(request.workerAddress(), workerAddress);
            UcxConnection c = new UcxConnection(worker, endpoint, id, request.connectionId(), request.window(),
                    loopback, channel, peer, settings);
            handedOver = true;
            try {
                handler.accept(c.sink(), c.source(), peer);
            } catch (RuntimeException e) {
                LOG.warn("the connection from {} was not taken: {}", peer, e.toString());
                c.sink().close();
                c.source().close();
            }
        } catch (IOException | RuntimeException e) {
            LOG.info("dropping the connection from {}: {}", peer, e.toString());
        } finally {
            if (!handedOver) {
                if (endpoint != 0) {
                    UcxNative.endpointClose(worker.handle, endpoint, true, 0);
                }
                closeQuietly(channel);
                worker.release();
            }
        }
    }

    @Override
    public byte[] contactData() {
        return contactData.clone();
    }

    @Override
    public ConnectionEnds connect(MemberIdentifier target, long timeoutMillis) throws IOException {
        if (!UcxIbisStarter.NICKNAME.equals(target.implementationName())) {
            throw new IOException(target + " runs the '" + target.implementationName() + "' implementation, not "
                    + UcxIbisStarter.NICKNAME);
        }
        UcxContactData contact = UcxContactData.parse(target.implementationData());
        InetSocketAddress address = contact.sideAddress();
        if (!worker.tryRetain()) {
            throw new IOException("the ucx transport is closed");
        }
        long deadline = System.nanoTime() + Math.max(1, timeoutMillis) * 1_000_000L;
        SocketChannel channel = null;
        long endpoint = 0;
        boolean done = false;
        try {
            channel = SocketChannel.open();
            configureSide(channel);
            channel.socket().connect(address, (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeoutMillis)));
            if (channel.socket().getLocalSocketAddress().equals(channel.socket().getRemoteSocketAddress())) {
                // TCP simultaneous open with itself: nobody listens on that (ephemeral) port.
                throw new ConnectException("connection refused by " + address + " (nothing listens there)");
            }
            int id = newId();
            UcxHello.writeRequest(channel.socket().getOutputStream(),
                    new UcxHello.Request(id, settings.window(), settings.errorMode(), workerAddress));
            long leftMillis = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0) {
                throw new SocketTimeoutException("no UCX set-up reply from " + address + " in time");
            }
            channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMillis));
            UcxHello.Reply reply = UcxHello.readReply(channel.socket().getInputStream());
            if (reply.errorMode() != settings.errorMode()) {
                throw new IOException(target + " uses " + UcxPropertyTable.ERROR_MODE + "="
                        + UcxHello.errorModeName(reply.errorMode()) + ", this member "
                        + UcxHello.errorModeName(settings.errorMode()) + ": UCX needs the same on both sides");
            }
            byte[] peerWorker = contact.workerAddress();
            endpoint = UcxNative.endpointCreate(worker.handle, peerWorker, settings.errorMode());
            channel.configureBlocking(false);
            String peer = "ucx " + address.getAddress().getHostAddress() + ":" + address.getPort();
            UcxConnection c = new UcxConnection(worker, endpoint, id, reply.connectionId(), reply.window(),
                    Arrays.equals(peerWorker, workerAddress), channel, peer, settings);
            done = true;
            return new ConnectionEnds(c.sink(), c.source(), peer);
        } finally {
            if (!done) {
                if (endpoint != 0) {
                    UcxNative.endpointClose(worker.handle, endpoint, true, 0);
                }
                if (channel != null) {
                    closeQuietly(channel);
                }
                worker.release();
            }
        }
    }

    /**
     * A set in which a many-to-one port's {@code receive()} waits for all its connections in its own
     * thread, on this transport's worker.
     */
    @Override
    public SourceWaitSet newSourceWaitSet() throws IOException {
        return new UcxSourceWaitSet(worker);
    }

    /**
     * Yes: every thread waits on the one worker, where a reader per connection would be woken by
     * the thread in the event descriptor for most of its messages (a second wake-up each).
     */
    @Override
    public boolean sharedUpcallReading() {
        return true;
    }

    /**
     * Options of a side-channel socket: no delay for the set-up messages, and keep-alive probes
     * after {@value #KEEPALIVE_IDLE_SECONDS} s of silence (a connection that carries its data
     * through UCX is silent here), so that a peer host that vanished without closing its sockets
     * is noticed within about half a minute, where the operating system's defaults take hours.
     */
    private static void configureSide(SocketChannel channel) throws IOException {
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
        try {
            channel.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, KEEPALIVE_IDLE_SECONDS);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, KEEPALIVE_INTERVAL_SECONDS);
            channel.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, KEEPALIVE_PROBES);
        } catch (UnsupportedOperationException e) {
            LOG.debug("keep-alive timing cannot be set here: {}", e.toString());
        }
    }

    /** Keeps a persistent accept failure (for example too many open files) from spinning. */
    private static void pauseAfterFailure() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String remote(SocketChannel channel) {
        try {
            return String.valueOf(channel.getRemoteAddress());
        } catch (IOException e) {
            return "?";
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // dropping it anyway
        }
    }

    /**
     * Stops accepting; the worker ends when every connection handed out has been closed too (their
     * owners close them).
     */
    @Override
    public void close() throws IOException {
        if (!closed.compareAndSet(0, 1)) {
            return;
        }
        try {
            server.close();
        } finally {
            setups.shutdownNow(); // a set-up still reading a silent peer's request stops (its channel closes)
            worker.release();
        }
    }

    @Override
    public String toString() {
        return "ucx transport on " + listenAddress;
    }
}
