package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/**
 * Handle numbering after arrays of objects: an array written whole (as the IPL's
 * writeArray(Object[]) does, read back with readObject) or element by element, and primitive
 * arrays written with writeArray (which take a handle number but are never referenced), must leave
 * the reader's handles equal to the writer's, so that objects written after them resolve to the
 * right copies. Both object serializations, over many messages of one stream.
 */
public class ArrayIdentityTest {

    static final class Item implements Serializable {
        private static final long serialVersionUID = 1L;
        final int id;
        Item next;
        Object other;

        Item(int id) {
            this.id = id;
        }
    }

    @DataProvider
    public static Object[][] serializations() {
        return new Object[][] {{"ibis"}, {"sun"}};
    }

    @Test(dataProvider = "serializations", timeOut = 60_000)
    public void objectsWrittenAfterAnArrayOfObjectsResolveToTheSameCopiesAsItsElements(String name) throws Exception {
        Wire wire = new Wire(1 << 12, 0, 1);
        SerializationOutput out = wire.output(name);
        SerializationInput in = wire.input(name);
        Item a = new Item(1);
        Item b = new Item(2);
        a.next = b;
        Object[] array = {a, b, a, new int[] {3}};
        out.writeObject(array);             // WriteMessage.writeArray(Object[])
        out.writeArray(new int[] {4, 5}, 0, 2);
        out.writeObject(a);
        out.writeObject(b);
        out.writeObject(array);
        wire.endMessage(out);
        Object[] read = (Object[]) in.readObject();
        in.readObject();
        Item a2 = (Item) in.readObject();
        Item b2 = (Item) in.readObject();
        assertSame(in.readObject(), read);
        wire.endMessage(in);
        assertSame(read[0], a2);
        assertSame(read[1], b2);
        assertSame(read[2], a2);
        assertSame(a2.next, b2);
    }

    /**
     * Random messages of shared objects, arrays of objects (written whole and element by element),
     * strings and primitive arrays; every object of a message must keep its identity among all the
     * copies read, also after the handle tables grow and are cleared between messages.
     */
    @Test(dataProvider = "serializations", timeOut = 60_000)
    public void randomMessagesKeepIdentitiesAcrossArrays(String name) throws Exception {
        Random random = new Random(42);
        Wire wire = new Wire(256 + random.nextInt(4096), 7, 1);
        SerializationOutput out = wire.output(name);
        SerializationInput in = wire.input(name);
        for (int message = 0; message < 200; message++) {
            int poolSize = 1 + random.nextInt(message % 3 == 0 ? 2000 : 40);
            Item[] pool = new Item[poolSize];
            for (int i = 0; i < poolSize; i++) {
                pool[i] = new Item(i);
            }
            for (Item item : pool) {
                item.next = pool[random.nextInt(poolSize)];
                if (random.nextBoolean()) {
                    item.other = new Object[] {pool[random.nextInt(poolSize)], new int[1]};
                }
            }
            int writes = 1 + random.nextInt(20);
            List<Object> written = new ArrayList<>();
            List<Integer> kinds = new ArrayList<>();
            for (int k = 0; k < writes; k++) {
                int kind = random.nextInt(4);
                kinds.add(kind);
                if (kind == 0) {
                    Item item = pool[random.nextInt(poolSize)];
                    out.writeObject(item);
                    written.add(item);
                } else if (kind == 1) {
                    Object[] array = new Object[random.nextInt(50)];
                    for (int i = 0; i < array.length; i++) {
                        array[i] = random.nextInt(5) == 0 ? "s" + i : pool[random.nextInt(poolSize)];
                    }
                    out.writeObject(array);
                    written.add(array);
                } else if (kind == 2) {
                    int[] ints = new int[random.nextInt(10)];
                    out.writeArray(ints, 0, ints.length);
                    written.add(ints);
                } else {
                    Object[] array = new Object[random.nextInt(5)];
                    for (int i = 0; i < array.length; i++) {
                        array[i] = pool[random.nextInt(poolSize)];
                    }
                    out.writeArray(array, 0, array.length);
                    written.add(array);
                }
            }
            wire.endMessage(out);
            IdentityHashMap<Object, Object> copyOf = new IdentityHashMap<>();
            for (int k = 0; k < writes; k++) {
                Object original = written.get(k);
                Object copy;
                if (kinds.get(k) == 3) {
                    Object[] elements = new Object[((Object[]) original).length];
                    in.readArray(elements, 0, elements.length);
                    copy = elements;
                } else {
                    copy = in.readObject();
                }
                if (kinds.get(k) == 0 || kinds.get(k) == 1) {
                    sameCopy(copyOf, original, copy, name, message);
                }
                if (original instanceof Object[] array) {
                    for (int i = 0; i < array.length; i++) {
                        if (array[i] instanceof Item) {
                            sameCopy(copyOf, array[i], ((Object[]) copy)[i], name, message);
                        }
                    }
                }
            }
            wire.endMessage(in);
        }
    }

    /**
     * Checks that {@code copy} is the one copy of {@code original} and so on along its links
     * (iterative: lists are long).
     */
    private static void sameCopy(IdentityHashMap<Object, Object> copyOf, Object original, Object copy, String name,
            int message) {
        while (original != null) {
            Object earlier = copyOf.putIfAbsent(original, copy);
            if (earlier != null) {
                assertSame(copy, earlier, name + ", message " + message + ": one object read as two");
                return;
            }
            if (!(original instanceof Item item)) {
                return;
            }
            assertEquals(((Item) copy).id, item.id);
            original = item.next;
            copy = ((Item) copy).next;
        }
    }
}
