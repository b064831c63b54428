package ibis.impl.mpi;

import java.util.concurrent.locks.LockSupport;

/**
 * One end of a connection between two transport instances: a {@link MpiByteSink} towards the peer and
 * a {@link MpiByteSource} from it. Its id (unique in this process) is the tag id the peer sends DATA
 * and CREDIT to; the peer's end id is where this end sends them. The connector learns the peer's id
 * from the ACCEPT ({@link #replied}).
 */
final class MpiConnection {

    private final MpiRouter router;
    private final int id;
    private final int peerRank;
    private final MpiByteSink sink;
    private final MpiByteSource source;
    private volatile boolean sinkClosed;
    private volatile boolean sourceClosed;

    // The reply to a connect, written by the polling thread.
    private volatile int replyState;
    private volatile Thread connector;

    MpiConnection(MpiRouter router, MpiTransportSettings settings, int id, int peerRank) {
        this.router = router;
        this.id = id;
        this.peerRank = peerRank;
        this.sink = new MpiByteSink(this, router.process(), router.keeper(), settings);
        this.source = new MpiByteSource(this, router.process(), settings);
    }

    int id() {
        return id;
    }

    int peerRank() {
        return peerRank;
    }

    MpiByteSink sink() {
        return sink;
    }

    MpiByteSource source() {
        return source;
    }

    MpiRouter router() {
        return router;
    }

    /** Sets the peer's end and window: this end may send from now on. */
    void peer(int peerId, int peerWindow) {
        sink.peer(peerId, peerWindow);
        source.peer(peerId);
    }

    /** The connector waits for the reply of its CONNECT. */
    void awaitReplyBy(Thread thread) {
        connector = thread;
    }

    /** The ACCEPT (with the acceptor's end id and window) or REFUSE arrived. */
    void replied(boolean accepted, int peerId, int peerWindow) {
        if (accepted) {
            peer(peerId, peerWindow);
        }
        replyState = accepted ? 1 : -1;
        Thread waiter = connector;
        if (waiter != null) {
            LockSupport.unpark(waiter);
        }
    }

    /** 0 while waiting for the reply of a connect, 1 when accepted, -1 when refused. */
    int replyState() {
        return replyState;
    }

    void sinkClosed() {
        sinkClosed = true;
        if (sourceClosed) {
            router.unregister(this);
        }
    }

    void sourceClosed() {
        sourceClosed = true;
        if (sinkClosed) {
            router.unregister(this);
        }
    }

    @Override
    public String toString() {
        return "mpi rank " + peerRank + " (end " + id + ")";
    }
}
