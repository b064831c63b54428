import ibis.benchmarks.gmi.MpiCollectivesPeer;

import java.nio.DoubleBuffer;

import mpi.MPI;

/**
 * The gmi suite's MPI peer: allreduce and broadcast of doubles through the Open MPI Java bindings,
 * in place, on a direct buffer (the bindings pass a direct buffer's memory to MPI without a copy).
 * Compiled by the suite at run time against the bindings' classes; loaded by GmiRank.
 */
public final class MpiJavaCollectives implements MpiCollectivesPeer {

    private DoubleBuffer buffer;
    private int count;

    @Override
    public void init() throws Exception {
        if (!MPI.isInitialized()) {
            MPI.InitThread(new String[0], MPI.THREAD_MULTIPLE);
        }
    }

    @Override
    public int rank() throws Exception {
        return MPI.COMM_WORLD.getRank();
    }

    @Override
    public void load(double[] data) throws Exception {
        count = data.length;
        buffer = MPI.newDoubleBuffer(count);
        buffer.clear();
        buffer.put(data);
        buffer.clear();
    }

    @Override
    public double[] contents() {
        double[] a = new double[count];
        buffer.clear();
        buffer.get(a);
        buffer.clear();
        return a;
    }

    @Override
    public void allreduce() throws Exception {
        MPI.COMM_WORLD.allReduce(buffer, count, MPI.DOUBLE, MPI.SUM);
    }

    @Override
    public void broadcast() throws Exception {
        MPI.COMM_WORLD.bcast(buffer, count, MPI.DOUBLE, 0);
    }

    @Override
    public void barrier() throws Exception {
        MPI.COMM_WORLD.barrier();
    }

    @Override
    public void finish(boolean ibisOwnsMpi) throws Exception {
        if (!ibisOwnsMpi && !MPI.isFinalized()) {
            MPI.Finalize();
        }
    }
}
