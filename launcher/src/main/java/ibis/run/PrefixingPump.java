package ibis.run;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies one member's output stream to the launcher's stream, line by line, with the member's
 * number in front of every line ("{@code [2] }"), or with no prefix at all. Each line, prefix
 * included, is written with one {@code write} and a flush, under a lock shared by all pumps of one
 * destination, so lines of different members never interleave mid-line, and a line passed on to a
 * pipe (for example to {@code mpirun}) arrives in one piece however the member wrote it (a JVM's
 * standard output stream writes a {@code printf} in pieces of 128 bytes or less). Bytes are copied
 * unchanged (no re-encoding); a last line without a newline gets one.
 */
final class PrefixingPump implements Runnable {

    private static final int MAX_LINE = 1 << 16;

    private final InputStream source;
    private final OutputStream destination;
    private final Object destinationLock;
    private final byte[] prefix;

    PrefixingPump(InputStream source, OutputStream destination, Object destinationLock, String prefix) {
        this.source = source;
        this.destination = destination;
        this.destinationLock = destinationLock;
        this.prefix = prefix.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void run() {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        line.writeBytes(prefix);
        byte[] buffer = new byte[8192];
        try (InputStream in = source) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, start, i + 1 - start);
                        emit(line);
                        start = i + 1;
                    }
                }
                line.write(buffer, start, n - start);
                // A very long line without a newline is passed on in pieces rather than held.
                if (line.size() - prefix.length >= MAX_LINE) {
                    line.write('\n');
                    emit(line);
                }
            }
        } catch (IOException e) {
            // The member is gone (killed); whatever was read so far is still written below.
        }
        if (line.size() > prefix.length) {
            line.write('\n');
            emit(line);
        }
    }

    private void emit(ByteArrayOutputStream line) {
        synchronized (destinationLock) {
            try {
                line.writeTo(destination);
                destination.flush();
            } catch (IOException e) {
                // The launcher's own output is closed; nothing sensible is left to do with the line.
            }
        }
        line.reset();
        line.writeBytes(prefix);
    }
}
