package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;

/** What {@link PingPong} needs of one MPI binding: blocking operations built from its non-blocking ones. */
interface PingPongEndpoint {

    /** A line naming the binding, the MPI library and the thread level it provided. */
    String describe();

    int rank();

    int size();

    /** Sends {@code length} bytes of {@code buffer} from position 0: start, then wait for completion. */
    void send(ByteBuffer buffer, int length, int destination, int tag) throws IOException;

    /** Polls until a message from {@code source} with {@code tag} is there (iprobe); returns its byte count. */
    int probe(int source, int tag) throws IOException;

    /** Receives into {@code buffer} from position 0: start, then test until complete; returns the byte count. */
    int receive(ByteBuffer buffer, int capacity, int source, int tag) throws IOException;

    /**
     * Receives the next message from {@code source} with {@code tag} by a matched probe (improbe until
     * found, then mrecv): returns the byte count.
     */
    int receiveMatched(ByteBuffer buffer, int capacity, int source, int tag) throws IOException;

    /** Starts a receive that no message matches, cancels it, completes it: whether MPI says it was cancelled. */
    boolean cancelUnmatchedReceive(ByteBuffer buffer, int tag) throws IOException;

    /** Finalizes MPI. */
    void finish() throws IOException;
}
