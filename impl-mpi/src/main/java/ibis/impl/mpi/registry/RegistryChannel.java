package ibis.impl.mpi.registry;

import java.io.IOException;

/**
 * How the registry's messages travel among the ranks of the job: over MPI, the messages of the
 * registry's own tag ({@link MpiRegistryChannel}); in unit tests, queues in one JVM.
 *
 * <p>The registry relies on two properties of MPI's point-to-point messages: messages from one
 * rank to another arrive in the order they were sent (non-overtaking), and a send does not wait
 * for the receiver (the coordinator's receive thread sends to its own rank too).
 */
interface RegistryChannel {

    /** This process's rank, 0..size-1. */
    int rank();

    /** The number of ranks of the job. */
    int size();

    /**
     * Sends a message to a rank (this rank included) without waiting for it to be received. May be
     * called by several threads at once; the messages of one thread to one rank keep their order.
     *
     * @throws IOException when the message cannot be sent (the channel is closed, MPI failed)
     */
    void send(int destination, byte[] message) throws IOException;

    /**
     * Waits for the next registry message to this rank, from any rank. Called by one thread.
     *
     * @return the message; an empty message from this rank itself is a {@link #wake()}
     * @throws IOException when the channel is closed or MPI failed
     */
    Envelope receive() throws IOException;

    /** Ends a {@link #receive()} that waits, with an empty message to this rank itself. */
    void wake();

    /** Releases the channel; a later {@link #receive()} or {@link #send} fails. */
    void close();

    /** A received message and the rank that sent it. */
    record Envelope(int source, byte[] message) {
    }
}
