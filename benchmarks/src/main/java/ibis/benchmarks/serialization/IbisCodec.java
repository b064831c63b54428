package ibis.benchmarks.serialization;

import ibis.io.BlockInputStream;
import ibis.io.BlockOutputStream;
import ibis.io.Serialization;
import ibis.io.SerializationInput;
import ibis.io.SerializationOutput;

import java.io.IOException;

/**
 * The ibis serialization as a port uses it: a {@link SerializationOutput} over a
 * {@link BlockOutputStream} (64 KiB blocks, the ports' default {@code ibis.message.buffer.size})
 * over a {@link MemorySink}, and a {@link SerializationInput} over a {@link BlockInputStream} over a
 * {@link ReplaySource}. Per message: {@code writeObject}, then the serialization's and the block
 * stream's {@code endMessage}, as a send port's {@code finish()} does; reading mirrors it. Whether
 * the rewritten or the run-time generated serializers run depends only on the classes of the
 * objects (see {@link Workload#create}).
 */
final class IbisCodec extends Codec {

    /** Block buffer size of the ports by default. */
    static final int BUFFER_SIZE = 65536;

    private final BlockOutputStream blockOut;
    private final SerializationOutput out;
    private BlockInputStream blockIn;
    private SerializationInput in;

    IbisCodec() throws IOException {
        blockOut = new BlockOutputStream(new MemorySink(false), BUFFER_SIZE);
        out = Serialization.createOutput("ibis", blockOut);
    }

    @Override
    void write(Object value) throws IOException {
        writeMessage(out, blockOut, value);
    }

    private static void writeMessage(SerializationOutput out, BlockOutputStream blockOut, Object value)
            throws IOException {
        out.writeObject(value);
        out.endMessage();
        blockOut.endMessage();
    }

    /** {prologue, steady-state message}: the first message (with type definitions) and the second. */
    private static byte[][] record(Object value) throws IOException {
        MemorySink sink = new MemorySink(true);
        BlockOutputStream bo = new BlockOutputStream(sink, BUFFER_SIZE);
        SerializationOutput so = Serialization.createOutput("ibis", bo);
        writeMessage(so, bo, value);
        byte[] first = sink.take();
        writeMessage(so, bo, value);
        return new byte[][] {first, sink.take()};
    }

    @Override
    byte[] message(Object value) throws IOException {
        return record(value)[1];
    }

    @Override
    void prepareRead(Object value) throws IOException, ClassNotFoundException {
        byte[][] m = record(value);
        blockIn = new BlockInputStream(new ReplaySource(m[0], m[1]), BUFFER_SIZE, blockOut.order());
        in = Serialization.createInput("ibis", blockIn);
        read(); // the prologue: type definitions
    }

    @Override
    Object read() throws IOException, ClassNotFoundException {
        Object result = in.readObject();
        in.endMessage();
        blockIn.endMessage();
        return result;
    }
}
