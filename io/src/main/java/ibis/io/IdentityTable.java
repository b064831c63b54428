package ibis.io;

/**
 * The writer's handle table: object identity to handle number, open addressing with linear
 * probing on {@link System#identityHashCode}, kept at most a quarter full so that almost every
 * probe sequence ends at its first slot. {@link #clear()} costs time proportional to the entries
 * added since the last clear (the used slots are remembered), not to the capacity, so a small
 * message after a large one stays cheap; cleared slots drop their references.
 */
final class IdentityTable {

    private Object[] keys;
    private int[] values;
    private int[] used;   // slots in use, in insertion order
    private int size;
    private int shift;    // 32 - log2(capacity)

    IdentityTable() {
        allocate(256);
    }

    private void allocate(int capacity) {
        keys = new Object[capacity];
        values = new int[capacity];
        used = new int[capacity >>> 2];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
    }

    private int slot(Object key) {
        return (System.identityHashCode(key) * 0x9E3779B9) >>> shift;
    }

    /** The handle of {@code key}, or 0 when absent. */
    int get(Object key) {
        Object[] k = keys;
        int mask = k.length - 1;
        for (int i = slot(key);; i = (i + 1) & mask) {
            Object present = k[i];
            if (present == key) {
                return values[i];
            }
            if (present == null) {
                return 0;
            }
        }
    }

    /**
     * Returns the handle of {@code key} when present; otherwise maps it to {@code handle} and
     * returns 0. One hash and one probe sequence for the common "new object" case.
     */
    int putIfAbsent(Object key, int handle) {
        if (size >= used.length) {
            grow();
        }
        Object[] k = keys;
        int mask = k.length - 1;
        int i = slot(key);
        for (Object present; (present = k[i]) != null; i = (i + 1) & mask) {
            if (present == key) {
                return values[i];
            }
        }
        k[i] = key;
        values[i] = handle;
        used[size++] = i;
        return 0;
    }

    /** Maps {@code key} (absent) to {@code handle} (positive). */
    void put(Object key, int handle) {
        if (size >= used.length) {
            grow();
        }
        Object[] k = keys;
        int mask = k.length - 1;
        int i = slot(key);
        while (k[i] != null) {
            if (k[i] == key) {
                values[i] = handle;
                return;
            }
            i = (i + 1) & mask;
        }
        k[i] = key;
        values[i] = handle;
        used[size++] = i;
    }

    private void grow() {
        Object[] oldKeys = keys;
        int[] oldValues = values;
        int[] oldUsed = used;
        int oldSize = size;
        allocate(oldKeys.length * 2);
        size = 0;
        for (int j = 0; j < oldSize; j++) {
            int i = oldUsed[j];
            put(oldKeys[i], oldValues[i]);
        }
    }

    /** Forgets all entries. */
    void clear() {
        Object[] k = keys;
        int[] u = used;
        for (int j = 0; j < size; j++) {
            k[u[j]] = null;
        }
        size = 0;
    }
}
