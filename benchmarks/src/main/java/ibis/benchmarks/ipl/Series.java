package ibis.benchmarks.ipl;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The values of the measured repetitions of one figure, with their median and range. */
public final class Series {

    private final List<Double> values = new ArrayList<>();

    /** Adds one repetition's value. */
    public void add(double value) {
        values.add(value);
    }

    /** The number of repetitions so far. */
    public int size() {
        return values.size();
    }

    /** The median (mean of the middle two for an even count); NaN when empty. */
    public double median() {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The smallest value; NaN when empty. */
    public double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** The largest value; NaN when empty. */
    public double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
