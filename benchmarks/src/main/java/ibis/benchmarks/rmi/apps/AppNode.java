package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;

/**
 * One rank's part of an application: a remote object (exported when constructed) that holds the
 * rank's data, receives what peers send it, and runs the parallel part.
 */
public abstract class AppNode extends UnicastRemoteObject implements AppPeer {

    private static final long serialVersionUID = 1L;

    /** This process's rank, 0 .. size-1. */
    protected final int rank;
    /** Number of processes. */
    protected final int size;
    /** Values that peers delivered and the main thread has not taken yet. */
    protected final transient Mailbox mailbox = new Mailbox();
    /** {@link System#nanoTime()} when the parallel part started and ended in this process. */
    transient long started;
    transient long finished;

    /**
     * Exports the node.
     *
     * @param rank this process's rank
     * @param size number of processes
     * @throws RemoteException when it cannot be exported
     */
    protected AppNode(int rank, int size) throws RemoteException {
        super();
        this.rank = rank;
        this.size = size;
    }

    @Override
    public void ping() {
        // Only opens the connection.
    }

    /**
     * Receives the peers' stubs, in rank order (at this rank: this node itself).
     *
     * @param peers the nodes of all ranks
     */
    protected abstract void connect(AppPeer[] peers);

    /**
     * The parallel part. At rank 0 it returns when the whole result is at rank 0; at the other
     * ranks when this rank's part is done and sent.
     *
     * @throws Exception when communication fails
     */
    protected abstract void run() throws Exception;

    /**
     * Rank 0, after {@link #run()}: compares the result with an independent sequential
     * computation or a known invariant.
     *
     * @return whether the result is right
     */
    protected abstract boolean verify();

    /** First index of a rank's block when n items are split over p ranks. */
    static int lo(int rank, int n, int p) {
        return (int) ((long) rank * n / p);
    }

    /** The rank whose block holds item i when n items are split over p ranks. */
    static int ownerOf(int i, int n, int p) {
        int r = (int) ((long) i * p / n);
        while (lo(r + 1, n, p) <= i) {
            r++;
        }
        while (lo(r, n, p) > i) {
            r--;
        }
        return r;
    }
}
