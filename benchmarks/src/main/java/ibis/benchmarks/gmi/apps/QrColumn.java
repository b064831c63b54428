package ibis.benchmarks.gmi.apps;

import java.io.Serializable;

/**
 * A candidate Householder column of QR: its index, squared norm (of rows k and below) and those
 * rows; index -1 when a process has no column left.
 */
public final class QrColumn implements Serializable {

    private static final long serialVersionUID = 1L;

    final int index;
    final double norm2;
    final double[] rows;

    QrColumn(int index, double norm2, double[] rows) {
        this.index = index;
        this.norm2 = norm2;
        this.rows = rows;
    }

    /** The better of two candidates: the larger norm, on a tie the smaller index (as a sequential scan picks). */
    static QrColumn better(QrColumn a, QrColumn b) {
        if (b.index < 0) {
            return a;
        }
        if (a.index < 0) {
            return b;
        }
        return b.norm2 > a.norm2 || (b.norm2 == a.norm2 && b.index < a.index) ? b : a;
    }
}
