import ibis.benchmarks.gmi.apps.MessagePassing;
import ibis.benchmarks.gmi.apps.MpiStyleMain;

import mpi.MPI;

/**
 * The MPI-style applications of ibis.benchmarks.gmi.apps over the Open MPI Java bindings: every
 * operation is one call of MPI.COMM_WORLD on a Java array. AppRuns compiles this file at run time
 * against the bindings' classes (they are not in every build) and starts it under mpirun.
 * Arguments: name:n:steps:seed per application; rank 0 prints one APP line per application.
 */
public final class MpiJavaApps implements MessagePassing {

    public static void main(String[] args) throws Exception {
        String[] rest = MPI.Init(args);
        MpiStyleMain.run(new MpiJavaApps(), rest);
        MPI.Finalize();
    }

    @Override
    public int rank() throws Exception {
        return MPI.COMM_WORLD.getRank();
    }

    @Override
    public int size() throws Exception {
        return MPI.COMM_WORLD.getSize();
    }

    @Override
    public void broadcast(int[] buffer, int root) throws Exception {
        MPI.COMM_WORLD.bcast(buffer, buffer.length, MPI.INT, root);
    }

    @Override
    public void broadcast(double[] buffer, int root) throws Exception {
        MPI.COMM_WORLD.bcast(buffer, buffer.length, MPI.DOUBLE, root);
    }

    @Override
    public void allReduceSum(double[] buffer) throws Exception {
        MPI.COMM_WORLD.allReduce(buffer, buffer.length, MPI.DOUBLE, MPI.SUM);
    }

    @Override
    public void allReduceSum(long[] buffer) throws Exception {
        MPI.COMM_WORLD.allReduce(buffer, buffer.length, MPI.LONG, MPI.SUM);
    }

    @Override
    public void allGather(double[] part, double[] all) throws Exception {
        MPI.COMM_WORLD.allGather(part, part.length, MPI.DOUBLE, all, part.length, MPI.DOUBLE);
    }

    @Override
    public void allGatherv(double[] part, double[] all, int[] counts, int[] displacements) throws Exception {
        MPI.COMM_WORLD.allGatherv(part, part.length, MPI.DOUBLE, all, counts, displacements, MPI.DOUBLE);
    }

    @Override
    public void barrier() throws Exception {
        MPI.COMM_WORLD.barrier();
    }
}
