/**
 * The small parallel applications of the rmi benchmark suite (Hamming, Paraffins and SOR from the
 * KaRMI benchmark collection, "More Efficient Serialization and RMI for Java"; ASP, Radix, FFT and
 * Water from the Manta RMI paper, "Efficient Java RMI for Parallel Programming"), written against
 * plain {@code java.rmi}: they run unchanged on the JDK's RMI and, after {@code ibisc --java-rmi},
 * on Ibis RMI.
 *
 * <p>Every process is one rank, started as
 * {@code java ibis.benchmarks.rmi.apps.AppMain <app>[,<app>...]|all <rank> <size> <registryPort> test|quick|full};
 * rank 0 prints one {@code RESULT <app> procs=<n> verified=<true|false> millis=<ms>} line per
 * application. Ranks talk only through remote objects found in the RMI registry that rank 0
 * creates.
 *
 * <ul>
 * <li>JDK RMI: nothing else is needed; the registry port is a TCP port on 127.0.0.1.</li>
 * <li>Ibis RMI: the classes rewritten with {@code ibisc --java-rmi} come first on the class path,
 * ibis-rmi and an IPL implementation after them, and every JVM gets
 * {@code -Dibis.server.address=<registry server> -Dibis.pool.name=<pool>} (and usually
 * {@code -Dibis.implementation=tcp}). The registry port only numbers one of the pool's RMI
 * registries; the host passed to {@code getRegistry} is ignored.</li>
 * </ul>
 */
package ibis.benchmarks.rmi.apps;
