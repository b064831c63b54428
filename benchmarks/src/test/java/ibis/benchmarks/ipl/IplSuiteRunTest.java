package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import javax.imageio.ImageIO;

import org.testng.annotations.Test;

/**
 * Runs the whole ipl suite with tiny sizes (a real peer JVM, every workload, the checksums of
 * every stream) and checks the report it writes and its plots. Nothing here looks at how fast anything was.
 */
public class IplSuiteRunTest {

    @Test(timeOut = 180_000)
    public void theSuiteRunsEveryWorkloadAndWritesACompleteReport() throws Exception {
        Path dir = Files.createTempDirectory("ipl-bench-test");
        try {
            IplSuite suite = new IplSuite(new IplSuite.Settings("tiny", 1, 20, 2, 5, 20, 2, 0), dir,
                    "IplSuiteRunTest");
            assertEquals(suite.run(), 0);
            Path report = suite.reportFile();
            assertTrue(report.getFileName().toString().matches("ipl-.*-tiny\\.md"), report.toString());
            String text = Files.readString(report, StandardCharsets.UTF_8);
            assertFalse(text.contains("NaN"), text);
            for (String row : List.of("raw Java socket, blocking", "raw Java NIO SocketChannel, blocking",
                    "Ibis tcp, explicit receive", "Ibis tcp, upcalls",
                    "| byte[] | Ibis tcp, writeArray/readArray | byte |",
                    "| byte[] | Ibis tcp, writeByteBuffer/readByteBuffer, direct buffers | data |",
                    "| int[] | Ibis tcp, writeObject/readObject | object.ibis |",
                    "| double[] | Ibis tcp, writeObject/readObject | object.sun |",
                    "| tree(1023) | raw Java socket, ObjectOutputStream (reset per message) | JDK |",
                    "| tree(1023) | Ibis tcp, writeObject/readObject | object.ibis |",
                    "| tree(1023) | Ibis tcp, writeObject/readObject | object.sun |",
                    "| multicast to 1 receive port | data |", "| multicast to 8 receive ports | data |",
                    "| many-to-one from 1 send port | data |", "| many-to-one from 8 send ports | data |",
                    "| 1 | ", "| 1048576 | ", "## Targets", "Command: `IplSuiteRunTest`")) {
                assertTrue(text.contains(row), "the report lacks '" + row + "':\n" + text);
            }
            long dataRows = text.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| ---")).count();
            // The group table: 4 multicast and 4 many-to-one figures, and the raw peers (2 references,
            // 3 raw multicast, 1 + 2 × 3 raw many-to-one).
            assertEquals(dataRows, 3 + 4 + 6 + 4 + 4 + 3 + 8 + 12 + 1 + SizedMessages.SIZES.length,
                    "header rows plus one row per figure (one per message size in the size table):\n" + text);
            String base = report.getFileName().toString().replace(".md", "");
            for (String plot : List.of(base + "-size-latency.png", base + "-size-throughput.png")) {
                assertTrue(text.contains("](" + plot + ")"), "the report does not show " + plot);
                BufferedImage image = ImageIO.read(dir.resolve(plot).toFile());
                assertTrue(image != null && image.getWidth() > 0, plot + " is not a readable image");
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
