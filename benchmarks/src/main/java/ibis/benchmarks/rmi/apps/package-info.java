/**
 * The small parallel applications of the rmi benchmark suite (Hamming, Paraffins and SOR from the
 * KaRMI benchmark collection; ASP, Radix, FFT and Water from the Manta RMI paper), written against
 * plain {@code java.rmi}: they run unchanged on the JDK's RMI and, after {@code ibisc --java-rmi},
 * on Ibis RMI. Every process is one rank of a run started by {@link ibis.benchmarks.rmi.apps.AppMain};
 * ranks talk only through remote objects found in an RMI registry.
 */
package ibis.benchmarks.rmi.apps;
