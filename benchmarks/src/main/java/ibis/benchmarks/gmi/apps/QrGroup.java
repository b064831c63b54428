package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupInterface;

/** The group of QR: one member per process. */
public interface QrGroup extends GroupInterface {

    /**
     * Combined invocation: every process's best column; the invocation combiner keeps the one of
     * largest norm, which every process gets back (combine and broadcast in one call).
     */
    QrColumn select(QrColumn candidate);

    /** Combined invocation: the sum of every process's {@code part}, for every process. */
    long total(long part);
}
