package ibis.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Puts the lines of the ranks of an MPI job back together from the output of Open MPI's
 * {@code mpirun --tag-output}, and writes each whole line once, with {@code "[rank] "} in front (the
 * same form as a local pool's output); mpirun's own lines pass unchanged.
 *
 * <p>Why this is needed: Open MPI gives every rank's standard output a pseudo-terminal, and the
 * kernel passes what a rank writes there on in pieces (even a single {@code write} of one 100-byte
 * line, under load); mpirun forwards each piece as it reads it, so pieces of different ranks'
 * lines interleave. With {@code --tag-output}, mpirun starts every piece, and every line within a
 * piece, with {@code [job,rank]<stdout>:} (or {@code <stderr>:}), which tells whose bytes follow.
 * A physical line of mpirun's output is thus a sequence of tagged pieces; the newline at its end
 * belongs to the last piece's rank. Bytes are copied unchanged (no re-encoding).
 */
final class TaggedOutputPump implements Runnable {

    /** Open MPI 4's tag; the job number is the same for every rank of a job. */
    static final Pattern TAG = Pattern.compile("\\[\\d+,(\\d+)\\]<std(?:out|err|diag)>:");

    private static final int MAX_LINE = 1 << 16;

    private final InputStream source;
    private final OutputStream destination;
    private final Object destinationLock;
    /** Each rank's line so far, not yet ended by a newline. */
    private final Map<Integer, ByteArrayOutputStream> pending = new HashMap<>();

    TaggedOutputPump(InputStream source, OutputStream destination, Object destinationLock) {
        this.source = source;
        this.destination = destination;
        this.destinationLock = destinationLock;
    }

    @Override
    public void run() {
        ByteArrayOutputStream physical = new ByteArrayOutputStream(256);
        byte[] buffer = new byte[8192];
        try (InputStream in = source) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        physical.write(buffer, start, i - start);
                        physicalLine(physical.toByteArray(), true);
                        physical.reset();
                        start = i + 1;
                    }
                }
                physical.write(buffer, start, n - start);
                if (physical.size() >= MAX_LINE) {
                    physicalLine(physical.toByteArray(), false);
                    physical.reset();
                }
            }
        } catch (IOException e) {
            // mpirun is gone; what was read so far is still written below.
        }
        if (physical.size() > 0) {
            physicalLine(physical.toByteArray(), false);
        }
        for (Map.Entry<Integer, ByteArrayOutputStream> e : pending.entrySet()) {
            if (e.getValue().size() > 0) {
                emit(e.getKey(), e.getValue());
            }
        }
    }

    /**
     * Splits one physical line of mpirun's output into its tagged pieces and adds each to its rank's
     * pending line; with {@code ended}, the last piece's rank's line is complete and written.
     */
    void physicalLine(byte[] bytes, boolean ended) {
        // ISO-8859-1 maps every byte to one char and back: positions and bytes stay exact.
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        Matcher m = TAG.matcher(text);
        Integer rank = null;
        int position = 0;
        while (m.find()) {
            piece(rank, bytes, position, m.start());
            rank = Integer.valueOf(m.group(1));
            position = m.end();
        }
        piece(rank, bytes, position, bytes.length);
        if (ended) {
            ByteArrayOutputStream line = pending.get(rank);
            if (line == null) {
                line = new ByteArrayOutputStream();
            }
            emit(rank, line);
        }
    }

    private void piece(Integer rank, byte[] bytes, int from, int to) {
        if (rank == null && from == to) {
            return;
        }
        pending.computeIfAbsent(rank, r -> new ByteArrayOutputStream(256)).write(bytes, from, to - from);
    }

    /** Writes the line with its rank in front (mpirun's own lines, rank null, as they are) and a newline. */
    private void emit(Integer rank, ByteArrayOutputStream line) {
        ByteArrayOutputStream whole = new ByteArrayOutputStream(line.size() + 8);
        if (rank != null) {
            whole.writeBytes(("[" + rank + "] ").getBytes(StandardCharsets.US_ASCII));
        }
        whole.writeBytes(line.toByteArray());
        whole.write('\n');
        synchronized (destinationLock) {
            try {
                whole.writeTo(destination);
                destination.flush();
            } catch (IOException e) {
                // The launcher's own output is closed; nothing sensible is left to do with the line.
            }
        }
        line.reset();
    }
}
