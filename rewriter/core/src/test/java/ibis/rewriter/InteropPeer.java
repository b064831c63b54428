package ibis.rewriter;

import ibis.io.BlockInputStream;
import ibis.io.BlockOutputStream;
import ibis.io.Serialization;
import ibis.io.SerializationInput;
import ibis.io.SerializationOutput;
import ibis.testsupport.MemoryPipe;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes and reads the sample graphs ({@code sample.Graphs.all()}, one message per graph) with
 * the ibis serialization, for the round-trip tests in this JVM and as the main class of a child
 * JVM: {@code write FILE} writes them to a file, {@code read FILE} reads a file and compares
 * with its own graphs (exit 0 when equal), {@code roundtrip} does both in memory. The child's
 * sample classes come from its class path, rewritten or not. Prints {@code rewritten=true|false}
 * for sample.Foo so the parent can check which kind of classes the child had, and
 * {@code codec=NAME}, the class of the stream's codec for sample.Level3.
 */
public final class InteropPeer {

    static final int BUFFER = 1 << 16;

    private InteropPeer() {
    }

    /** The sample graphs made by the sample classes of {@code loader}. */
    static Object[] graphs(ClassLoader loader) throws Exception {
        return (Object[]) Class.forName("sample.Graphs", true, loader).getMethod("all").invoke(null);
    }

    /** Writes each graph as one message; the bytes of the block stream. */
    static byte[] write(ClassLoader loader, Object[] graphs) throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader);
        try {
            MemoryPipe pipe = new MemoryPipe();
            BlockOutputStream blocks = BlockOutputStream.create(pipe.sink, BUFFER, ByteOrder.nativeOrder());
            SerializationOutput out = Serialization.createOutput("ibis", blocks);
            for (Object g : graphs) {
                out.writeObject(g);
                out.endMessage();
                blocks.endMessage();
            }
            return pipe.unread();
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** Reads {@code count} messages of one object each, resolving classes through {@code loader}. */
    static Object[] read(ClassLoader loader, byte[] bytes, int count) throws Exception {
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(loader); // the input resolves classes through it
        try {
            BlockInputStream blocks = new BlockInputStream(MemoryPipe.of(bytes, 0, 0).source, BUFFER,
                    ByteOrder.nativeOrder());
            SerializationInput in = Serialization.createInput("ibis", blocks);
            Object[] result = new Object[count];
            for (int i = 0; i < count; i++) {
                result[i] = in.readObject();
                in.endMessage();
                blocks.endMessage();
            }
            return result;
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /**
     * The class name of the stream's codec for class {@code name} of {@code loader} (ibis.io
     * internals, via reflection).
     */
    static String codecClass(ClassLoader loader, String name) throws Exception {
        Class<?> serialClass = Class.forName("ibis.io.SerialClass");
        java.lang.reflect.Method of = serialClass.getDeclaredMethod("of", Class.class);
        of.setAccessible(true);
        java.lang.reflect.Method codec = serialClass.getDeclaredMethod("codec");
        codec.setAccessible(true);
        return codec.invoke(of.invoke(null, Class.forName(name, true, loader))).getClass().getName();
    }

    /** Null when every read graph equals the expected one, else the first difference. */
    static String compare(Object[] expected, Object[] actual) {
        for (int i = 0; i < expected.length; i++) {
            String d = GraphComparison.difference(expected[i], actual[i]);
            if (d != null) {
                return "graph " + i + " (" + expected[i].getClass().getName() + "): " + d;
            }
        }
        return null;
    }

    /** Child JVM entry point; see the class comment. */
    public static void main(String[] args) throws Exception {
        ClassLoader loader = InteropPeer.class.getClassLoader();
        boolean rewritten = ibis.io.Serializable.class.isAssignableFrom(Class.forName("sample.Foo", false, loader));
        System.out.println("rewritten=" + rewritten);
        Object[] graphs = graphs(loader);
        System.out.println("codec=" + codecClass(loader, "sample.Level3"));
        String difference;
        switch (args[0]) {
            case "write":
                Files.write(Paths.get(args[1]), write(loader, graphs));
                difference = null;
                break;
            case "read":
                difference = compare(graphs, read(loader, Files.readAllBytes(Path.of(args[1])), graphs.length));
                break;
            case "roundtrip":
                difference = compare(graphs, read(loader, write(loader, graphs), graphs.length));
                break;
            default:
                throw new IllegalArgumentException("mode: write FILE | read FILE | roundtrip");
        }
        if (difference != null) {
            System.out.println("DIFFERENCE " + difference);
            System.exit(1);
        }
        System.out.println("OK " + graphs.length);
    }
}
