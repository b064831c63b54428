/**
 * The applications of GMI's paper (seed 004, section 3.2), each in GMI style and in MPI style:
 * ASP (a row multicast by invoking {@code put} on the group), LUFact (pivot and column in one
 * multicast {@code put}), MolDyn (each process's forces in one object, added by a combined
 * invocation), LEQ (partial vectors concatenated and differences summed by a combined invocation) and
 * QR (the column of largest norm selected by a combined invocation that also returns it to all),
 * and the same over the Open MPI Java bindings ({@code bcast}, {@code allReduce},
 * {@code allGather(v)}). Inputs depend on a seed only; reduction orders are chosen so that the
 * checksum is bit-identical on any number of processes and equal to the sequential program's.
 *
 * <p>Entry points: {@link ibis.benchmarks.gmi.apps.GmiAppMain} (GMI, one JVM per process in one
 * Ibis pool) and {@code MpiJavaApps} (a resource compiled at run time, under {@code mpirun}); both
 * print {@code APP <name> <style> <processes> <seconds> <checksum>} at process 0.
 * {@link ibis.benchmarks.gmi.apps.AppRuns} starts either on N processes and parses the lines.
 */
package ibis.benchmarks.gmi.apps;
