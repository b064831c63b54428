package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;

/** The remote interface of one rank of Water ({@link Water}). */
public interface WaterPeer extends AppPeer {
    /**
     * Delivers the sender's positions for a force evaluation.
     *
     * @param evaluation the force evaluation (0 .. steps)
     * @param from the sender's rank
     * @param positions x, y, z of each of its molecules
     * @throws RemoteException when the call fails
     */
    void putPositions(int evaluation, int from, double[] positions) throws RemoteException;

    /**
     * Delivers the force contributions the sender computed for the receiver's molecules.
     *
     * @param evaluation the force evaluation
     * @param from the sender's rank
     * @param forces x, y, z of the force on each of the receiver's molecules
     * @throws RemoteException when the call fails
     */
    void putForces(int evaluation, int from, double[] forces) throws RemoteException;

    /**
     * Delivers a rank's final state to rank 0.
     *
     * @param from the sender's rank
     * @param state positions, then velocities, then the rank's potential energy
     * @throws RemoteException when the call fails
     */
    void putState(int from, double[] state) throws RemoteException;
}
