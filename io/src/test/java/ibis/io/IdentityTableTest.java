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
                assertEquals(table.putIfAbsent(key, i + 1), 0, "new key " + i);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(table.putIfAbsent(keys.get(i), -1), i + 1, "present key " + i);
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
            table.putIfAbsent(new Object(), i + 1);
        }
        table.clear();
        assertEquals(table.occupiedSlots(), 0);
        Object[] keys = new Object[100];
        for (int round = 0; round < 5000; round++) {
            for (int i = 0; i < keys.length; i++) {
                keys[i] = new Object();
                assertEquals(table.putIfAbsent(keys[i], i + 1), 0);
            }
            assertEquals(table.putIfAbsent(keys[round % keys.length], -1), round % keys.length + 1);
            table.clear();
            assertEquals(table.occupiedSlots(), 0, "round " + round);
            assertEquals(table.get(keys[0]), 0);
        }
    }

    @Test
    public void putMapsASecondObjectToAnExistingHandleAndReplacesAMapping() {
        IdentityTable table = new IdentityTable();
        Object original = new Object();
        Object replacement = new Object();
        assertEquals(table.putIfAbsent(replacement, 1), 0);
        table.put(original, 1); // writeReplace: the original refers to its replacement's handle
        assertEquals(table.get(original), 1);
        table.put(original, 2);
        assertEquals(table.get(original), 2);
        assertEquals(table.get(replacement), 1);
    }
}
