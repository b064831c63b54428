package ibis.benchmarks.rmi.apps;

import java.io.Serializable;
import java.rmi.RemoteException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Paraffin generation ("More Efficient Serialization and RMI for Java", section 6.1, the Salishan
 * problem): every paraffin C(i)H(2i+2) for i up to n, each isomer once. A molecule is a carbon with
 * four radicals (carbon-centred) or two radicals of i/2 carbons joined by a bond (bond-centred); a
 * radical is a hydrogen or a carbon with three smaller radicals in canonical order. Master-worker:
 * rank 0 is the master (and also a worker); every worker repeatedly hands in the molecules of its
 * last task and gets the next task in one RMI, so object graphs (molecules sharing their radicals)
 * travel as arguments. Rank 0 checks the counts against the known isomer counts and that the
 * molecules are pairwise non-isomorphic (canonical forms of the carbon trees).
 */
public final class Paraffins extends AppNode implements ParaffinsMaster {

    private static final long serialVersionUID = 1L;

    /** Number of paraffin isomers with i carbons (OEIS A000602), i = 0 .. 20. */
    static final int[] ISOMERS = {1, 1, 1, 1, 2, 3, 5, 9, 18, 35, 75, 159, 355, 802, 1858, 4347, 10359, 24894, 60523,
        148284, 366319};

    /** A radical: hydrogen (no parts) or a carbon with three radicals. */
    public static final class Radical implements Serializable {
        private static final long serialVersionUID = 1L;
        final int carbons;
        /** Position in the canonical order (by size, then generation order); the same in every process. */
        final int order;
        final Radical[] parts;

        Radical(int carbons, int order, Radical[] parts) {
            this.carbons = carbons;
            this.order = order;
            this.parts = parts;
        }
    }

    /** A paraffin: four radicals around a carbon, or two radicals joined by a bond. */
    public static final class Molecule implements Serializable {
        private static final long serialVersionUID = 1L;
        final boolean bondCentred;
        final Radical[] parts;

        Molecule(boolean bondCentred, Radical... parts) {
            this.bondCentred = bondCentred;
            this.parts = parts;
        }

        int carbons() {
            int c = bondCentred ? 0 : 1;
            for (Radical r : parts) {
                c += r.carbons;
            }
            return c;
        }
    }

    /** The molecules of i carbons whose largest radical has an order in [from, to). */
    public static final class Task implements Serializable {
        private static final long serialVersionUID = 1L;
        final int id;
        final int carbons;
        final int from;
        final int to;

        Task(int id, int carbons, int from, int to) {
            this.id = id;
            this.carbons = carbons;
            this.from = from;
            this.to = to;
        }
    }

    /** A task's molecules. */
    public static final class Result implements Serializable {
        private static final long serialVersionUID = 1L;
        final int task;
        final Molecule[] molecules;

        Result(int task, Molecule[] molecules) {
            this.task = task;
            this.molecules = molecules;
        }
    }

    private final int n;
    /** radicals.get(s): the radicals of s carbons, in order. */
    private final List<List<Radical>> radicals;
    private final List<Radical> byOrder = new ArrayList<>();
    private final transient ArrayDeque<Task> queue = new ArrayDeque<>();
    private transient Molecule[][] results;
    private int missing;
    private transient ParaffinsMaster master;

    Paraffins(int rank, int size, Problem problem) throws RemoteException {
        super(rank, size);
        n = problem.pick(10, 19, 20);
        radicals = radicals(n / 2);
        for (List<Radical> l : radicals) {
            byOrder.addAll(l);
        }
        if (rank == 0) {
            List<Task> tasks = new ArrayList<>();
            for (int c = n; c >= 1; c--) {
                int count = 0;
                for (int s = 0; s <= c / 2; s++) {
                    count += radicals.get(s).size();
                }
                int pieces = c <= 8 ? 1 : 8;
                for (int p = 0; p < pieces; p++) {
                    tasks.add(new Task(tasks.size(), c, count * p / pieces, count * (p + 1) / pieces));
                }
            }
            queue.addAll(tasks);
            results = new Molecule[tasks.size()][];
            missing = tasks.size();
        }
    }

    /** The radicals of 0 .. max carbons, each list in canonical order. */
    static List<List<Radical>> radicals(int max) {
        List<List<Radical>> all = new ArrayList<>();
        all.add(List.of(new Radical(0, 0, new Radical[0])));
        int order = 1;
        for (int k = 1; k <= max; k++) {
            List<Radical> list = new ArrayList<>();
            for (int sa = 0; 3 * sa <= k - 1; sa++) {
                for (int sb = sa; sa + 2 * sb <= k - 1; sb++) {
                    int sc = k - 1 - sa - sb;
                    List<Radical> la = all.get(sa);
                    List<Radical> lb = all.get(sb);
                    List<Radical> lc = all.get(sc);
                    for (int ia = 0; ia < la.size(); ia++) {
                        for (int ib = sb == sa ? ia : 0; ib < lb.size(); ib++) {
                            for (int ic = sc == sb ? ib : 0; ic < lc.size(); ic++) {
                                list.add(new Radical(k, order++, new Radical[] {la.get(ia), lb.get(ib), lc.get(ic)}));
                            }
                        }
                    }
                }
            }
            all.add(list);
        }
        return all;
    }

