package ibis.benchmarks.serialization;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertTrue;

import ibis.benchmarks.serialization.SerializationSuite.Key;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.testng.annotations.Test;

/**
 * The order in which the full serialization suite runs its cells: every round runs every cell
 * once, the columns of one (workload, operation) one right after the other, and the column that
 * goes first changes from round to round.
 */
public class RoundOrderTest {

    private static List<Key> cells() {
        List<Key> cells = new ArrayList<>();
        for (Workload w : List.of(Workload.INTS, Workload.TREE1023)) {
            for (boolean write : new boolean[] {true, false}) {
                for (Column c : Column.values()) {
                    if (c.measures(w)) {
                        cells.add(new Key(c, w, write));
                    }
                }
            }
        }
        return cells;
    }

    @Test
    public void everyRoundRunsEveryCellOnceWithCompetingColumnsSideBySide() {
        List<Key> cells = cells();
        for (int round = 0; round < 4; round++) {
            List<List<Key>> groups = SerializationSuite.roundOrder(cells, round);
            assertEquals(groups.size(), 4, "one group per (workload, operation)");
            List<Key> all = new ArrayList<>();
            for (List<Key> g : groups) {
                Set<Object> shared = new HashSet<>();
                for (Key k : g) {
                    shared.add(List.of(k.workload(), k.write()));
                }
                assertEquals(shared.size(), 1, "a group holds the columns of one (workload, operation): " + g);
                all.addAll(g);
            }
            assertEquals(all.size(), cells.size());
            assertEquals(new HashSet<>(all), new HashSet<>(cells));
        }
    }

    @Test
    public void theFirstColumnOfAGroupChangesFromRoundToRound() {
        List<Key> cells = cells();
        List<Key> tree = SerializationSuite.roundOrder(cells, 0).get(2);
        int columns = tree.size();
        assertTrue(columns >= 5, "the tree is measured in every column: " + tree);
        Set<Column> first = new HashSet<>();
        for (int round = 0; round < columns; round++) {
            List<Key> g = SerializationSuite.roundOrder(cells, round).get(2);
            first.add(g.get(0).column());
            assertEquals(g.get(round == 0 ? 0 : columns - round), tree.get(0), "rotated by one per round");
        }
        assertEquals(first.size(), columns, "every column goes first once in as many rounds as columns");
        assertNotEquals(SerializationSuite.roundOrder(cells, 1).get(0), SerializationSuite.roundOrder(cells, 0).get(0));
    }
}
