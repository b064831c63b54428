package ibis.gmi.testing;

import ibis.gmi.GroupMember;
import ibis.testsupport.PeerMain;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A member of a test group. */
public class CalcMember extends GroupMember implements Calc {

    private final List<Integer> recorded = new ArrayList<>();
    /** Set by groupInit: the rank and size it saw. */
    public volatile String initSaw;

    @Override
    public void groupInit() {
        initSaw = getRank() + "/" + getSize();
    }

    @Override
    public int rankTimes(int x) {
        return (getRank() + 1) * x;
    }

    @Override
    public String name() {
        return "m" + getRank();
    }

    @Override
    public synchronized void record(int x) {
        recorded.add(x);
        notifyAll();
    }

    @Override
    public synchronized int awaitRecorded(int count) {
        long end = System.currentTimeMillis() + 20_000;
        while (recorded.size() < count) {
            long left = end - System.currentTimeMillis();
            if (left <= 0) {
                throw new IllegalStateException("member " + getRank() + " recorded " + recorded + ", not " + count);
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        int sum = 0;
        for (int v : recorded) {
            sum += v;
        }
        recorded.clear();
        return sum;
    }

    @Override
    public double weigh(double[] part) {
        double s = 0;
        for (double d : part) {
            s += d;
        }
        return (getRank() + 1) * s;
    }

    @Override
    public int failOdd(String message) {
        if (getRank() % 2 == 1) {
            throw new IllegalStateException(message + getRank());
        }
        return getRank();
    }

    @Override
    public int echo(int x) {
        return x;
    }

    @Override
    public int blockOn(int victim) {
        if (getRank() == victim) {
            PeerMain.say("BLOCKING");
            Object never = new Object();
            synchronized (never) {
                while (true) {
                    try {
                        never.wait();
                    } catch (InterruptedException e) {
                        return -1;
                    }
                }
            }
        }
        return getRank();
    }

    @Override
    public long check(long a, double b, boolean c, char d, Object e) throws IOException {
        if (a == -1) {
            throw new IOException("declared checked exception");
        }
        if (a != Long.MIN_VALUE || b != 0.25 || !c || d != 'q' || !"obj".equals(e)) {
            throw new IllegalStateException("wrong values " + a + " " + b + " " + c + " " + d + " " + e);
        }
        return getRank();
    }

    private int[] kept = new int[0];

    @Override
    public synchronized int[] keep(int[] values) {
        for (int i = 0; i < values.length; i++) {
            values[i] += getRank() + 1;
        }
        kept = values;
        return values;
    }

    @Override
    public synchronized int keptSum() {
        int sum = 0;
        for (int v : kept) {
            sum += v;
        }
        return sum;
    }
}
