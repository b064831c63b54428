package ibis.gmi.testing;

import ibis.gmi.collectives.Collectives;
import ibis.gmi.collectives.ReduceOp;
import ibis.testsupport.PeerMain;

import java.util.Arrays;

/**
 * The {@code collectives} role of {@link GmiPeer}: every collective of {@link Collectives} for every
 * size class (1, 8 and {@link #LARGE} elements), primitive and object, against a sequential
 * reference computed here from every member's (deterministic) input. Prints {@code PASS name} per
 * check and {@code DIGEST name bits} for results that must be bit-identical at every member.
 */
final class CollectivesPeer {

    /** Above the 64 KiB threshold for int[] (128 KiB) as well as long[] and double[] (1 MiB). */
    static final int LARGE = 128 * 1024;
    private static final int[] SIZES = { 1, 8, LARGE };
    /** Doubles of the broadcast whose chunks are several pieces each (3 MiB). */
    static final int MANY_PIECES = 3 << 17;

    private final int me;
    private final int n;

    CollectivesPeer(int me, int n) {
        this.me = me;
        this.n = n;
    }

    private static void expect(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** Exact in binary floating point, so any summation order gives the reference's bits. */
    private static double dv(int rank, int i) {
        return ((rank * 37 + i * 11) % 1001) / 8.0 - 50;
    }

    private static long lv(int rank, int i) {
        return (long) (rank + 1) * 1_000_000_007L * (i % 13 - 6) + i;
    }

    private static int iv(int rank, int i) {
        return (rank * 7919 + i * 104729) % 65536 - 32768;
    }

    private static double[] doubles(int rank, int len) {
        double[] a = new double[len];
        Arrays.setAll(a, i -> dv(rank, i));
        return a;
    }

    private static long[] longs(int rank, int len) {
        long[] a = new long[len];
        Arrays.setAll(a, i -> lv(rank, i));
        return a;
    }

    private static int[] ints(int rank, int len) {
        int[] a = new int[len];
        Arrays.setAll(a, i -> iv(rank, i));
        return a;
    }

    private static double op(ReduceOp op, double a, double b) {
        return op == ReduceOp.SUM ? a + b : op == ReduceOp.MIN ? Math.min(a, b) : Math.max(a, b);
    }

    private static long op(ReduceOp op, long a, long b) {
        return op == ReduceOp.SUM ? a + b : op == ReduceOp.MIN ? Math.min(a, b) : Math.max(a, b);
    }

    private double[] refDoubles(ReduceOp op, int len) {
        double[] r = doubles(0, len);
        for (int p = 1; p < n; p++) {
            double[] x = doubles(p, len);
            for (int i = 0; i < len; i++) {
                r[i] = op(op, r[i], x[i]);
            }
        }
        return r;
    }

    private long[] refLongs(ReduceOp op, int len) {
        long[] r = longs(0, len);
        for (int p = 1; p < n; p++) {
            long[] x = longs(p, len);
            for (int i = 0; i < len; i++) {
                r[i] = op(op, r[i], x[i]);
            }
        }
        return r;
    }

    private int[] refInts(ReduceOp op, int len) {
        int[] r = ints(0, len);
        for (int p = 1; p < n; p++) {
            int[] x = ints(p, len);
            for (int i = 0; i < len; i++) {
                r[i] = (int) op(op, r[i], x[i]);
            }
        }
        return r;
    }

    /**
     * A broadcast whose chunks are several pieces each ({@link #MANY_PIECES} doubles: 3 MiB): nobody
     * sends to the root in its allgather, so the root sends every piece ahead of the others' steps;
     * every member must still get the root's data, from either end of the ring.
     */
    private void manyPieces(Collectives c) {
        for (int root : new int[] { 0, n - 1 }) {
            double[] d = me == root ? doubles(root, MANY_PIECES) : new double[MANY_PIECES];
            c.broadcast(d, root);
            expect(Arrays.equals(d, doubles(root, MANY_PIECES)), "broadcast in many pieces from " + root);
        }
        PeerMain.say("PASS broadcast/many-pieces");
    }

    void run() {
        Collectives c = Collectives.open("coll", n);
        expect(c.rank() == me && c.size() == n, "rank/size");
        c.barrier();
        c.barrier();
        PeerMain.say("PASS barrier");
        for (int len : SIZES) {
            String cls = len == LARGE ? "large" : String.valueOf(len);
            primitives(c, len, cls);
            objects(c, len, cls);
        }
        manyPieces(c);
        bitIdentical(c);
        if (me == 0) {
            groupOfOne();
        }
        c.barrier();
        PeerMain.say("DONE");
    }

    private void primitives(Collectives c, int len, String cls) {
        for (ReduceOp op : ReduceOp.values()) {
            for (int root : new int[] { 0, n - 1 }) {
                double[] d = doubles(me, len);
                c.reduce(d, op, root);
                long[] l = longs(me, len);
                c.reduce(l, op, root);
                int[] k = ints(me, len);
                c.reduce(k, op, root);
                if (me == root) {
                    expect(Arrays.equals(d, refDoubles(op, len)), "reduce double " + op);
                    expect(Arrays.equals(l, refLongs(op, len)), "reduce long " + op);
                    expect(Arrays.equals(k, refInts(op, len)), "reduce int " + op);
                }
            }
            PeerMain.say("PASS reduce/" + op + "/" + cls);
            double[] d = doubles(me, len);
            c.allreduce(d, op);
            expect(Arrays.equals(d, refDoubles(op, len)), "allreduce double " + op);
            long[] l = longs(me, len);
            c.allreduce(l, op);
            expect(Arrays.equals(l, refLongs(op, len)), "allreduce long " + op);
            int[] k = ints(me, len);
            c.allreduce(k, op);
            expect(Arrays.equals(k, refInts(op, len)), "allreduce int " + op);
            PeerMain.say("PASS allreduce/" + op + "/" + cls);
        }
        for (int root : new int[] { 0, n - 1 }) {
            double[] d = me == root ? doubles(root, len) : new double[len];
            c.broadcast(d, root);
            expect(Arrays.equals(d, doubles(root, len)), "broadcast double from " + root);
            long[] l = me == root ? longs(root, len) : new long[len];
            c.broadcast(l, root);
            expect(Arrays.equals(l, longs(root, len)), "broadcast long from " + root);
            int[] k = me == root ? ints(root, len) : new int[len];
            c.broadcast(k, root);
            expect(Arrays.equals(k, ints(root, len)), "broadcast int from " + root);

            double[] ds = new double[len];
            c.scatter(me == root ? doubles(root, len * n) : null, ds, root);
            expect(Arrays.equals(ds, Arrays.copyOfRange(doubles(root, len * n), me * len, (me + 1) * len)),
                    "scatter double from " + root);
            long[] ls = new long[len];
            c.scatter(me == root ? longs(root, len * n) : null, ls, root);
            expect(Arrays.equals(ls, Arrays.copyOfRange(longs(root, len * n), me * len, (me + 1) * len)),
                    "scatter long from " + root);
            int[] ks = new int[len];
            c.scatter(me == root ? ints(root, len * n) : null, ks, root);
            expect(Arrays.equals(ks, Arrays.copyOfRange(ints(root, len * n), me * len, (me + 1) * len)),
                    "scatter int from " + root);
        }
        PeerMain.say("PASS broadcast/" + cls);
        PeerMain.say("PASS scatter/" + cls);
        double[] dg = c.allgather(doubles(me, len));
        long[] lg = c.allgather(longs(me, len));
        int[] kg = c.allgather(ints(me, len));
        for (int p = 0; p < n; p++) {
            expect(Arrays.equals(Arrays.copyOfRange(dg, p * len, (p + 1) * len), doubles(p, len)), "allgather double");
            expect(Arrays.equals(Arrays.copyOfRange(lg, p * len, (p + 1) * len), longs(p, len)), "allgather long");
            expect(Arrays.equals(Arrays.copyOfRange(kg, p * len, (p + 1) * len), ints(p, len)), "allgather int");
        }
        PeerMain.say("PASS allgather/" + cls);
    }

    /** Objects: a string concatenation (not commutative) and element-wise sums of double[] values. */
    private void objects(Collectives c, int len, String cls) {
        StringBuilder ref = new StringBuilder();
        for (int p = 0; p < n; p++) {
            ref.append(p == 0 ? "" : ",").append("r").append(p).append('x').append(len);
        }
        String mine = "r" + me + "x" + len;
        expect(ref.toString().equals(c.allreduceObject(mine, (a, b) -> a + "," + b)), "allreduce object order");
        String atRoot = c.reduceObject(mine, (a, b) -> a + "," + b, 0);
        expect(me != 0 || ref.toString().equals(atRoot), "reduce object at 0: " + atRoot);
        double[] sum = c.allreduceObject(doubles(me, len), (a, b) -> {
            double[] s = new double[a.length];
            Arrays.setAll(s, i -> a[i] + b[i]);
            return s;
        });
        expect(Arrays.equals(sum, refDoubles(ReduceOp.SUM, len)), "allreduce object arrays");
        double[] max = c.reduceObject(doubles(me, len), (a, b) -> {
            double[] s = new double[a.length];
            Arrays.setAll(s, i -> Math.max(a[i], b[i]));
            return s;
        }, n - 1);
        expect(me != n - 1 || Arrays.equals(max, refDoubles(ReduceOp.MAX, len)), "reduce object arrays at last");
        PeerMain.say("PASS object-reduce/" + cls);
        for (int root : new int[] { 0, n - 1 }) {
            double[] b = c.broadcastObject(me == root ? doubles(root, len) : null, root);
            expect(Arrays.equals(b, doubles(root, len)), "broadcast object from " + root);
            Object[] all = null;
            if (me == root) {
                all = new Object[n];
                for (int p = 0; p < n; p++) {
                    all[p] = doubles(p + 100, len);
                }
            }
            expect(Arrays.equals((double[]) c.scatterObject(all, root), doubles(me + 100, len)), "scatter object");
        }
        Object[] g = c.allgatherObject(doubles(me, len));
        expect(g.length == n, "allgather object length");
        for (int p = 0; p < n; p++) {
            expect(Arrays.equals((double[]) g[p], doubles(p, len)), "allgather object " + p);
        }
        PeerMain.say("PASS object-collectives/" + cls);
    }

    /** Inexact sums: every member must end with the same bits. */
    private void bitIdentical(Collectives c) {
        for (int len : SIZES) {
            double[] d = new double[len];
            Arrays.setAll(d, i -> Math.sin(me * 1.1 + i * 0.37) * 1e-3 + 1.0 / (me + i + 3));
            c.allreduce(d, ReduceOp.SUM);
            long h = 17;
            for (double x : d) {
                h = h * 31 + Double.doubleToRawLongBits(x);
            }
            PeerMain.say("DIGEST allreduce-" + len + " " + Long.toHexString(h));
        }
    }

    private void groupOfOne() {
        Collectives solo = Collectives.open("coll-solo", 1);
        solo.barrier();
        for (int len : SIZES) {
            double[] d = doubles(0, len);
            solo.allreduce(d, ReduceOp.SUM);
            solo.reduce(d, ReduceOp.MAX, 0);
            solo.broadcast(d, 0);
            expect(Arrays.equals(d, doubles(0, len)), "solo allreduce/reduce/broadcast");
            expect(Arrays.equals(solo.allgather(d), d), "solo allgather");
            long[] s = new long[len];
            solo.scatter(longs(0, len), s, 0);
            expect(Arrays.equals(s, longs(0, len)), "solo scatter");
        }
        expect("x".equals(solo.allreduceObject("x", (a, b) -> a + b)) && "y".equals(solo.broadcastObject("y", 0))
                && solo.allgatherObject("z").length == 1 && "w".equals(solo.scatterObject(new Object[] { "w" }, 0)),
                "solo objects");
        PeerMain.say("PASS group-of-1");
    }

    /** The last member never joins the allreduce (the test kills it); the others must fail. */
    void killed() throws InterruptedException {
        Collectives c = Collectives.open("coll-kill", n);
        double[] warm = new double[8];
        c.allreduce(warm, ReduceOp.SUM);
        if (me == n - 1) {
            PeerMain.say("BLOCKING");
            PeerMain.stayUntilParentGoes();
            return;
        }
        PeerMain.say("CALLING");
        try {
            c.allreduce(new double[8], ReduceOp.SUM);
            PeerMain.say("RETURNED");
        } catch (RuntimeException e) {
            PeerMain.say("CALL-FAILED " + e);
        }
        try {
            c.barrier();
            PeerMain.say("RETURNED");
        } catch (RuntimeException e) {
            PeerMain.say("AGAIN-FAILED " + e);
        }
    }
}
