package ibis.run;

import static org.testng.Assert.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.Test;

/**
 * The output of {@code mpirun --tag-output}, where the pseudo-terminal cut the ranks' lines into
 * pieces that interleave, comes out as whole lines with the rank in front.
 */
public class TaggedOutputPumpTest {

    private static String pump(InputStream in) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new TaggedOutputPump(in, out, new Object()).run();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String pump(String text) {
        return pump(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    public void wholeTaggedLinesGetTheRankInFront() {
        assertEquals(pump("[1,0]<stdout>:hello\n[1,1]<stdout>:world\n"), "[0] hello\n[1] world\n");
    }

    @Test
    public void piecesOfOneRanksLineAreJoined() {
        // As seen from mpirun.openmpi 4.1.4: a 1000-byte line arrived in two pieces.
        assertEquals(pump("[1,1]<stdout>:rank 1 line 28 [1,1]<stdout>:xxxx end\n"), "[1] rank 1 line 28 xxxx end\n");
    }

    @Test
    public void anotherRanksLineInTheMiddleOfAPieceStaysWholeAndSoDoesTheInterruptedOne() {
        String mixed = "[1,0]<stdout>:rank 0 begins [1,1]<stdout>:rank 1 whole\n"
                + "[1,0]<stdout>:and ends\n";
        assertEquals(pump(mixed), "[1] rank 1 whole\n[0] rank 0 begins and ends\n");
    }

    @Test
    public void mpirunsOwnLinesPassUnchangedAndStderrTagsCountToo() {
        assertEquals(pump("mpirun noticed something\n[1,3]<stderr>:oops\n"), "mpirun noticed something\n[3] oops\n");
    }

    @Test
    public void unfinishedLinesAreCompletedAtTheEndAndBytesPassUnchanged() {
        assertEquals(pump("[1,0]<stdout>:héllo [1,2]<stdout>:wörld"), "[0] héllo \n[2] wörld\n");
    }

    @Test
    public void tagsSplitAcrossReadsAreStillRecognised() {
        byte[] text = "[12,0]<stdout>:a[12,1]<stdout>:b\n[12,0]<stdout>:c\n".getBytes(StandardCharsets.UTF_8);
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
        List<String> lines = new ArrayList<>(Arrays.asList(pump(trickle).split("\n")));
        assertEquals(lines, List.of("[1] b", "[0] ac"));
    }
}
