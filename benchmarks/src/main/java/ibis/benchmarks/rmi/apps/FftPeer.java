package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of FFT ({@link Fft}). */
public interface FftPeer extends AppPeer {
    /**
     * Delivers a sub-block for a transpose (or, step 3, the final rows for rank 0).
     *
     * @param step the transpose (0, 1, 2; 3 is the gather)
     * @param from the sender's rank
     * @param block interleaved complex values, sender's rows by receiver's columns
     * @throws RemoteException when the call fails
     */
    void putBlock(int step, int from, double[] block) throws RemoteException;
}
