/**
 * The {@code serialization} benchmark suite (BENCHMARKS.md): Ibis serialization, on rewritten
 * classes and on run-time generated serializers, against JDK serialization, Kryo 5 and Apache Fory,
 * to and from memory, with JMH as the harness. Run by {@code bin/ibis-bench serialization [--quick]}.
 */
package ibis.benchmarks.serialization;
