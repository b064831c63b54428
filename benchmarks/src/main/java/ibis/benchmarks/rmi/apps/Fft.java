package ibis.benchmarks.rmi.apps;

import java.rmi.RemoteException;
import java.util.SplittableRandom;

/**
 * 1-D complex FFT of N = M * M points by the six-step method (SPLASH-2 FFT, as in "Efficient Java
 * RMI for Parallel Programming"): the data is an M x M matrix split rowwise in blocks over the
 * ranks; transpose, M-point FFTs of the rows, twiddle factors, transpose, row FFTs, transpose. Each
 * transpose is a personalised all-to-all exchange: every rank sends every other rank, in one RMI,
 * the sub-block that becomes part of that rank's rows. At the end the rows (the spectrum in natural
 * order) are gathered at rank 0, which compares them with a sequential radix-2 FFT of all N points.
 */
public final class Fft extends AppNode implements FftPeer {

    private static final long serialVersionUID = 1L;

    private final int m;
    private final int lo;
    private final int hi;
    private double[][] rows;
    private final transient double[] cos;
    private final transient double[] sin;
    private transient double[] spectrum;
    private transient FftPeer[] peers;

    Fft(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        m = problem.pick(16, 1024, 2048);
        lo = lo(rank, m, size);
        hi = lo(rank + 1, m, size);
        rows = new double[hi - lo][];
        for (int i = lo; i < hi; i++) {
            rows[i - lo] = inputRow(i, m);
        }
        cos = new double[m / 2];
        sin = new double[m / 2];
        roots(m, cos, sin);
    }

    /** Row i of the input matrix: points i*m .. i*m+m-1, interleaved re, im. */
    static double[] inputRow(int i, int m) {
        SplittableRandom random = new SplittableRandom(1000L + i);
        double[] row = new double[2 * m];
        for (int j = 0; j < row.length; j++) {
            row[j] = random.nextDouble(-1, 1);
        }
        return row;
    }

    /** The first half of the n-th roots of unity exp(-2 pi i k / n). */
    static void roots(int n, double[] cos, double[] sin) {
        for (int k = 0; k < n / 2; k++) {
            double angle = -2 * Math.PI * k / n;
            cos[k] = Math.cos(angle);
            sin[k] = Math.sin(angle);
        }
    }

    /** In-place iterative radix-2 FFT of n interleaved complex values (n a power of two). */
    static void fft(double[] a, int n, double[] cos, double[] sin) {
        for (int i = 1, j = 0; i < n; i++) {
            int bit = n >> 1;
            for (; (j & bit) != 0; bit >>= 1) {
                j ^= bit;
            }
            j ^= bit;
            if (i < j) {
                double re = a[2 * i];
                double im = a[2 * i + 1];
                a[2 * i] = a[2 * j];
                a[2 * i + 1] = a[2 * j + 1];
                a[2 * j] = re;
                a[2 * j + 1] = im;
            }
        }
        for (int len = 2; len <= n; len <<= 1) {
            int half = len >> 1;
            int stride = n / len;
            for (int start = 0; start < n; start += len) {
                for (int k = 0; k < half; k++) {
                    double wr = cos[k * stride];
                    double wi = sin[k * stride];
                    int p = 2 * (start + k);
                    int q = 2 * (start + k + half);
                    double xr = a[q] * wr - a[q + 1] * wi;
                    double xi = a[q] * wi + a[q + 1] * wr;
                    a[q] = a[p] - xr;
                    a[q + 1] = a[p + 1] - xi;
                    a[p] += xr;
                    a[p + 1] += xi;
                }
            }
        }
    }

    /** The sequential reference: a radix-2 FFT of all m*m points at once. */
    static double[] sequential(int m) {
        int n = m * m;
        double[] a = new double[2 * n];
        for (int i = 0; i < m; i++) {
            System.arraycopy(inputRow(i, m), 0, a, 2 * i * m, 2 * m);
        }
        double[] c = new double[n / 2];
        double[] s = new double[n / 2];
        roots(n, c, s);
        fft(a, n, c, s);
        return a;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        peers = new FftPeer[stubs.length];
        for (int r = 0; r < stubs.length; r++) {
            peers[r] = (FftPeer) stubs[r];
        }
    }

