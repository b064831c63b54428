package ibis.io;

import java.util.Arrays;

/**
 * The writer's handle table: object identity to handle number.
 *
 * <p>Layout, chosen for the common case of a message full of objects seen once (a tree, a list):
 * the hash part is an {@code int[]} of entry numbers (open addressing, linear probing on
 * {@link System#identityHashCode}, at most a quarter full), and the entries (object, handle) are
 * kept in insertion order in dense arrays. Entering a new object therefore touches one random
 * cache line (its slot in the small {@code int[]}) and appends to two arrays written front to back;
 * the one reference store goes to a dense array, so consecutive stores share cache lines and GC
 * cards. {@link #clear()} empties the slots of a small message (up to 32 objects, whose slots are
 * remembered) one by one, bulk-fills the hash part after a message that took more than a 32nd of
 * it, and otherwise finds each entry's slot again from its object, so a message after a much
 * larger one stays cheap and large messages do not pay for remembering slots; cleared entries drop
 * their references.
 */
final class IdentityTable {

    /** Entries whose slot is remembered: clearing a message of at most this many objects costs a store each. */
    private static final int FIRST = 32;

    private int[] slots;      // entry number + 1 per slot; 0 = empty
    private Object[] objects; // entries, in insertion order
    private int[] handles;    // the handle of each entry
    private final int[] firstSlots = new int[FIRST]; // the slots of the first FIRST entries (for clear)
    private int size;
    private int shift;        // 32 - log2(slots.length)

    IdentityTable() {
        allocate(256);
    }

    private void allocate(int capacity) {
        slots = new int[capacity];
        int entries = capacity >>> 2;
        objects = new Object[entries];
        handles = new int[entries];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
    }

    private int slot(Object key) {
        return (System.identityHashCode(key) * 0x9E3779B9) >>> shift;
    }

    /** The handle of {@code key}, or 0 when absent. */
    int get(Object key) {
        int[] s = slots;
        int mask = s.length - 1;
        for (int i = slot(key);; i = (i + 1) & mask) {
            int e = s[i];
            if (e == 0) {
                return 0;
            }
            if (objects[e - 1] == key) {
                return handles[e - 1];
            }
        }
    }

    /**
     * Returns the handle of {@code key} when present; otherwise maps it to {@code handle} and
     * returns 0. One hash and one probe sequence for the common "new object" case.
     */
    int putIfAbsent(Object key, int handle) {
        int n = size;
        if (n >= objects.length) {
            grow();
        }
        int[] s = slots;
        int mask = s.length - 1;
        int i = slot(key);
        for (int e; (e = s[i]) != 0; i = (i + 1) & mask) {
            if (objects[e - 1] == key) {
                return handles[e - 1];
            }
        }
        append(i, key, handle);
        return 0;
    }

    /** Maps {@code key} to {@code handle} (positive), replacing a mapping it had. */
    void put(Object key, int handle) {
        if (size >= objects.length) {
            grow();
        }
        int[] s = slots;
        int mask = s.length - 1;
        int i = slot(key);
        for (int e; (e = s[i]) != 0; i = (i + 1) & mask) {
            if (objects[e - 1] == key) {
                handles[e - 1] = handle;
                return;
            }
        }
        append(i, key, handle);
    }

    private void append(int slot, Object key, int handle) {
        int n = size;
        objects[n] = key;
        handles[n] = handle;
        slots[slot] = n + 1;
        if (n < FIRST) {
            firstSlots[n] = slot;
        }
        size = n + 1;
    }

    private void grow() {
        Object[] oldObjects = objects;
        int[] oldHandles = handles;
        int oldSize = size;
        allocate(slots.length * 2);
        size = 0;
        for (int j = 0; j < oldSize; j++) {
            put(oldObjects[j], oldHandles[j]);
        }
    }

    /** Slots of the hash part in use (for tests: 0 after {@link #clear()}). */
    int occupiedSlots() {
        int used = 0;
        for (int e : slots) {
            if (e != 0) {
                used++;
            }
        }
        return used;
    }

    /** Forgets all entries. */
    void clear() {
        int[] s = slots;
        int n = size;
        if (n <= FIRST) {
            for (int j = 0; j < n; j++) {
                s[firstSlots[j]] = 0;
            }
        } else if (n > s.length >>> 5) {
            Arrays.fill(s, 0); // a bulk fill is cheaper than finding many entries again
        } else {
            // A message of some objects after a much larger one: find the entries' slots again.
            int mask = s.length - 1;
            for (int j = 0; j < n; j++) {
                int i = j < FIRST ? firstSlots[j] : slot(objects[j]);
                while (s[i] != j + 1) {
                    i = (i + 1) & mask;
                }
                s[i] = 0;
            }
        }
        Arrays.fill(objects, 0, n, null);
        size = 0;
    }
}
