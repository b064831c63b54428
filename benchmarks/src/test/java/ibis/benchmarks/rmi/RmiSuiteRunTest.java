package ibis.benchmarks.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.testng.annotations.Test;

/**
 * Runs the whole rmi suite with tiny sizes (real server, client, star and IPL peer JVMs on both
 * sides, every kind of workload, each run checked by the clients) and checks the report it
 * writes. Nothing here looks at how fast anything was.
 */
public class RmiSuiteRunTest {

    @Test(timeOut = 180_000)
    public void theSuiteRunsBothSidesAndWritesTheReportTables() throws Exception {
        Path dir = Files.createTempDirectory("rmi-bench-test");
        try {
            RmiSuite.Settings tiny = new RmiSuite.Settings("tiny", 1, 20, 2, 5, 5,
                    List.of("null", "int:50", "int:200", "tree:15"),
                    List.of("null"), List.of("byte:102400", "tree:1023"), List.of(1), List.of("ok", "unverified"),
                    List.of(2), 1, "small", 60_000, FakeAppMain.class.getName());
            RmiSuite suite = new RmiSuite(tiny, dir, "RmiSuiteRunTest");
            assertEquals(suite.run(), 0);
            Path report = suite.reportFile();
            assertTrue(report.getFileName().toString().matches("rmi-.*-tiny\\.md"), report.toString());
            String text = Files.readString(report, StandardCharsets.UTF_8);
            String png = report.getFileName().toString().replace(".md", "-echo-latency.png");
            assertTrue(Files.size(dir.resolve(png)) > 0, "the latency plot is written next to the report");
            assertTrue(text.contains("](" + png + ")"), "the report shows the plot:\n" + text);
            assertFalse(text.contains("NaN"), text);
            for (String row : List.of("## Summary: the RMI targets",
                    "| null-RMI latency, java.rmi / Ibis RMI |",
                    "| Ibis null-RMI / IPL 1-byte round trip (upcalls, as RMI uses) |",
                    "| tree(1023) throughput, Ibis RMI / java.rmi |",
                    "| void ping() | — |", "| void ping(int, int) | — |", "| void ping(int, int, float, float) | — |",
                    "| IPL 1-byte round trip, upcalls |", "| IPL 1-byte round trip, explicit receive |",
                    "| void ping(obj) | int[50] |", "| obj echo(obj) | tree(15) |",
                    "| void pingpong(obj) with callback | null |", "| void send(x) | byte[102400] |",
                    "| void send(x) | tree(1023) |", "| star: void ping() from 1 client JVM(s), concurrently |",
                    "| ok | 2 | 12.0 | 12.0–12.0 | 12.0 | 12.0–12.0 | 1.00 | verified |",
                    "| unverified | 2 |", "FAILED: ", "the result was not verified: RESULT unverified procs=2",
                    "Bound: a null RMI cannot be faster than one round trip", "Command: `RmiSuiteRunTest`",
                    "Ibis RMI `ibis.benchmarks.rmi.BenchServiceImpl_IbisStub`")) {
                assertTrue(text.contains(row), "the report lacks '" + row + "':\n" + text);
            }
            for (String line : text.lines().toList()) {
                if (!line.startsWith("| unverified")) {
                    assertFalse(line.contains("| — | — |"), "every figure was measured on both sides: " + line);
                }
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
