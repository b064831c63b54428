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

    /** Forgets all values (a figure that failed part-way is reported as failed, not as a shorter series). */
    public void clear() {
        values.clear();
    }

    /** The number of repetitions so far. */
    public int size() {
        return values.size();
    }

    /** The value of repetition {@code i} (0-based). */
    public double get(int i) {
        return values.get(i);
    }

    /** The median (mean of the middle two for an even count); NaN when empty. */
    public double median() {
        return median(values);
    }

    /** The smallest value; NaN when empty. */
    public double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** The largest value; NaN when empty. */
    public double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /**
     * The median over the repetitions of {@code x[i] / peer[i]}: the ratio of two figures measured
     * side by side in each repetition. On a noisy machine it is steadier than the ratio of the two
     * medians, because both values of a pair saw the same moment of the machine. NaN when there is
     * no pair.
     */
    public static double pairedRatio(Series x, Series peer) {
        int n = Math.min(x.size(), peer.size());
        List<Double> ratios = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            ratios.add(x.get(i) / peer.get(i));
        }
        return median(ratios);
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
