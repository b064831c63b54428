package ibis.impl.mpi.registry;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * N {@link RegistryChannel}s in one JVM, one per simulated rank, joined by queues: what MPI gives
 * the registry (per-pair order, sends that do not wait), without MPI, so the registry's protocol
 * can be tested in milliseconds. The tests under mpirun check the same behaviour over MPI.
 */
final class QueueChannels {

    private final LinkedBlockingQueue<RegistryChannel.Envelope>[] inboxes;

    @SuppressWarnings("unchecked")
    QueueChannels(int size) {
        inboxes = new LinkedBlockingQueue[size];
        for (int i = 0; i < size; i++) {
            inboxes[i] = new LinkedBlockingQueue<>();
        }
    }

    RegistryChannel channel(int rank) {
        return new RegistryChannel() {
            private volatile boolean closed;

            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return inboxes.length;
            }

            @Override
            public void send(int destination, byte[] message) throws IOException {
                if (closed) {
                    throw new IOException("channel of rank " + rank + " is closed");
                }
                inboxes[destination].add(new Envelope(rank, message.clone()));
            }

            @Override
            public Envelope receive() throws IOException {
                try {
                    return inboxes[rank].take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }

            @Override
            public void wake() {
                inboxes[rank].add(new Envelope(rank, new byte[0]));
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }
}
