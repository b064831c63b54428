package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** The ping-pong of {@link PingPong} through our JNI glue ({@link MpiNative}); started by {@code mpirun}. */
public final class GluePingPongMain implements PingPongEndpoint {

    private static final String[] LEVELS = {"SINGLE", "FUNNELED", "SERIALIZED", "MULTIPLE"};

    private final int provided;
    /** One request slot and one status record, reused by every operation. */
    private final ByteBuffer slots = ByteBuffer.allocateDirect(64).order(ByteOrder.nativeOrder());
    private final long request;
    private final long status;
    private final long message;
    private final ByteBuffer statusView;
    private int sends;
    private int receives;

    private GluePingPongMain() throws IOException {
        NativeLibrary.load();
        provided = MpiNative.init(MpiNative.THREAD_MULTIPLE);
        long base = MpiNative.address(slots);
        request = base;
        message = base + 16;
        status = base + 32;
        statusView = slots.duplicate().position(32).slice().order(ByteOrder.nativeOrder());
        if (MpiNative.requestSize() > 16 || MpiNative.messageSize() > 16) {
            throw new IOException("MPI_Request has " + MpiNative.requestSize() + " bytes, MPI_Message "
                    + MpiNative.messageSize());
        }
    }

    /** Runs the ping-pong; exits with 0 when it passed. */
    public static void main(String[] args) throws IOException {
        PingPong.runAndExit(new GluePingPongMain());
    }

    @Override
    public String describe() {
        return "glue mpi=" + MpiNative.flavour() + " thread=" + LEVELS[provided] + " (" + MpiNative.version() + ")";
    }

    @Override
    public int rank() {
        return MpiNative.rank();
    }

    @Override
    public int size() {
        return MpiNative.size();
    }

    @Override
    public void send(ByteBuffer buffer, int length, int destination, int tag) throws IOException {
        // Every other send through isendTest, which completes small messages at once (large ones later).
        if (sends++ % 2 == 0) {
            ok("isend", MpiNative.isend(MpiNative.address(buffer), length, destination, tag, request));
            ok("await", MpiNative.await(request, status));
        } else if (ok("isendTest", MpiNative.isendTest(MpiNative.address(buffer), length, destination, tag,
                request)) == 0) {
            ok("await", MpiNative.await(request, status));
        }
    }

    @Override
    public int probe(int source, int tag) throws IOException {
        int found;
        while ((found = MpiNative.iprobe(source, tag, status)) == 0) {
            Thread.onSpinWait();
        }
        ok("iprobe", found);
        checkStatus(source, tag);
        return statusView.getInt(MpiNative.STATUS_COUNT);
    }

    @Override
    public int receive(ByteBuffer buffer, int capacity, int source, int tag) throws IOException {
        ok("irecv", MpiNative.irecv(MpiNative.address(buffer), capacity, source, tag, request));
        int done;
        if (receives++ % 2 == 0) {
            while ((done = MpiNative.test(request, status)) == 0) {
                Thread.onSpinWait();
            }
            ok("test", done);
        } else {
            // Every other receive waits with testSpin: its status must be stored as test's is.
            while ((done = MpiNative.testSpin(request, status, 8)) == 0) {
                Thread.onSpinWait();
            }
            ok("testSpin", done);
        }
        checkStatus(source, tag);
        return statusView.getInt(MpiNative.STATUS_COUNT);
    }

    @Override
    public int receiveMatched(ByteBuffer buffer, int capacity, int source, int tag) throws IOException {
        int found;
        while ((found = MpiNative.improbe(source, tag, message, status)) == 0) {
            Thread.onSpinWait();
        }
        ok("improbe", found);
        checkStatus(source, tag);
        int probed = statusView.getInt(MpiNative.STATUS_COUNT);
        ok("mrecv", MpiNative.mrecv(MpiNative.address(buffer), capacity, message, status));
        checkStatus(source, tag);
        int received = statusView.getInt(MpiNative.STATUS_COUNT);
        if (received != probed) {
            throw new IOException("improbe said " + probed + " bytes, mrecv received " + received);
        }
        return received;
    }

    @Override
    public boolean cancelUnmatchedReceive(ByteBuffer buffer, int tag) throws IOException {
        ok("irecv", MpiNative.irecv(MpiNative.address(buffer), buffer.capacity(), MpiNative.ANY_SOURCE, tag, request));
        ok("cancel", MpiNative.cancel(request));
        ok("await", MpiNative.await(request, status));
        return statusView.getInt(MpiNative.STATUS_CANCELLED) == 1;
    }

    @Override
    public void finish() throws IOException {
        ok("finalizeMpi", MpiNative.finalizeMpi());
    }

    private void checkStatus(int source, int tag) throws IOException {
        int from = statusView.getInt(MpiNative.STATUS_SOURCE);
        int with = statusView.getInt(MpiNative.STATUS_TAG);
        if (from != source || with != tag) {
            throw new IOException("status says source " + from + " tag " + with + ", expected " + source + " " + tag);
        }
    }

    private static int ok(String call, int code) throws IOException {
        if (code < 0) {
            throw new IOException(call + " failed: " + MpiNative.errorString(code));
        }
        return code;
    }
}