    @Override
    public void putBlock(int step, int from, double[] block) throws RemoteException {
        mailbox.put(Mailbox.key(step, from), block);
    }

    @Override
    protected void run() throws Exception {
        rows = transpose(0, rows);
        for (double[] row : rows) {
            fft(row, m, cos, sin);
        }
        twiddle();
        rows = transpose(1, rows);
        for (double[] row : rows) {
            fft(row, m, cos, sin);
        }
        rows = transpose(2, rows);
        if (rank != 0) {
            double[] block = new double[2 * m * (hi - lo)];
            for (int i = 0; i < rows.length; i++) {
                System.arraycopy(rows[i], 0, block, 2 * m * i, 2 * m);
            }
            peers[0].putBlock(3, rank, block);
            return;
        }
        spectrum = new double[2 * m * m];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, spectrum, 2 * m * (lo + i), 2 * m);
        }
        for (int r = 1; r < size; r++) {
            double[] block = (double[]) mailbox.take(Mailbox.key(3, r));
            System.arraycopy(block, 0, spectrum, 2 * m * lo(r, m, size), block.length);
        }
    }

    /** Multiplies element (j, k) by exp(-2 pi i j k / N); exact every 64 columns, by rotation between. */
    private void twiddle() {
        long n = (long) m * m;
        for (int i = 0; i < rows.length; i++) {
            long j = lo + i;
            double[] row = rows[i];
            double stepRe = Math.cos(-2 * Math.PI * j / n);
            double stepIm = Math.sin(-2 * Math.PI * j / n);
            double wr = 1;
            double wi = 0;
            for (int k = 0; k < m; k++) {
                if ((k & 63) == 0) {
                    double angle = -2 * Math.PI * ((j * k) % n) / n;
                    wr = Math.cos(angle);
                    wi = Math.sin(angle);
                }
                double re = row[2 * k];
                double im = row[2 * k + 1];
                row[2 * k] = re * wr - im * wi;
                row[2 * k + 1] = re * wi + im * wr;
                double t = wr * stepRe - wi * stepIm;
                wi = wr * stepIm + wi * stepRe;
                wr = t;
            }
        }
    }

    /** All-to-all transpose of the distributed matrix. */
    private double[][] transpose(int step, double[][] a) throws Exception {
        double[][] t = new double[hi - lo][2 * m];
        for (int s = 0; s < size; s++) {
            int dest = (rank + s) % size;
            int dLo = lo(dest, m, size);
            int dHi = lo(dest + 1, m, size);
            double[] block = new double[2 * (hi - lo) * (dHi - dLo)];
            int at = 0;
            for (double[] row : a) {
                System.arraycopy(row, 2 * dLo, block, at, 2 * (dHi - dLo));
                at += 2 * (dHi - dLo);
            }
            if (dest == rank) {
                place(t, rank, block);
            } else {
                peers[dest].putBlock(step, rank, block);
            }
        }
        for (int s = 1; s < size; s++) {
            int from = (rank - s + size) % size;
            place(t, from, (double[]) mailbox.take(Mailbox.key(step, from)));
        }
        return t;
    }

    /** Stores a block from rank {@code from}: its row i, our column j become our row j, column i. */
    private void place(double[][] t, int from, double[] block) {
        int fLo = lo(from, m, size);
        int fHi = lo(from + 1, m, size);
        int cols = hi - lo;
        for (int i = 0; i < fHi - fLo; i++) {
            int base = 2 * i * cols;
            int col = 2 * (fLo + i);
            for (int j = 0; j < cols; j++) {
                t[j][col] = block[base + 2 * j];
                t[j][col + 1] = block[base + 2 * j + 1];
            }
        }
    }

    @Override
    protected boolean verify() {
        double[] expected = sequential(m);
        double scale = 0;
        for (double v : expected) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int i = 0; i < expected.length; i++) {
            if (!(Math.abs(expected[i] - spectrum[i]) <= 1e-9 * scale)) {
                return false;
            }
        }
        return true;
    }
}
