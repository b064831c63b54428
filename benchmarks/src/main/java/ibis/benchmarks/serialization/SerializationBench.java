package ibis.benchmarks.serialization;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The JMH benchmarks of the serialization suite: {@link #write} and {@link #read} of one message
 * holding the workload's value, for one column. JMH runs each (column, workload, operation) in its
 * own JVM, so every serializer is compiled for itself alone. {@link SerializationSuite} runs them
 * and writes the report; they can also be run with JMH's own command line.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SerializationBench {

    /** The column (serializer): see {@link Column}. */
    @Param({"ibis-rewritten", "ibis-runtime", "jdk", "kryo", "fory", "kryo-refs", "fory-refs"})
    public String column;

    /** The workload: see {@link Workload}. */
    @Param({"bytes", "ints", "doubles", "tree1023", "ints32", "ints4null2", "tree15"})
    public String workload;

    private Codec codec;
    private Object value;

    /** Creates the codec and the value, and checks one round trip. */
    @Setup
    public void setUp() throws IOException, ClassNotFoundException {
        Column c = Column.of(column);
        Workload w = Workload.of(workload);
        value = w.create(c.plainClasses);
        if ((c == Column.IBIS_REWRITTEN || c == Column.IBIS_RUNTIME) && w.hasClasses()
                && ibis.io.Serializable.class.isAssignableFrom(value.getClass()) == c.plainClasses) {
            throw new IllegalStateException(column + " must use " + (c.plainClasses ? "classes that were not rewritten"
                    : "rewritten classes") + ", but " + value.getClass().getName() + " is "
                    + (c.plainClasses ? "rewritten" : "not rewritten") + ": check the build (benchmarks/pom.xml)");
        }
        codec = c.open();
        codec.prepareRead(value);
        Object back = codec.read();
        if (!Workload.sameValue(value, back)) {
            throw new IllegalStateException(column + " does not round-trip " + workload);
        }
    }

    /** Writes one message. */
    @Benchmark
    public void write() throws IOException {
        codec.write(value);
    }

    /** Reads one message. */
    @Benchmark
    public Object read() throws IOException, ClassNotFoundException {
        return codec.read();
    }
}
