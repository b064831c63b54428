package ibis.benchmarks;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.benchmarks.ipl.Series;

import org.testng.annotations.Test;

/** The statistics of the benchmark report: median and range of the repetitions. */
public class SeriesTest {

    @Test
    public void medianOfAnOddCountIsTheMiddleValue() {
        Series s = new Series();
        for (double v : new double[] {5, 1, 4, 2, 3}) {
            s.add(v);
        }
        assertEquals(s.median(), 3.0);
        assertEquals(s.min(), 1.0);
        assertEquals(s.max(), 5.0);
        assertEquals(s.size(), 5);
    }

    @Test
    public void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        Series s = new Series();
        for (double v : new double[] {10, 2, 8, 4}) {
            s.add(v);
        }
        assertEquals(s.median(), 6.0);
    }

    @Test
    public void emptySeriesHasNoFigures() {
        assertTrue(Double.isNaN(new Series().median()));
        assertTrue(Double.isNaN(new Series().min()));
    }
}
