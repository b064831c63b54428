package ibis.run;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.Map;
import java.util.Optional;

import org.testng.annotations.Test;

/** The rank and size of a process started by mpirun or srun are read from their environment. */
public class ClusterRankTest {

    @Test
    public void openMpiVariablesGiveRankAndSize() {
        Optional<ClusterRank> r = ClusterRank.detect(Map.of("OMPI_COMM_WORLD_RANK", "3",
                "OMPI_COMM_WORLD_SIZE", "8"));
        assertEquals(r.orElseThrow(), new ClusterRank(3, 8, "Open MPI"));
    }

    @Test
    public void pmiVariablesGiveRankAndSize() {
        assertEquals(ClusterRank.detect(Map.of("PMI_RANK", "0", "PMI_SIZE", "2")).orElseThrow(),
                new ClusterRank(0, 2, "PMI"));
    }

    @Test
    public void slurmVariablesGiveRankAndSize() {
        assertEquals(ClusterRank.detect(Map.of("SLURM_PROCID", "5", "SLURM_NTASKS", "6")).orElseThrow(),
                new ClusterRank(5, 6, "Slurm"));
    }

    @Test
    public void openMpiWinsOverSlurmWhenMpirunRunsInsideASlurmJob() {
        ClusterRank r = ClusterRank.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "1",
                "OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4")).orElseThrow();
        assertEquals(r.rank(), 2);
        assertEquals(r.size(), 4);
    }

    @Test
    public void noVariablesOrOnlyHalfAPairMeansNoClusterLauncher() {
        assertFalse(ClusterRank.detect(Map.of()).isPresent());
        assertFalse(ClusterRank.detect(Map.of("PMI_RANK", "1")).isPresent());
        assertFalse(ClusterRank.detect(Map.of("SLURM_NTASKS", "4", "PATH", "/bin")).isPresent());
    }

    @Test
    public void valuesWithSurroundingBlanksAreAccepted() {
        assertEquals(ClusterRank.detect(Map.of("PMI_RANK", " 1 ", "PMI_SIZE", "2\n")).orElseThrow().rank(), 1);
    }

    @Test
    public void nonNumericValueIsRejectedNamingTheVariable() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
                () -> ClusterRank.detect(Map.of("PMI_RANK", "one", "PMI_SIZE", "2")));
        assertTrue(e.getMessage().contains("PMI_RANK"), e.getMessage());
    }

    @Test
    public void rankOutsideTheJobIsRejected() {
        expectThrows(IllegalArgumentException.class,
                () -> ClusterRank.detect(Map.of("PMI_RANK", "2", "PMI_SIZE", "2")));
        expectThrows(IllegalArgumentException.class,
                () -> ClusterRank.detect(Map.of("PMI_RANK", "-1", "PMI_SIZE", "2")));
        expectThrows(IllegalArgumentException.class,
                () -> ClusterRank.detect(Map.of("SLURM_PROCID", "0", "SLURM_NTASKS", "0")));
    }

    @Test
    public void jobPoolNameComesFromTheJobIdentifier() {
        assertEquals(ClusterRank.jobPoolName(Map.of("SLURM_JOB_ID", "42", "SLURM_STEP_ID", "1")).orElseThrow(),
                "slurm-42.1");
        assertEquals(ClusterRank.jobPoolName(Map.of("SLURM_JOB_ID", "42")).orElseThrow(), "slurm-42");
        assertEquals(ClusterRank.jobPoolName(Map.of("PMIX_NAMESPACE", "prterun-x-1@1")).orElseThrow(),
                "pmix-prterun-x-1@1");
        assertEquals(ClusterRank.jobPoolName(Map.of("OMPI_MCA_ess_base_jobid", "77")).orElseThrow(), "ompi-77");
        assertFalse(ClusterRank.jobPoolName(Map.of("PMI_RANK", "0")).isPresent());
    }
}
