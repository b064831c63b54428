package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;

import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * Ibis over {@code mpi} between two ranks of an MPI job ({@link MpiIbisJobMain}: a checksummed stream
 * of 1 B to 3 MiB messages, many-to-one from three senders, a multicast to both ranks), the registry
 * being this JVM's central server on loopback. Our glue and Open MPI's bindings (in
 * {@code MpiIbisOpenMpiJavaBindingsTest}), over shared memory and the tcp btl on lo, and the glue
 * under MPICH.
 */
public class MpiIbisUnderMpiTest {

    static String run(List<String> launcher, String backend) throws Exception {
        try (PoolFixture pool = new PoolFixture("mpi")) {
            List<String> options = new ArrayList<>(List.of("-Dibis.server.address=" + pool.serverAddress(),
                    "-Dibis.pool.name=" + pool.poolName(), "-Dibis.pool.size=2", "-Dibis.implementation=mpi",
                    "-Dibis.mpi.backend=" + backend));
            return MpiJob.runPingPong(launcher, MpiIbisJobMain.class, options.toArray(new String[0]));
        }
    }

    @Test(timeOut = 150_000)
    public void glueOverSharedMemory() throws Exception {
        assertEquals(run(MpiJob.openMpi("self,vader"), "glue"), "ibis glue/openmpi");
    }

    @Test(timeOut = 150_000)
    public void withoutAServerTheRegistryOverMpiIsTheDefault() throws Exception {
        // No ibis.server.address and no ibis.registry.implementation (whose built-in default is
        // central): an mpi Ibis under mpirun joins the registry over MPI.
        assertEquals(MpiJob.runPingPong(MpiJob.openMpi("self,vader"), MpiIbisJobMain.class,
                "-Dibis.implementation=mpi", "-Dibis.mpi.backend=glue"), "ibis glue/openmpi");
    }

    @Test(timeOut = 150_000)
    public void glueOverTcpOnLoopback() throws Exception {
        assertEquals(run(MpiJob.openMpi("self,tcp", "--mca", "btl_tcp_if_include", "lo"), "glue"),
                "ibis glue/openmpi");
    }
}
