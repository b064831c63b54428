package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.List;
import java.util.Map;

import org.testng.annotations.Test;

public class PlainProgramsTableTest {

    private static Series of(double... values) {
        Series s = new Series();
        for (double v : values) {
            s.add(v);
        }
        return s;
    }

    @Test
    public void bothRunsAreComparedWithTheSuiteStream() {
        List<PlainPrograms.Result> results = List.of(
                new PlainPrograms.Result("byte", of(2000, 2200, 2400), of(7000, 7200, 7400), null),
                new PlainPrograms.Result("data", of(2100), of(6800), null));
        List<String> t = PlainPrograms.table(results, Map.of("byte", 8000.0, "data", 8000.0), IplSuite.TCP);
        String byteRow = t.stream().filter(l -> l.startsWith("| byte |")).findFirst().orElseThrow();
        assertEquals(byteRow, "| byte | 2200 | 2000–2400 | 7200 | 7000–7400 | 8000 | 0.28 | 0.90 |");
        String dataRow = t.stream().filter(l -> l.startsWith("| data |")).findFirst().orElseThrow();
        assertEquals(dataRow.split("\\|", -1).length, byteRow.split("\\|", -1).length, dataRow);
        assertTrue(t.contains("- Target: the plain program (byte) at least 0.9 × the suite's stream: 0.28 — missed"),
                String.join("\n", t));
    }

    @Test
    public void aFailedSerializationKeepsTheColumns() {
        List<PlainPrograms.Result> results = List.of(new PlainPrograms.Result("byte", of(), of(), "pool failed"));
        List<String> t = PlainPrograms.table(results, Map.of("byte", 8000.0), IplSuite.TCP);
        String header = t.stream().filter(l -> l.startsWith("| serialization |")).findFirst().orElseThrow();
        String row = t.stream().filter(l -> l.startsWith("| byte |")).findFirst().orElseThrow();
        assertEquals(row.split("\\|", -1).length, header.split("\\|", -1).length, row);
        assertTrue(row.contains("failed: pool failed"), row);
    }
}
