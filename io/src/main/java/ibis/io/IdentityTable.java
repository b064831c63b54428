package ibis.io;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The writer's handle table: object identity to handle number.
 *
 * <p>Handles are numbered 1, 2, ... in the order the writer gives them out, and entry {@code j}
 * of the table is the object of handle {@code j + 1}, so no handle is stored per entry. A handle
 * given to no object (a primitive array written by {@code writeArray}, which is never referenced
 * again) takes an empty entry ({@link #skip()}); an object that shares the handle of another (the
 * original of a {@code writeReplace}) goes into a small side map ({@link #alias}), looked at only
 * when the main table misses and an alias exists.
 *
 * <p>Layout, chosen for the common case of a message full of objects seen once (a tree, a list):
 * the hash part is an {@code int[]} of entry numbers (open addressing, linear probing on
 * {@link System#identityHashCode}, at most a quarter full), and the objects are kept in insertion
 * order in a dense array. Entering a new object therefore touches one random cache line (its slot
 * in the small {@code int[]}) and appends to one array written front to back; the one reference
 * store goes to a dense array, so consecutive stores share cache lines and GC cards.
 * {@link #clear()} empties the slots of a small message (up to 32 objects, whose slots are
 * remembered) one by one, bulk-fills the hash part after a message that took more than a 32nd of
 * it, and otherwise finds each entry's slot again from its object, so a message after a much
 * larger one stays cheap and large messages do not pay for remembering slots; cleared entries drop
 * their references. (Measured on the 1023-node tree, JMH: storing a handle per entry cost about
 * 0.3 µs of 8.7.)
 */
final class IdentityTable {

    /** Entries whose slot is remembered: clearing a message of at most this many objects costs a store each. */
    private static final int FIRST = 32;
    /** firstSlots value of an entry that has no slot (a skipped handle). */
    private static final int NO_SLOT = -1;

    private int[] slots;      // entry number + 1 per slot; 0 = empty
    private Object[] objects; // entries, in handle order; null for a skipped handle
    private final int[] firstSlots = new int[FIRST]; // the slots of the first FIRST entries (for clear)
    private int size;
    private int shift;        // 32 - log2(slots.length)
    private Map<Object, Integer> aliases; // objects sharing another object's handle (made on first use)
    private boolean aliased;              // aliases has entries

    IdentityTable() {
        allocate(256);
    }

    private void allocate(int capacity) {
        slots = new int[capacity];
        objects = new Object[capacity >>> 2];
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
                return aliased ? alias(key) : 0;
            }
            if (objects[e - 1] == key) {
                return e;
            }
        }
    }

    /**
     * Returns the handle of {@code key} when present; otherwise enters it with the next handle
     * ({@code size() + 1} before the call) and returns 0. One hash and one probe sequence for the
     * common "new object" case.
     */
    int putIfAbsent(Object key) {
        if (size >= objects.length) {
            grow();
        }
        int[] s = slots;
        int mask = s.length - 1;
        int i = slot(key);
        for (int e; (e = s[i]) != 0; i = (i + 1) & mask) {
            if (objects[e - 1] == key) {
                return e;
            }
        }
        if (aliased) {
            int a = alias(key);
            if (a != 0) {
                return a;
            }
        }
        append(i, key);
        return 0;
    }

    /** Gives the next handle to no object (it can never be referenced again). */
    void skip() {
        if (size >= objects.length) {
            grow();
        }
        int n = size;
        objects[n] = null;
        if (n < FIRST) {
            firstSlots[n] = NO_SLOT;
        }
        size = n + 1;
    }

    /** Makes {@code key}, which must be absent, refer to the existing {@code handle}. */
    void alias(Object key, int handle) {
        if (aliases == null) {
            aliases = new IdentityHashMap<>();
        }
        aliases.put(key, handle);
        aliased = true;
    }

    private int alias(Object key) {
        Integer h = aliases.get(key);
        return h == null ? 0 : h;
    }

    /** Handles given out since the last {@link #clear()}. */
    int size() {
        return size;
    }

    private void append(int slot, Object key) {
        int n = size;
        objects[n] = key;
        slots[slot] = n + 1;
        if (n < FIRST) {
            firstSlots[n] = slot;
        }
        size = n + 1;
    }

    private void grow() {
        Object[] old = objects;
        int oldSize = size;
        allocate(slots.length * 2);
        System.arraycopy(old, 0, objects, 0, oldSize);
        int[] s = slots;
        int mask = s.length - 1;
        for (int j = 0; j < oldSize; j++) {
            Object key = old[j];
            if (key == null) {
                continue;
            }
            int i = slot(key);
            while (s[i] != 0) {
                i = (i + 1) & mask;
            }
            s[i] = j + 1;
            if (j < FIRST) {
                firstSlots[j] = i;
            }
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
                int i = firstSlots[j];
                if (i != NO_SLOT) {
                    s[i] = 0;
                }
            }
        } else if (n > s.length >>> 5) {
            Arrays.fill(s, 0); // a bulk fill is cheaper than finding many entries again
        } else {
            // A message of some objects after a much larger one: find the entries' slots again.
            int mask = s.length - 1;
            for (int j = 0; j < n; j++) {
                int i;
                if (j < FIRST) {
                    i = firstSlots[j];
                    if (i == NO_SLOT) {
                        continue;
                    }
                } else {
                    Object key = objects[j];
                    if (key == null) {
                        continue;
                    }
                    i = slot(key);
                }
                while (s[i] != j + 1) {
                    i = (i + 1) & mask;
                }
                s[i] = 0;
            }
        }
        Arrays.fill(objects, 0, n, null);
        size = 0;
        if (aliased) {
            aliases.clear();
            aliased = false;
        }
    }
}
