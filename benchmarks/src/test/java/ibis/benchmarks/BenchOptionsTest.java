package ibis.benchmarks;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.Test;

/** The command line of ibis-bench: the suite, --quick, --out and the implementation chosen with --impl. */
public class BenchOptionsTest {

    private static final Path DEFAULT_OUT = Path.of("bench-results");

    private static BenchOptions parse(String... args) {
        return BenchOptions.parse(List.of(args), DEFAULT_OUT);
    }

    @Test
    public void withoutImplTheImplementationIsLeftToTheSuites() {
        BenchOptions o = parse("ipl", "--quick");
        assertEquals(o.suite(), "ipl");
        assertTrue(o.quick());
        assertNull(o.implementation());
        assertEquals(o.out(), DEFAULT_OUT);
        assertFalse(o.help());
    }

    @Test
    public void implTakesTheNicknameAsTheNextArgumentOrAfterAnEqualsSign() {
        assertEquals(parse("ipl", "--impl", "ucx").implementation(), "ucx");
        assertEquals(parse("--impl", "tcp", "rmi").implementation(), "tcp");
        assertEquals(parse("rmi", "--impl=ucx", "--quick").implementation(), "ucx");
        assertEquals(parse("gmi", "--impl", "mpi").implementation(), "mpi");
        assertNull(parse("gmi", "--quick").implementation());
        BenchOptions o = parse("--quick", "--impl", "ucx", "--out", "/tmp/r", "ipl");
        assertEquals(o.suite(), "ipl");
        assertEquals(o.implementation(), "ucx");
        assertEquals(o.out(), Path.of("/tmp/r"));
    }

    @Test
    public void implWithoutANicknameIsAUsageError() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--impl"));
        assertTrue(e.getMessage().contains("--impl"), e.getMessage());
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--impl", "--quick"));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--impl="));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--impl", "u cx"));
    }

    @Test
    public void implIsRefusedForTheSerializationSuiteWhichHasNoNetwork() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class,
                () -> parse("serialization", "--impl", "ucx"));
        assertTrue(e.getMessage().contains("serialization"), e.getMessage());
        assertNull(parse("serialization", "--quick").implementation());
    }

    @Test
    public void aMissingOrUnknownSuiteOrOptionIsAUsageError() {
        expectThrows(IllegalArgumentException.class, () -> parse("--quick"));
        expectThrows(IllegalArgumentException.class, () -> parse("satin"));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "rmi"));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--fast"));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--out"));
        expectThrows(IllegalArgumentException.class, () -> parse("ipl", "--quick=yes"));
    }

    @Test
    public void helpNeedsNoSuite() {
        assertTrue(parse("--help").help());
        assertTrue(parse("-h").help());
    }
}
