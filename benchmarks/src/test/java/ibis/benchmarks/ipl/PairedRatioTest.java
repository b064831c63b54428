package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The ratio column of the report: the median of the per-repetition ratios. */
public class PairedRatioTest {

    @Test
    public void theRatioIsTheMedianOfTheRatiosOfTheSameRepetitions() {
        Series ibis = series(10, 40, 12, 100);
        Series raw = series(20, 40, 6, 50);
        // per repetition: 0.5, 1, 2, 2 -> median 1.5
        assertEquals(Series.pairedRatio(ibis, raw), 1.5, 1e-12);
        // while the ratio of the medians would be 26 / 30
        assertEquals(ibis.median() / raw.median(), 26.0 / 30.0, 1e-12);
    }

    @Test
    public void onlyRepetitionsPresentInBothCount() {
        assertEquals(Series.pairedRatio(series(2, 4, 8), series(1, 2)), 2.0, 1e-12);
        assertTrue(Double.isNaN(Series.pairedRatio(series(), series(1))));
    }

    @Test
    public void valuesAreKeptInRepetitionOrder() {
        Series s = series(3, 1, 2);
        assertEquals(s.get(0), 3.0);
        assertEquals(s.get(2), 2.0);
        assertEquals(s.median(), 2.0);
    }

    private static Series series(double... values) {
        Series s = new Series();
        for (double v : values) {
            s.add(v);
        }
        return s;
    }
}
