package ibis.benchmarks.serialization;

import ibis.benchmarks.serialization.shapes.Ints32;
import ibis.benchmarks.serialization.shapes.Ints4Null2;
import ibis.benchmarks.serialization.shapes.Tree;

import java.util.Arrays;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.unsafe.UnsafeInput;
import com.esotericsoftware.kryo.unsafe.UnsafeOutput;

/**
 * Kryo 5 in its fast configuration: every class registered (registration required), one
 * {@link Kryo} instance, and a reused {@link UnsafeOutput}/{@link UnsafeInput} pair (Kryo's fastest
 * in-memory buffers) over byte arrays, with fixed-length numbers for buffers and fields alike (so
 * primitive arrays are copied in bulk; faster here than Kryo's default variable-length encoding,
 * which {@code -Dibis.bench.kryo.varint=true} measures).
 * {@code writeClassAndObject}/{@code readClassAndObject} per message, as a receiver that does not
 * know the type needs. Reference tracking as chosen (Kryo's default is off: then, unlike Ibis and
 * the JDK, shared objects are duplicated and cycles are not supported; no workload has any).
 * Each read first copies the message into the reused input buffer, as a transport delivers it
 * (see {@link Codec#PEER_TRANSPORT_COPY}).
 */
final class KryoCodec extends Codec {

    private final Kryo kryo = new Kryo();
    private final UnsafeOutput output = new UnsafeOutput(1 << 20, -1);
    private final UnsafeInput input = new UnsafeInput();
    private byte[] message;     // the steady-state message, as it arrives from the wire
    private byte[] inputBuffer; // Kryo's reused input buffer

    /** {@code references}: Kryo's reference tracking on (shared objects and cycles kept) or off (its default). */
    KryoCodec(boolean references) {
        kryo.setReferences(references);
        boolean varint = Boolean.getBoolean("ibis.bench.kryo.varint");
        output.setVariableLengthEncoding(varint);
        input.setVariableLengthEncoding(varint);
        FieldSerializer.FieldSerializerConfig fields = new FieldSerializer.FieldSerializerConfig();
        fields.setVariableLengthEncoding(varint);
        kryo.setDefaultSerializer(new SerializerFactory.FieldSerializerFactory(fields));
        kryo.setRegistrationRequired(true);
        for (Class<?> c : new Class<?>[] {byte[].class, int[].class, double[].class, Tree.class, Ints32.class,
            Ints4Null2.class}) {
            kryo.register(c);
        }
    }

    @Override
    void write(Object value) {
        output.setPosition(0);
        kryo.writeClassAndObject(output, value);
    }

    @Override
    byte[] message(Object value) {
        write(value);
        return Arrays.copyOf(output.getBuffer(), output.position());
    }

    @Override
    void prepareRead(Object value) {
        message = message(value);
        inputBuffer = message.clone();
        input.setBuffer(inputBuffer);
    }

    @Override
    Object read() {
        if (PEER_TRANSPORT_COPY) {
            System.arraycopy(message, 0, inputBuffer, 0, message.length); // the transport's delivery
        }
        input.setPosition(0);
        return kryo.readClassAndObject(input);
    }
}
