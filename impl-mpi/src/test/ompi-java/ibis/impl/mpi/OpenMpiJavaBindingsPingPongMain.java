package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;

import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * The ping-pong of {@link PingPong} through Open MPI's Java bindings ({@code mpi.*}, over Debian's
 * {@code libmpi_java.so}); started by {@code mpirun}. Compiled only when scripts/fetch-ompi-java
 * fetched the bindings' classes (profile ompi-java-bindings of impl-mpi/pom.xml).
 */
public final class OpenMpiJavaBindingsPingPongMain implements PingPongEndpoint {

    private static final String[] LEVELS = {"SINGLE", "FUNNELED", "SERIALIZED", "MULTIPLE"};

    private final int provided;

    private OpenMpiJavaBindingsPingPongMain(String[] args) throws MPIException {
        provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
    }

    /** Runs the ping-pong; exits with 0 when it passed. */
    public static void main(String[] args) throws MPIException {
        PingPong.runAndExit(new OpenMpiJavaBindingsPingPongMain(args));
    }

    @Override
    public String describe() {
        String level = provided == MPI.THREAD_MULTIPLE ? "MULTIPLE" : "level " + provided;
        try {
            return "bindings mpi=openmpi thread=" + level + " (" + firstLine(MPI.getLibVersion()) + ")";
        } catch (RuntimeException e) {
            return "bindings mpi=openmpi thread=" + level;
        }
    }

    @Override
    public int rank() {
        try {
            return MPI.COMM_WORLD.getRank();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int size() {
        try {
            return MPI.COMM_WORLD.getSize();
        } catch (MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void send(ByteBuffer buffer, int length, int destination, int tag) throws IOException {
        try {
            MPI.COMM_WORLD.iSend(buffer, length, MPI.BYTE, destination, tag).waitFor();
        } catch (MPIException e) {
            throw new IOException("iSend", e);
        }
    }

    @Override
    public int probe(int source, int tag) throws IOException {
        try {
            Status status;
            while ((status = MPI.COMM_WORLD.iProbe(source, tag)) == null) {
                Thread.onSpinWait();
            }
            check(status, source, tag);
            return status.getCount(MPI.BYTE);
        } catch (MPIException e) {
            throw new IOException("iProbe", e);
        }
    }

    @Override
    public int receive(ByteBuffer buffer, int capacity, int source, int tag) throws IOException {
        try {
            Request request = MPI.COMM_WORLD.iRecv(buffer, capacity, MPI.BYTE, source, tag);
            Status status;
            while ((status = request.testStatus()) == null) {
                Thread.onSpinWait();
            }
            check(status, source, tag);
            return status.getCount(MPI.BYTE);
        } catch (MPIException e) {
            throw new IOException("iRecv", e);
        }
    }

    @Override
    public int receiveMatched(ByteBuffer buffer, int capacity, int source, int tag) throws IOException {
        try {
            Message message = new Message();
            Status probed;
            while ((probed = message.imProbe(source, tag, MPI.COMM_WORLD)) == null) {
                Thread.onSpinWait();
            }
            check(probed, source, tag);
            Status received = message.imRecv(buffer, capacity, MPI.BYTE).waitStatus();
            check(received, source, tag);
            if (received.getCount(MPI.BYTE) != probed.getCount(MPI.BYTE)) {
                throw new IOException("imProbe said " + probed.getCount(MPI.BYTE) + " bytes, imRecv received "
                        + received.getCount(MPI.BYTE));
            }
            return received.getCount(MPI.BYTE);
        } catch (MPIException e) {
            throw new IOException("imProbe/imRecv", e);
        }
    }

    @Override
    public boolean cancelUnmatchedReceive(ByteBuffer buffer, int tag) throws IOException {
        try {
            Request request = MPI.COMM_WORLD.iRecv(buffer, buffer.capacity(), MPI.BYTE, MPI.ANY_SOURCE, tag);
            request.cancel();
            return request.waitStatus().isCancelled();
        } catch (MPIException e) {
            throw new IOException("cancel", e);
        }
    }

    @Override
    public void finish() throws IOException {
        try {
            MPI.Finalize();
        } catch (MPIException e) {
            throw new IOException("Finalize", e);
        }
    }

    private static void check(Status status, int source, int tag) throws IOException {
        if (status.getSource() != source || status.getTag() != tag) {
            throw new IOException("status says source " + status.getSource() + " tag " + status.getTag()
                    + ", expected " + source + " " + tag);
        }
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return (newline < 0 ? text : text.substring(0, newline)).strip();
    }
}
