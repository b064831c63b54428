package ibis.run;

import static org.testng.Assert.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/** Member output reaches the launcher's stream line by line, each line tagged with the member. */
public class PrefixingPumpTest {

    private static String pump(InputStream in, String prefix) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PrefixingPump(in, out, new Object(), prefix).run();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    public void everyLineGetsThePrefix() {
        String text = "first\nsecond\n\nfourth\n";
        assertEquals(pump(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "[3] "),
                "[3] first\n[3] second\n[3] \n[3] fourth\n");
    }

    @Test
    public void lastLineWithoutNewlineIsCompleted() {
        assertEquals(pump(new ByteArrayInputStream("a\nb".getBytes(StandardCharsets.UTF_8)), "[0] "),
                "[0] a\n[0] b\n");
    }

    @Test
    public void linesSplitAcrossReadsAreJoinedAndNonAsciiBytesPassUnchanged() {
        byte[] text = "héllo wörld\nzwei\n".getBytes(StandardCharsets.UTF_8);
        // Hands out one byte per read, so every line (and the multi-byte characters) is split.
        InputStream trickle = new InputStream() {
            private int next;

            @Override
            public int read() {
                return next < text.length ? text[next++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (next >= text.length) {
                    return -1;
                }
                b[off] = text[next++];
                return 1;
            }
        };
        assertEquals(pump(trickle, "[1] "), "[1] héllo wörld\n[1] zwei\n");
    }

    @Test
    public void readErrorStillPassesOnWhatWasRead() {
        InputStream failing = new InputStream() {
            private final byte[] data = "partial".getBytes(StandardCharsets.UTF_8);
            private int next;

            @Override
            public int read() throws IOException {
                if (next < data.length) {
                    return data[next++];
                }
                throw new IOException("stream closed");
            }
        };
        assertEquals(pump(failing, "[2] "), "[2] partial\n");
    }

    @Test
    public void eachLineWithItsPrefixIsOneWriteEvenWhenTheMemberWroteItInPieces() {
        byte[] text = "[1,0]-like text written in pieces\nnext\n".getBytes(StandardCharsets.UTF_8);
        InputStream pieces = new InputStream() {
            private int next;

            @Override
            public int read() {
                return next < text.length ? text[next++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (next >= text.length) {
                    return -1;
                }
                int n = Math.min(3, text.length - next);
                System.arraycopy(text, next, b, off, n);
                next += n;
                return n;
            }
        };
        List<String> writes = new ArrayList<>();
        OutputStream recorder = new OutputStream() {
            @Override
            public void write(int b) {
                writes.add(String.valueOf((char) b));
            }

            @Override
            public void write(byte[] b, int off, int len) {
                writes.add(new String(b, off, len, StandardCharsets.UTF_8));
            }
        };
        new PrefixingPump(pieces, recorder, new Object(), "").run();
        assertEquals(writes, List.of("[1,0]-like text written in pieces\n", "next\n"));
        writes.clear();
        new PrefixingPump(new ByteArrayInputStream("x\n".getBytes(StandardCharsets.UTF_8)), recorder, new Object(),
                "[4] ").run();
        assertEquals(writes, List.of("[4] x\n"));
    }
}
