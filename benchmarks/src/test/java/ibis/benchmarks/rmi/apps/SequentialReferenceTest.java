package ibis.benchmarks.rmi.apps;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.testng.annotations.Test;

/**
 * The sequential references (and kernels) the applications verify against, checked against known
 * small answers worked out independently.
 */
public class SequentialReferenceTest {

    @Test(timeOut = 30_000)
    public void hammingNumbersOfTwoThreeFiveUpToHundred() throws Exception {
        long[] expected = {1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 18, 20, 24, 25, 27, 30, 32, 36, 40, 45, 48, 50, 54,
            60, 64, 72, 75, 80, 81, 90, 96, 100};
        long[] primes = {2, 3, 5};
        assertEquals(Hamming.sequential(primes, 100), expected);
        assertEquals(Hamming.pipeline(primes, 100), expected);
        assertEquals(Hamming.everySecondPrime(6), new long[] {2, 5, 11, 17, 23, 31});
        long[] big = Hamming.everySecondPrime(8);
        assertEquals(Hamming.pipeline(big, 1_000_000_000L), Hamming.sequential(big, 1_000_000_000L));
    }

    @Test(timeOut = 30_000)
    public void paraffinCountsAreTheKnownIsomerCountsAndMoleculesAreDistinct() {
        // Alkyl radicals C(k)H(2k+1), k = 0..7 (OEIS A000598), and alkanes C(n)H(2n+2), n = 1..12.
        List<List<Paraffins.Radical>> radicals = Paraffins.radicals(7);
        int[] radicalCounts = new int[8];
        for (int k = 0; k <= 7; k++) {
            radicalCounts[k] = radicals.get(k).size();
        }
        assertEquals(radicalCounts, new int[] {1, 1, 1, 2, 4, 8, 17, 39});
        assertEquals(Paraffins.sequentialCounts(12), new int[] {1, 1, 1, 1, 2, 3, 5, 9, 18, 35, 75, 159, 355});
        // The four-carbon isomers: butane and isobutane, different canonical forms.
        List<Paraffins.Radical> byOrder = new ArrayList<>();
        radicals.forEach(byOrder::addAll);
        Paraffins.Molecule[] butanes = Paraffins.generate(radicals, byOrder, 4, 0, byOrder.size());
        Set<String> forms = new HashSet<>();
        for (Paraffins.Molecule m : butanes) {
            assertEquals(m.carbons(), 4);
            forms.add(Paraffins.canonical(m));
        }
        // Butane rooted at a middle carbon; isobutane at its central carbon.
        assertEquals(forms, Set.of("((())())", "(()()())"));
    }

    @Test(timeOut = 30_000)
    public void sorConvergesToTheHarmonicBoundaryFunction() {
        int n = 18;
        double[][] g = Sor.sequential(n, 400);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                assertEquals(g[i][j], (double) i * j / (n * n), 1e-9, "(" + i + ", " + j + ")");
            }
        }
    }

    @Test(timeOut = 30_000)
    public void aspOfASmallGraph() {
        int x = Asp.INFINITE;
        int[][] graph = {
            {0, 1, 5, x},
            {x, 0, 2, x},
            {x, x, 0, 1},
            {7, x, x, 0}};
        int[][] expected = {
            {0, 1, 3, 4},
            {10, 0, 2, 3},
            {8, 9, 0, 1},
            {7, 8, 10, 0}};
        int[][] d = Asp.sequential(graph);
        for (int i = 0; i < 4; i++) {
            assertEquals(d[i], expected[i], "row " + i);
        }
        assertEquals(graph[0][2], 5, "the input is not changed");
    }

    @Test(timeOut = 30_000)
    public void radixSortsSmallArraysAndAgreesWithArraysSort() {
        assertEquals(Radix.sequential(new int[] {5, 3, 1 << 30, 0, 255, 256, 3, Integer.MAX_VALUE}),
                new int[] {0, 3, 3, 5, 255, 256, 1 << 30, Integer.MAX_VALUE});
        int[] input = Radix.input(10_000, 3);
        int[] sorted = input.clone();
        Arrays.sort(sorted);
        assertEquals(Radix.sequential(input), sorted);
    }

    @Test(timeOut = 30_000)
    public void fftMatchesTheDefinitionOfTheDft() {
        // An impulse transforms to all ones.
        int n = 16;
        double[] cos = new double[n / 2];
        double[] sin = new double[n / 2];
        Fft.roots(n, cos, sin);
        double[] impulse = new double[2 * n];
        impulse[0] = 1;
        Fft.fft(impulse, n, cos, sin);
        for (int k = 0; k < n; k++) {
            assertEquals(impulse[2 * k], 1.0, 1e-12);
            assertEquals(impulse[2 * k + 1], 0.0, 1e-12);
        }
        // The sequential reference of the application (m = 8, 64 points) against a naive DFT.
        int m = 8;
        double[] x = new double[2 * m * m];
        for (int i = 0; i < m; i++) {
            System.arraycopy(Fft.inputRow(i, m), 0, x, 2 * i * m, 2 * m);
        }
        double[] spectrum = Fft.sequential(m);
        int points = m * m;
        for (int k = 0; k < points; k++) {
            double re = 0;
            double im = 0;
            for (int j = 0; j < points; j++) {
                double angle = -2 * Math.PI * ((long) j * k % points) / points;
                re += x[2 * j] * Math.cos(angle) - x[2 * j + 1] * Math.sin(angle);
                im += x[2 * j] * Math.sin(angle) + x[2 * j + 1] * Math.cos(angle);
            }
            assertEquals(spectrum[2 * k], re, 1e-9, "re " + k);
            assertEquals(spectrum[2 * k + 1], im, 1e-9, "im " + k);
        }
    }

    @Test(timeOut = 30_000)
    public void waterPairAtThePotentialMinimumAndEveryPairOnce() {
        double r = Math.pow(2, 1.0 / 6);
        double[] p = {0, 0, 0, r, 0, 0};
        double[] f = new double[6];
        assertEquals(Water.pair(p, f, 0, 1), -1.0, 1e-12);
        for (double component : f) {
            assertEquals(component, 0.0, 1e-12);
        }
        // Newton's third law and the sign: closer than the minimum the molecules repel.
        p[3] = 1.0;
        Arrays.fill(f, 0);
        assertEquals(Water.pair(p, f, 0, 1), 0.0, 1e-12);
        assertEquals(f[0], -24.0, 1e-12);
        assertEquals(f[3], 24.0, 1e-12);
        // Every pair once: the cyclic half-windows cover each pair exactly once, odd and even n.
        for (int n : new int[] {7, 8}) {
            int[][] seen = new int[n][n];
            for (int i = 0; i < n; i++) {
                for (int d = 1; d <= Water.reach(i, n); d++) {
                    int j = (i + d) % n;
                    seen[Math.min(i, j)][Math.max(i, j)]++;
                }
            }
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    assertEquals(seen[i][j], 1, n + ": pair " + i + ", " + j);
                }
            }
        }
    }
}
