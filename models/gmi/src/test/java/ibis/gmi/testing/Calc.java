package ibis.gmi.testing;

import ibis.gmi.GroupInterface;

/** The group interface of the tests: every method shows which member ran it. */
public interface Calc extends GroupInterface {

    /** @return (rank + 1) * x */
    int rankTimes(int x);

    /** @return "m" + rank */
    String name();

    /** Remembers x (for discarded and forwarded calls). */
    void record(int x);

    /** Waits (bounded) until {@code count} values were recorded; @return the sum of all recorded */
    int awaitRecorded(int count);

    /** @return (rank + 1) * the sum of part */
    double weigh(double[] part);

    /** Throws IllegalStateException(message + rank) on odd ranks; @return rank otherwise */
    int failOdd(String message);

    /** @return x (the target of combined invocations) */
    int echo(int x);

    /** Member rank {@code victim} says BLOCKING and blocks until killed; others return rank. */
    int blockOn(int victim);

    /** Checks that the member got exactly these values; @return rank */
    long check(long a, double b, boolean c, char d, Object e) throws java.io.IOException;

    /** Adds rank + 1 to every value in place, keeps the array and returns it. */
    int[] keep(int[] values);

    /** @return the sum of the array {@link #keep} kept last */
    int keptSum();
}
