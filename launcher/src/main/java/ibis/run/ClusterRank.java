package ibis.run;

import java.util.Map;
import java.util.Optional;

/**
 * This process's rank and the job's size as told by a cluster launcher ({@code mpirun}, {@code srun})
 * through its environment, so that the same {@code ibis-run} command starts exactly one member per
 * launched process on a cluster.
 *
 * <p>Variables are checked in this order, the first complete pair wins: Open MPI
 * ({@code OMPI_COMM_WORLD_RANK}/{@code OMPI_COMM_WORLD_SIZE}), PMI as set by MPICH, Intel MPI and
 * Hydra ({@code PMI_RANK}/{@code PMI_SIZE}), Slurm ({@code SLURM_PROCID}/{@code SLURM_NTASKS}).
 *
 * @param rank this process's index, 0..size-1
 * @param size the number of processes the cluster launcher started
 * @param source which launcher the values came from, for messages ("Open MPI", "PMI", "Slurm")
 */
public record ClusterRank(int rank, int size, String source) {

    private static final String[][] VARIABLES = {
        {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "Open MPI"},
        {"PMI_RANK", "PMI_SIZE", "PMI"},
        {"SLURM_PROCID", "SLURM_NTASKS", "Slurm"},
    };

    /**
     * Reads the rank and size from the given environment.
     *
     * @return empty when no launcher's variables are set (only one of a pair counts as not set)
     * @throws IllegalArgumentException when a launcher's variables are set but are not numbers, or the
     *         rank is not within 0..size-1
     */
    public static Optional<ClusterRank> detect(Map<String, String> environment) {
        for (String[] names : VARIABLES) {
            String rankText = environment.get(names[0]);
            String sizeText = environment.get(names[1]);
            if (rankText == null || sizeText == null) {
                continue;
            }
            int rank = parse(names[0], rankText);
            int size = parse(names[1], sizeText);
            if (size < 1 || rank < 0 || rank >= size) {
                throw new IllegalArgumentException(names[2] + " environment gives rank " + rank
                        + " of size " + size + " (" + names[0] + ", " + names[1] + ")");
            }
            return Optional.of(new ClusterRank(rank, size, names[2]));
        }
        return Optional.empty();
    }

    /**
     * A pool name that every process of the same cluster job computes identically, from the job
     * identifiers the launchers export, or empty when none is set.
     */
    public static Optional<String> jobPoolName(Map<String, String> environment) {
        String slurmJob = environment.get("SLURM_JOB_ID");
        if (slurmJob != null && !slurmJob.isBlank()) {
            String step = environment.get("SLURM_STEP_ID");
            return Optional.of("slurm-" + slurmJob.trim() + (step == null ? "" : "." + step.trim()));
        }
        String pmixNamespace = environment.get("PMIX_NAMESPACE");
        if (pmixNamespace != null && !pmixNamespace.isBlank()) {
            return Optional.of("pmix-" + pmixNamespace.trim());
        }
        String ompiJob = environment.get("OMPI_MCA_ess_base_jobid");
        if (ompiJob != null && !ompiJob.isBlank()) {
            return Optional.of("ompi-" + ompiJob.trim());
        }
        return Optional.empty();
    }

    private static int parse(String name, String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a number: '" + text + "'", e);
        }
    }
}