    /** The molecules of a task. */
    static Molecule[] generate(List<List<Radical>> radicals, List<Radical> byOrder, int c, int from, int to) {
        List<Molecule> out = new ArrayList<>();
        for (int o = from; o < to; o++) {
            Radical d = byOrder.get(o);
            int sd = d.carbons;
            List<Radical> ld = radicals.get(sd);
            int id = ld.indexOf(d);
            if (c % 2 == 0 && sd == c / 2) {
                for (int ia = 0; ia <= id; ia++) {
                    out.add(new Molecule(true, ld.get(ia), d));
                }
            }
            if (2 * sd > c - 1) {
                continue;
            }
            int rest = c - 1 - sd;
            for (int sa = 0; 3 * sa <= rest; sa++) {
                for (int sb = sa; sa + 2 * sb <= rest; sb++) {
                    int sc = rest - sa - sb;
                    if (sc > sd) {
                        continue;
                    }
                    List<Radical> la = radicals.get(sa);
                    List<Radical> lb = radicals.get(sb);
                    List<Radical> lc = radicals.get(sc);
                    for (int ia = 0; ia < la.size(); ia++) {
                        for (int ib = sb == sa ? ia : 0; ib < lb.size(); ib++) {
                            int icMax = sc == sd ? id : lc.size() - 1;
                            for (int ic = sc == sb ? ib : 0; ic <= icMax; ic++) {
                                out.add(new Molecule(false, la.get(ia), lb.get(ib), lc.get(ic), d));
                            }
                        }
                    }
                }
            }
        }
        return out.toArray(new Molecule[0]);
    }

    /** The sequential reference: the number of molecules of each size 0 .. max, generated in one process. */
    static int[] sequentialCounts(int max) {
        List<List<Radical>> radicals = radicals(max / 2);
        List<Radical> byOrder = new ArrayList<>();
        radicals.forEach(byOrder::addAll);
        int[] counts = new int[max + 1];
        counts[0] = 1;
        for (int c = 1; c <= max; c++) {
            int upTo = 0;
            for (int s = 0; s <= c / 2; s++) {
                upTo += radicals.get(s).size();
            }
            counts[c] = generate(radicals, byOrder, c, 0, upTo).length;
        }
        return counts;
    }

    @Override
    protected void connect(AppPeer[] stubs) {
        master = (ParaffinsMaster) stubs[0];
    }

    @Override
    public synchronized Task next(Result done) {
        if (done != null) {
            results[done.task] = done.molecules;
            missing--;
            notifyAll();
        }
        return queue.poll();
    }

    @Override
    protected void run() throws Exception {
        Result done = null;
        for (Task t = master.next(null); t != null; t = master.next(done)) {
            done = new Result(t.id, generate(radicals, byOrder, t.carbons, t.from, t.to));
        }
        if (rank == 0) {
            awaitResults();
        }
    }

    private synchronized void awaitResults() throws InterruptedException {
        long deadline = System.nanoTime() + AppMain.TIMEOUT_MILLIS * 1_000_000L;
        while (missing > 0) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new IllegalStateException(missing + " paraffin tasks not handed in");
            }
            wait(left);
        }
    }

    @Override
    protected boolean verify() {
        List<Set<String>> forms = new ArrayList<>();
        for (int c = 0; c <= n; c++) {
            forms.add(new HashSet<>());
        }
        for (Molecule[] ms : results) {
            for (Molecule m : ms) {
                int c = m.carbons();
                if (c < 1 || c > n || !forms.get(c).add(canonical(m))) {
                    return false;
                }
            }
        }
        for (int c = 1; c <= n; c++) {
            if (forms.get(c).size() != ISOMERS[c]) {
                return false;
            }
        }
        return true;
    }

    /** A canonical form of the molecule's carbon tree (the same for isomorphic trees only). */
    static String canonical(Molecule m) {
        List<List<Integer>> adjacent = new ArrayList<>();
        if (m.bondCentred) {
            int a = build(m.parts[0], adjacent);
            int b = build(m.parts[1], adjacent);
            adjacent.get(a).add(b);
            adjacent.get(b).add(a);
        } else {
            adjacent.add(new ArrayList<>());
            for (Radical r : m.parts) {
                if (r.carbons > 0) {
                    int child = build(r, adjacent);
                    adjacent.get(0).add(child);
                    adjacent.get(child).add(0);
                }
            }
        }
        // Centres: peel leaves until one or two nodes remain.
        int count = adjacent.size();
        int[] degree = new int[count];
        List<Integer> leaves = new ArrayList<>();
        for (int v = 0; v < count; v++) {
            degree[v] = adjacent.get(v).size();
            if (degree[v] <= 1) {
                leaves.add(v);
            }
        }
        int left = count;
        while (left > 2) {
            left -= leaves.size();
            List<Integer> nextLeaves = new ArrayList<>();
            for (int leaf : leaves) {
                for (int w : adjacent.get(leaf)) {
                    if (--degree[w] == 1) {
                        nextLeaves.add(w);
                    }
                }
            }
            leaves = nextLeaves;
        }
        String best = null;
        for (int centre : leaves) {
            String s = rooted(centre, -1, adjacent);
            if (best == null || s.compareTo(best) < 0) {
                best = s;
            }
        }
        return best;
    }

    private static int build(Radical r, List<List<Integer>> adjacent) {
        int me = adjacent.size();
        adjacent.add(new ArrayList<>());
        for (Radical p : r.parts) {
            if (p.carbons > 0) {
                int child = build(p, adjacent);
                adjacent.get(me).add(child);
                adjacent.get(child).add(me);
            }
        }
        return me;
    }

    private static String rooted(int v, int parent, List<List<Integer>> adjacent) {
        List<String> children = new ArrayList<>();
        for (int w : adjacent.get(v)) {
            if (w != parent) {
                children.add(rooted(w, v, adjacent));
            }
        }
        String[] sorted = children.toArray(new String[0]);
        Arrays.sort(sorted);
        return "(" + String.join("", sorted) + ")";
    }
}
