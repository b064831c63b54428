package ibis.impl.mpi.registry;

import ibis.impl.mpi.MpiBuffer;
import ibis.impl.mpi.MpiMatch;
import ibis.impl.mpi.MpiProcess;
import ibis.impl.mpi.MpiReceiver;
import ibis.impl.mpi.MpiTags;

import java.io.IOException;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's messages over MPI: the {@link MpiTags#REGISTRY} kind of {@link MpiProcess}, id 0.
 * {@link MpiProcess} hands this channel every message of that kind ({@link #matched}, from whichever
 * thread polls MPI); the registry's receive thread waits for them in
 * {@link MpiProcess#awaitDelivery}, which polls MPI itself, so registry messages move even when no
 * transport thread is in MPI, and backs off to long parks while another thread polls in the
 * background ({@link #matched} unparks it): with {@link MpiProcess#await} it woke a thousand times a
 * second for good, and with 8 ranks on 2 cores those wake-ups took 8% of the processors (an
 * allreduce of GMI's collectives: 800-1000 against 680-790 µs per operation). Sends use
 * {@link MpiProcess#send}, which polls while it waits, so rank 0 can send to itself.
 *
 * <p>One channel per process, ever: the pool over MPI has one member per rank, and a rank that left
 * cannot join again (the pool is closed).
 */
final class MpiRegistryChannel implements RegistryChannel, MpiReceiver {

    private static final Logger LOG = LoggerFactory.getLogger(MpiRegistryChannel.class);

    /** The tag id of every registry message (order matters only per source, which MPI keeps). */
    private static final int ID = 0;

    private static boolean opened;

    private final MpiProcess process;
    private final int tag;
    private final ConcurrentLinkedQueue<Envelope> inbox = new ConcurrentLinkedQueue<>();
    private volatile Thread receiver;
    private volatile boolean woken;
    private boolean closed;

    private MpiRegistryChannel(MpiProcess process) {
        this.process = process;
        this.tag = process.tags().tag(MpiTags.REGISTRY, ID);
    }

    /**
     * Opens this process's channel: initializes MPI through {@link MpiProcess} when nobody did yet.
     *
     * @throws IOException when MPI cannot be used, or this process has opened it before
     */
    static synchronized MpiRegistryChannel open(Properties properties) throws IOException {
        if (opened) {
            throw new IOException("this process has joined the pool over MPI before: the registry over MPI has one"
                    + " member per rank, and a rank cannot join again. For several Ibis instances in one process use"
                    + " the central registry (ibis.registry.implementation=central, ibis.server.address=HOST:PORT)");
        }
        MpiProcess process = MpiProcess.get(properties);
        opened = true;
        MpiRegistryChannel channel = new MpiRegistryChannel(process);
        try {
            process.register(MpiTags.REGISTRY, channel);
        } catch (IOException | RuntimeException e) {
            process.release();
            throw e;
        }
        return channel;
    }

    @Override
    public void matched(MpiMatch match) throws IOException {
        inbox.add(new Envelope(match.source(), match.receiveBytes()));
        Thread waiting = receiver;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    @Override
    public int rank() {
        return process.rank();
    }

    @Override
    public int size() {
        return process.size();
    }

    @Override
    public void send(int destination, byte[] message) throws IOException {
        synchronized (this) {
            if (closed) {
                throw new IOException("the registry over MPI on rank " + rank() + " is closed");
            }
        }
        MpiBuffer buffer = MpiBuffer.allocate(process, Math.max(1, message.length));
        buffer.buffer().put(0, message);
        process.send(destination, tag, buffer, 0, message.length);
    }

    @Override
    public Envelope receive() throws IOException {
        receiver = Thread.currentThread();
        process.awaitDelivery(() -> woken || !inbox.isEmpty(), 0);
        Envelope next = inbox.poll();
        if (next != null) {
            return next;
        }
        woken = false;
        return new Envelope(rank(), new byte[0]);
    }

    @Override
    public void wake() {
        woken = true;
        Thread waiting = receiver;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        process.unregister(MpiTags.REGISTRY, this);
        try {
            process.release();
        } catch (IOException e) {
            LOG.warn("rank {}: releasing MPI after the registry failed: {}", rank(), e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "registry channel of rank " + rank() + " (MPI tag " + tag + ")";
    }
}
