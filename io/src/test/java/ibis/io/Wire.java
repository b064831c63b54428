package ibis.io;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteOrder;

/** A block stream pair over a {@link MemoryPipe}, with serialization streams on top. */
final class Wire {
    final MemoryPipe pipe;
    final BlockOutputStream blocksOut;
    final BlockInputStream blocksIn;
    /** Serialization streams see the block streams only through their interfaces (not as block streams). */
    boolean opaque;

    Wire(int bufferSize, int chunk, long seed) {
        this(bufferSize, chunk, seed, ByteOrder.nativeOrder());
    }

    Wire(int bufferSize, int chunk, long seed, ByteOrder order) {
        pipe = new MemoryPipe(chunk, seed);
        blocksOut = BlockOutputStream.create(pipe.sink, bufferSize, order);
        blocksIn = new BlockInputStream(pipe.source, bufferSize, order);
    }

    SerializationOutput output(String name) throws IOException {
        return Serialization.createOutput(name, opaque ? behind(DataOutput.class, blocksOut) : blocksOut);
    }

    SerializationInput input(String name) throws IOException {
        return Serialization.createInput(name, opaque ? behind(DataInput.class, blocksIn) : blocksIn);
    }

    /** What a port does at the end of a sent message. */
    void endMessage(SerializationOutput out) throws IOException {
        out.endMessage();
        blocksOut.endMessage();
    }

    /** What a port does at the end of a received message. */
    void endMessage(SerializationInput in) throws IOException {
        in.endMessage();
        blocksIn.endMessage();
    }

    /** {@code target} behind a proxy that implements only {@code type}. */
    static <T> T behind(Class<T> type, T target) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }
}
