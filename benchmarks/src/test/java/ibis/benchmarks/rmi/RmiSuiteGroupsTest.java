package ibis.benchmarks.rmi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.BeforeMethod;
import org.testng.annotations.Test;

/**
 * {@link RmiSuite#GROUPS_PROPERTY}: a partial run measures only the named groups and says so, its
 * targets show as not measured; an unknown group name is refused, with the names, before any JVM
 * starts.
 */
public class RmiSuiteGroupsTest {

    private static RmiSuite.Settings tiny() {
        return new RmiSuite.Settings("tiny", 1, 20, 2, 5, 5, List.of("null", "int:50"), List.of("null"),
                List.of("byte:102400"), List.of(1), List.of(), List.of(2), 1, "small", 60_000,
                FakeAppMain.class.getName());
    }

    /** The report folder of the test that runs. */
    private Path dir;

    @BeforeMethod
    public void createFolder() throws Exception {
        dir = Files.createTempDirectory("rmi-groups-test");
    }

    @AfterMethod(alwaysRun = true)
    public void clearPropertyAndFolder() throws Exception {
        System.clearProperty(RmiSuite.GROUPS_PROPERTY);
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test(timeOut = 30_000)
    public void anUnknownGroupIsRefusedWithTheNames() throws Exception {
        System.setProperty(RmiSuite.GROUPS_PROPERTY, "null,pingg");
        RmiSuite suite = new RmiSuite(tiny(), dir, "RmiSuiteGroupsTest");
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, suite::run);
        assertTrue(e.getMessage().contains("pingg") && e.getMessage().contains("echo int:50")
                && e.getMessage().contains("send byte:102400"), e.getMessage());
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(files.count(), 0L, "no report for a refused run");
        }
    }

    @Test(timeOut = 180_000)
    public void aPartialRunMeasuresOnlyTheNamedGroupsAndSaysSo() throws Exception {
        System.setProperty(RmiSuite.GROUPS_PROPERTY, "ping2i, echo int:50");
        RmiSuite suite = new RmiSuite(tiny(), dir, "RmiSuiteGroupsTest");
        assertEquals(suite.run(), 0);
        String text = Files.readString(suite.reportFile(), StandardCharsets.UTF_8);
        for (String row : List.of("Partial run: only the figure groups `ping2i, echo int:50`",
                "| null-RMI latency, java.rmi / Ibis RMI | — | ≥ 5 | not measured |",
                "| tree(1023) throughput, Ibis RMI / java.rmi | — | ≥ 5 | not measured |",
                "| void ping(int, int) | — |", "| obj echo(obj) | int[50] |")) {
            assertTrue(text.contains(row), "the report lacks '" + row + "':\n" + text);
        }
        for (String absent : List.of("| void ping() |", "| void ping(obj) |", "| void send(x) |",
                "IPL 1-byte round trip, same run")) {
            assertFalse(text.contains(absent), "a group that was not asked for: '" + absent + "':\n" + text);
        }
    }
}
