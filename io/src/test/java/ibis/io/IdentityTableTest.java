package ibis.io;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/** The writer's handle table: identity (not equality), growth, re-mapping and clearing. */
public class IdentityTableTest {

    @Test
    public void handlesAreFoundByIdentityAcrossGrowthAndGoneAfterClear() {
        IdentityTable table = new IdentityTable();
        for (int round = 0; round < 3; round++) {
            List<Object> keys = new ArrayList<>();
            int n = round == 1 ? 10 : 5000; // large, small after large, large again
            for (int i = 0; i < n; i++) {
                Object key = new String("equal"); // equal but distinct objects: identity must decide
                keys.add(key);
                assertEquals(table.putIfAbsent(key), 0, "new key " + i);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(table.putIfAbsent(keys.get(i)), i + 1, "present key " + i);
                assertEquals(table.get(keys.get(i)), i + 1);
            }
            assertEquals(table.get(new String("equal")), 0);
            table.clear();
            assertEquals(table.occupiedSlots(), 0);
            for (Object key : keys) {
                assertEquals(table.get(key), 0, "after clear");
            }
        }
    }

    /**
     * After a large message the table stays large, and clearing a small message finds its entries
     * again instead of sweeping the table; a slot left taken would fill the table up over many
     * small messages until an insert probed forever.
     */
    @Test(timeOut = 60_000)
    public void clearingManySmallMessagesAfterALargeOneLeavesNoSlotTaken() {
        IdentityTable table = new IdentityTable();
        for (int i = 0; i < 5000; i++) {
            table.putIfAbsent(new Object());
        }
        table.clear();
        assertEquals(table.occupiedSlots(), 0);
        Object[] keys = new Object[100];
        for (int round = 0; round < 5000; round++) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] = new Object();
                assertEquals(table.putIfAbsent(keys[i]), 0);
            }
            assertEquals(table.putIfAbsent(keys[round % keys.length]), round % keys.length + 1);
            table.clear();
            assertEquals(table.occupiedSlots(), 0, "round " + round);
            assertEquals(table.get(keys[0]), 0);
        }
    }

    @Test
    public void aliasesShareAHandleAndSkippedHandlesTakeNoEntry() {
        IdentityTable table = new IdentityTable();
        for (int round = 0; round < 2; round++) { // the second round after a clear
            List<Object> keys = new ArrayList<>();
            List<Object> originals = new ArrayList<>();
            for (int i = 0; i < 3000; i++) { // large enough to grow the table with skips and aliases in it
                if (i % 10 == 3) {
                    table.skip(); // a primitive array of writeArray: a handle and no object
                    keys.add(null);
                    continue;
                }
                Object key = new Object();
                keys.add(key);
                if (i % 10 == 7) {
                    assertEquals(table.putIfAbsent(key), 0); // writeReplace: the replacement enters...
                    Object original = new Object();
                    table.alias(original, i + 1); // ...and the original refers to its handle
                    originals.add(original);
                } else {
                    assertEquals(table.putIfAbsent(key), 0);
                }
                assertEquals(table.size(), i + 1);
            }
            for (int i = 0; i < keys.size(); i++) {
                if (keys.get(i) != null) {
                    assertEquals(table.get(keys.get(i)), i + 1, "key " + i);
                    assertEquals(table.putIfAbsent(keys.get(i)), i + 1, "key " + i);
                }
            }
            for (int k = 0; k < originals.size(); k++) {
                int handle = 10 * k + 8;
                assertEquals(table.get(originals.get(k)), handle, "original " + k);
                assertEquals(table.putIfAbsent(originals.get(k)), handle, "original " + k);
            }
            assertEquals(table.size(), keys.size(), "no entry for a present object or an alias");
            table.clear();
            assertEquals(table.size(), 0);
            assertEquals(table.occupiedSlots(), 0);
            assertEquals(table.get(originals.get(0)), 0, "aliases are forgotten too");
            assertEquals(table.get(keys.get(0)), 0);
        }
        // Messages of 2 and of 100 handles, some skipped, after a large one: the small one is
        // cleared from the remembered slots, the other by finding its entries again.
        for (int n : new int[] {2, 100}) {
            Object[] keys = new Object[n];
            for (int i = 0; i < n; i++) {
                if (i % 10 == 0) {
                    table.skip();
                } else {
                    keys[i] = new Object();
                    assertEquals(table.putIfAbsent(keys[i]), 0);
                }
            }
            assertEquals(table.get(keys[1]), 2);
            assertEquals(table.get(keys[n - 1]), n);
            table.clear();
            assertEquals(table.occupiedSlots(), 0, n + " handles");
        }
    }
}
