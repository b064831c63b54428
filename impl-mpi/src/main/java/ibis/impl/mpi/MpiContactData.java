package ibis.impl.mpi;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;

/**
 * The contact data an MPI Ibis publishes in its member identifier. Coded form (big-endian):
 *
 * <table>
 * <caption>contact data</caption>
 * <tr><th>field</th><th>size</th><th>meaning</th></tr>
 * <tr><td>version</td><td>1</td><td>1</td></tr>
 * <tr><td>rank</td><td>4</td><td>rank in {@code MPI_COMM_WORLD}</td></tr>
 * <tr><td>instance</td><td>4</td><td>the transport instance within that process (several Ibis
 * instances per process are told apart by the CONTROL tag's id)</td></tr>
 * <tr><td>world size</td><td>4</td><td>size of {@code MPI_COMM_WORLD}</td></tr>
 * <tr><td>job</td><td>8</td><td>a hash of the job's identity (launcher, job id, MPI flavour), so that
 * a member of another MPI job is refused instead of being sent messages</td></tr>
 * </table>
 */
final class MpiContactData {

    private static final byte VERSION = 1;
    private static final int LENGTH = 1 + 4 + 4 + 4 + 8;

    final int rank;
    final int instance;
    final int worldSize;
    final long job;

    MpiContactData(int rank, int instance, int worldSize, long job) {
        this.rank = rank;
        this.instance = instance;
        this.worldSize = worldSize;
        this.job = job;
    }

    byte[] toBytes() {
        return ByteBuffer.allocate(LENGTH).put(VERSION).putInt(rank).putInt(instance).putInt(worldSize).putLong(job)
                .array();
    }

    /**
     * Parses the coded form.
     *
     * @throws IOException when the bytes are not MPI contact data of a known version
     */
    static MpiContactData parse(byte[] data) throws IOException {
        if (data == null || data.length != LENGTH) {
            throw new StreamCorruptedException("MPI contact data of " + (data == null ? 0 : data.length)
                    + " bytes, expected " + LENGTH);
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        if (b.get() != VERSION) {
            throw new StreamCorruptedException("MPI contact data of unknown version " + data[0]);
        }
        MpiContactData c = new MpiContactData(b.getInt(), b.getInt(), b.getInt(), b.getLong());
        if (c.rank < 0 || c.instance < 0 || c.worldSize <= 0 || c.rank >= c.worldSize) {
            throw new StreamCorruptedException("malformed MPI contact data: " + c);
        }
        return c;
    }

    /**
     * A hash of this process' MPI job: the launcher's job identity from the environment (Open MPI's
     * {@code OMPI_MCA_ess_base_jobid}, PMIx's {@code PMIX_NAMESPACE}, Slurm's {@code SLURM_JOB_ID}
     * and step), else (a singleton, or a launcher that says nothing) this process id for a world of 1,
     * an empty identity otherwise; plus the MPI library's name.
     */
    static long jobHash(String backendName, int worldSize) {
        StringBuilder id = new StringBuilder(backendName.substring(backendName.indexOf('/') + 1));
        boolean found = false;
        for (String name : new String[] {"OMPI_MCA_ess_base_jobid", "PMIX_NAMESPACE", "SLURM_JOB_ID",
            "SLURM_STEP_ID"}) {
            String value = System.getenv(name);
            if (value != null) {
                id.append('|').append(name).append('=').append(value);
                found = true;
            }
        }
        if (!found && worldSize == 1) {
            id.append("|singleton=").append(ProcessHandle.current().pid());
        }
        long h = 1125899906842597L;
        for (int i = 0; i < id.length(); i++) {
            h = 31 * h + id.charAt(i);
        }
        return h;
    }

    @Override
    public String toString() {
        return "rank " + rank + " instance " + instance + " of a world of " + worldSize;
    }
}
