package ibis.benchmarks;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * Whether this JVM's JIT is still busy, for warm-ups that must not end while it compiles: on a host
 * whose cores the benchmark's own busy processes fill, the C2 compiler gets little processor time
 * and may still be compiling the message path when a warm-up of fixed length ends, and the timed
 * run then measures that (docs/benchmarks.md). Asks the {@link CompilationMXBean}'s total
 * compilation time; where the JVM does not keep it, the JIT never counts as busy.
 */
public final class JitActivity {

    private final CompilationMXBean bean = ManagementFactory.getCompilationMXBean();
    private final boolean supported = bean != null && bean.isCompilationTimeMonitoringSupported();
    private long compiledMillis = compiledMillis();
    private long lookedAt = System.nanoTime();

    private long compiledMillis() {
        return supported ? bean.getTotalCompilationTime() : 0;
    }

    /**
     * Whether the JIT compiled for more than a twentieth of the (wall-clock) time since the previous
     * call, or since this object was made.
     */
    public boolean busy() {
        long now = System.nanoTime();
        long compiled = compiledMillis();
        boolean busy = (compiled - compiledMillis) * 1_000_000L * 20 > now - lookedAt;
        compiledMillis = compiled;
        lookedAt = now;
        return busy;
    }
}
