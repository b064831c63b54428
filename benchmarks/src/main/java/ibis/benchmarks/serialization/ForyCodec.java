package ibis.benchmarks.serialization;

import ibis.benchmarks.serialization.shapes.Ints32;
import ibis.benchmarks.serialization.shapes.Ints4Null2;
import ibis.benchmarks.serialization.shapes.Tree;

import java.util.Arrays;

import org.apache.fory.Fory;
import org.apache.fory.config.Language;
import org.apache.fory.memory.MemoryBuffer;

/**
 * Apache Fory (Java mode) in its fast configuration: class registration required and every class
 * registered, its JIT-generated serializers (the default), fixed-length numbers (faster here than
 * its default of compressed ints and longs; {@code -Dibis.bench.fory.compressed=true} measures
 * that), one {@link Fory} instance and reused heap {@link MemoryBuffer}s for writing and reading.
 * Reference tracking as chosen (Fory's default is off: then shared objects are duplicated and
 * cycles are not supported; no workload has any). Each read first copies the message into the
 * reused input buffer, as a transport delivers it (see {@link Codec#PEER_TRANSPORT_COPY}).
 */
final class ForyCodec extends Codec {

    private final Fory fory;
    private final MemoryBuffer output = MemoryBuffer.newHeapBuffer(1 << 20);
    private MemoryBuffer input;
    private byte[] message;     // the steady-state message, as it arrives from the wire
    private byte[] inputBuffer; // the array under the reused input buffer

    /** {@code references}: Fory's reference tracking on (shared objects and cycles kept) or off (its default). */
    ForyCodec(boolean references) {
        boolean compressed = Boolean.parseBoolean(System.getProperty("ibis.bench.fory.compressed", "false"));
        fory = Fory.builder().withLanguage(Language.JAVA).requireClassRegistration(true)
                .withNumberCompressed(compressed).withRefTracking(references).build();
        for (Class<?> c : new Class<?>[] {Tree.class, Ints32.class, Ints4Null2.class}) {
            fory.register(c);
        }
    }

    @Override
    void write(Object value) {
        output.writerIndex(0);
        fory.serialize(output, value);
    }

    @Override
    byte[] message(Object value) {
        write(value);
        return Arrays.copyOf(output.getHeapMemory(), output.writerIndex());
    }

    @Override
    void prepareRead(Object value) {
        message = message(value);
        inputBuffer = message.clone();
        input = MemoryBuffer.fromByteArray(inputBuffer);
    }

    @Override
    Object read() {
        if (PEER_TRANSPORT_COPY) {
            System.arraycopy(message, 0, inputBuffer, 0, message.length); // the transport's delivery
        }
        input.readerIndex(0);
        return fory.deserialize(input);
    }
}
