package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of Hamming ({@link Hamming}). */
public interface HammingPeer extends AppPeer {
    /**
     * Delivers the next piece of a stream.
     *
     * @param stream 0: this rank's input stream, 1: the final result (at rank 0)
     * @param sequence the piece's number in its stream
     * @param values the values, increasing
     * @param last whether the stream ends after this piece
     * @throws RemoteException when the call fails
     */
    void putChunk(int stream, int sequence, long[] values, boolean last) throws RemoteException;
}
