package ibis.benchmarks.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import ibis.benchmarks.ipl.Series;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import org.testng.annotations.Test;

/** The rmi report's tables: the targets with met/missed from the paired ratios, the pair tables, the apps. */
public class RmiReportTest {

    private static Series of(double... values) {
        Series s = new Series();
        for (double v : values) {
            s.add(v);
        }
        return s;
    }

    @Test(timeOut = 10_000)
    public void theSummaryMarksEachTargetMetOrMissedFromTheMeasuredRatios() {
        RmiReport r = new RmiReport(List.of("# header"));
        // java.rmi 60 µs vs Ibis 10 µs: 6x (met); Ibis 10 µs vs IPL 5 µs upcalls: 2.0 (missed), 9 µs explicit: 1.11
        // (met); tree 20 MB/s vs 60 MB/s: 3x (missed).
        r.targets(new RmiReport.Targets(of(60, 60, 60), of(10, 10, 10), of(5, 5, 5), of(9, 9, 9), of(20, 20, 20),
                of(60, 60, 60)));
        List<String> lines = r.lines();
        assertTrue(lines.contains("| null-RMI latency, java.rmi / Ibis RMI | 6.00 | ≥ 5 | met |"), lines.toString());
        assertTrue(lines.contains(
                "| Ibis null-RMI / IPL 1-byte round trip (upcalls, as RMI uses) | 2.00 | ≤ 1.3 | missed |"),
                lines.toString());
        assertTrue(lines.contains("| Ibis null-RMI / IPL 1-byte round trip (explicit receive) | 1.11 | ≤ 1.3 | met |"),
                lines.toString());
        assertTrue(lines.contains("| tree(1023) throughput, Ibis RMI / java.rmi | 3.00 | ≥ 5 | missed |"),
                lines.toString());
    }

    @Test(timeOut = 10_000)
    public void overUcxNullRmiMustBeTenTimesFasterThanJavaRmi() {
        RmiReport r = new RmiReport(List.of("# header"));
        // 60 µs vs 10 µs: 6x, enough over tcp (≥ 5) but not over ucx (≥ 10); 60 vs 5: 12x.
        r.targets(new RmiReport.Targets(of(60), of(10), of(5), of(9), new Series(), new Series(), "ucx"));
        assertTrue(r.lines().contains("| null-RMI latency over ucx, java.rmi / Ibis RMI | 6.00 | ≥ 10 | missed |"),
                r.lines().toString());
        r = new RmiReport(List.of("# header"));
        r.targets(new RmiReport.Targets(of(60), of(5), of(4), of(4), new Series(), new Series(), "ucx"));
        assertTrue(r.lines().contains("| null-RMI latency over ucx, java.rmi / Ibis RMI | 12.00 | ≥ 10 | met |"),
                r.lines().toString());
    }

    @Test(timeOut = 10_000)
    public void anUnmeasuredTargetSaysSo() {
        RmiReport r = new RmiReport(List.of("# header"));
        r.targets(new RmiReport.Targets(of(60), of(10), of(5), of(9), new Series(), new Series()));
        assertTrue(r.lines().contains("| tree(1023) throughput, Ibis RMI / java.rmi | — | ≥ 5 | not measured |"),
                r.lines().toString());
    }

    @Test(timeOut = 10_000)
    public void pairTablesShowMediansRangesAndTheSpeedUpInTheRightDirection() {
        RmiReport r = new RmiReport(List.of("# header"));
        r.pairTable("Latency", "µs", true,
                List.of(new RmiReport.Pair("void ping()", "—", of(30, 40, 50), of(10, 20, 25))));
        r.pairTable("Rate", "MB/s", false, List.of(new RmiReport.Pair("void send(x)", "tree(1023)", of(50, 50),
                of(100, 200))));
        List<String> lines = r.lines();
        // Paired ratios 3, 2, 2 -> median 2 (latency: java.rmi / Ibis); 2, 4 -> 3 (rate: Ibis / java.rmi).
        assertTrue(lines.contains("| void ping() | — | 40.0 | 30.0–50.0 | 20.0 | 10.0–25.0 | 2.00 |"),
                lines.toString());
        assertTrue(lines.contains("| void send(x) | tree(1023) | 50.0 | 50.0–50.0 | 150 | 100–200 | 3.00 |"),
                lines.toString());
        assertTrue(lines.contains("## Latency (µs, lower is better)"), lines.toString());
        assertTrue(lines.contains("## Rate (MB/s, higher is better)"), lines.toString());
    }

    @Test(timeOut = 10_000)
    public void theAppsSectionListsRunsAndFailuresOrWhyThereAreNone() {
        RmiReport r = new RmiReport(List.of("# header"));
        r.apps(List.of(new RmiReport.AppRow("sor", 2, of(400, 500), of(100, 250), null),
                new RmiReport.AppRow("fft", 4, of(300), new Series(), "Ibis RMI: rank 0 printed no RESULT line")),
                null);
        List<String> lines = r.lines();
        assertTrue(lines.contains("| sor | 2 | 450 | 400–500 | 175 | 100–250 | 3.00 | verified |"), lines.toString());
        assertTrue(lines.contains(
                "| fft | 4 | 300 | 300–300 | — | — | — | FAILED: Ibis RMI: rank 0 printed no RESULT line |"),
                lines.toString());
        RmiReport none = new RmiReport(List.of("# header"));
        none.apps(List.of(), "class `X` is missing");
        assertTrue(none.lines().contains("Apps not available: class `X` is missing."), none.lines().toString());
        assertEquals(none.lines().stream().filter(l -> l.startsWith("| ")).count(), 0L);
    }

    @Test(timeOut = 30_000)
    public void theLatencyPlotIsAPngWithTheCurvesDrawn() throws Exception {
        LatencyPlot plot = new LatencyPlot("echo", "bytes", "µs");
        plot.add("java.rmi int[]", 200, 25);
        assertFalse(plot.hasCurves(), "one point is no curve");
        plot.add("java.rmi int[]", 80_000, 370);
        plot.add("Ibis RMI int[]", 200, 30);
        plot.add("Ibis RMI int[]", 80_000, 85);
        assertTrue(plot.hasCurves());
        Path file = Files.createTempFile("rmi-plot", ".png");
        try {
            plot.write(file);
            BufferedImage image = ImageIO.read(file.toFile());
            assertEquals(image.getWidth(), LatencyPlot.WIDTH);
            assertEquals(image.getHeight(), LatencyPlot.HEIGHT);
            int red = 0;
            int blue = 0;
            for (int x = 0; x < image.getWidth(); x++) {
                for (int y = 0; y < image.getHeight(); y++) {
                    int rgb = image.getRGB(x, y) & 0xFFFFFF;
                    red += rgb == 0xC0392B ? 1 : 0;
                    blue += rgb == 0x2471A3 ? 1 : 0;
                }
            }
            assertTrue(red > 50 && blue > 50, "both curves are drawn in their colours: " + red + ", " + blue);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
