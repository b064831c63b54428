package ibis.impl.mpi;

import ibis.ipl.impl.ConnectionEnds;
import ibis.ipl.impl.IncomingConnectionHandler;
import ibis.ipl.impl.MemberIdentifier;
import ibis.ipl.impl.SourceWaitSet;
import ibis.ipl.impl.Transport;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MPI transport of one Ibis: moves a connection's bytes as MPI messages between ranks of one MPI
 * job, over {@link MpiProcess} (MPI initialized once per process, with {@code MPI_THREAD_MULTIPLE}).
 * Several instances may live in one process (the TCK makes several): each has an instance number, the
 * id of its CONTROL tag. Connections are set up with CONTROL messages ({@link MpiRouter}), without a
 * side channel; each end is a {@link MpiByteSink}/{@link MpiByteSource} pair.
 *
 * <p>MPI is fail-stop: a rank that dies ends the job ({@code mpirun} kills the others), so a lost
 * connection is never reported while the job lives; a connection closed by its peer ends with CLOSE.
 */
public final class MpiTransport implements Transport {

    private static final Logger LOG = LoggerFactory.getLogger(MpiTransport.class);

    private final MpiProcess process;
    private final MpiRouter router;
    private final MpiTransportSettings settings;
    private final IncomingConnectionHandler handler;
    private final int instance;
    private final MpiContactData contact;
    private final long job;
    private boolean closed;

    /**
     * Initializes MPI when this is the process' first user, and starts accepting connections.
     *
     * @throws IOException when MPI cannot be used (the message says why)
     */
    public MpiTransport(Properties properties, IncomingConnectionHandler handler) throws IOException {
        this.settings = new MpiTransportSettings(properties);
        this.process = MpiProcess.get(properties);
        this.handler = handler;
        try {
            this.router = MpiRouter.get(process);
            this.instance = router.add(this);
        } catch (IOException | RuntimeException e) {
            process.release();
            throw e;
        }
        this.job = MpiContactData.jobHash(process.backend().name(), process.size());
        this.contact = new MpiContactData(process.rank(), instance, process.size(), job);
        LOG.debug("MPI transport instance {} on rank {} of {}", instance, process.rank(), process.size());
    }

    /** This process' MPI. */
    public MpiProcess process() {
        return process;
    }

    @Override
    public byte[] contactData() {
        return contact.toBytes();
    }

    @Override
    public ConnectionEnds connect(MemberIdentifier target, long timeoutMillis) throws IOException {
        if (!MpiIbisStarter.NICKNAME.equals(target.implementationName())) {
            throw new IOException(target + " runs the '" + target.implementationName() + "' implementation, not mpi");
        }
        MpiContactData peer = MpiContactData.parse(target.implementationData());
        if (peer.job != job || peer.worldSize != process.size()) {
            throw new ConnectException(target + " is in another MPI job (" + peer + "; this is rank " + process.rank()
                    + " of " + process.size() + "): MPI connects ranks of one job only");
        }
        MpiConnection end = new MpiConnection(router, settings, router.newEndId(), peer.rank);
        router.register(end);
        end.awaitReplyBy(Thread.currentThread());
        router.expectReply(end);
        boolean ok = false;
        try {
            router.sendControl(peer.rank, peer.instance, MpiRouter.CONNECT, end.id(), instance, settings.window);
            boolean replied = process.await(() -> end.replyState() != 0,
                    TimeUnit.MILLISECONDS.toNanos(Math.max(1, timeoutMillis)));
            if (!replied) {
                throw new SocketTimeoutException("no reply from " + target + " (rank " + peer.rank + ") within "
                        + timeoutMillis + " ms");
            }
            if (end.replyState() < 0) {
                throw new ConnectException(target + " (rank " + peer.rank + " instance " + peer.instance
                        + ") accepts no connections: it was ended");
            }
            ok = true;
            return new ConnectionEnds(end.sink(), end.source(), end.toString());
        } catch (InterruptedIOException e) {
            throw e;
        } finally {
            end.awaitReplyBy(null);
            if (!ok) {
                router.unregister(end);
            }
        }
    }

    /** A CONNECT for this instance arrived (control thread): set up the end and hand it to the Ibis. */
    void accepted(int rank, int connectorEnd, int connectorInstance, int connectorWindow) throws IOException {
        MpiConnection end = new MpiConnection(router, settings, router.newEndId(), rank);
        end.peer(connectorEnd, connectorWindow);
        router.register(end);
        router.sendControl(rank, connectorInstance, MpiRouter.ACCEPT, connectorEnd, end.id(), settings.window);
        handler.accept(end.sink(), end.source(), end.toString());
    }

    @Override
    public SourceWaitSet newSourceWaitSet() {
        return new MpiSourceWaitSet(process);
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        router.remove(instance);
        process.release();
    }

    @Override
    public String toString() {
        return "mpi transport rank " + process.rank() + " instance " + instance;
    }
}
