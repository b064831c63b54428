package ibis.ipl.tck;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * A plain serializable list link (no writeObject of its own, so the JDK streams recurse once per
 * link), and the shape of what a message carried, compared between the processes of a test.
 */
final class Link implements Serializable {
    private static final long serialVersionUID = 1L;

    int value;
    Link next;

    /** A list of {@code n} links with values 0 .. n-1. */
    static Link chain(int n) {
        Link head = null;
        for (int i = n - 1; i >= 0; i--) {
            Link l = new Link();
            l.value = i;
            l.next = head;
            head = l;
        }
        return head;
    }

    /**
     * The shape of the objects of a message: the objects and, for arrays of objects, their elements,
     * in order; each as the index of the first item that is the same object, and a link also as
     * "L" plus the length of its list (-1 when the values are not 0, 1, 2, ... from the list's
     * first value on). Equal shapes mean equal identities and lists.
     */
    static String shape(List<Object> objects) {
        List<Object> items = new ArrayList<>();
        for (Object o : objects) {
            items.add(o);
            if (o instanceof Object[] array) {
                items.addAll(java.util.Arrays.asList(array));
            }
        }
        IdentityHashMap<Object, Integer> first = new IdentityHashMap<>();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < items.size(); i++) {
            Object item = items.get(i);
            b.append(i == 0 ? "" : " ").append(first.computeIfAbsent(item, k -> first.size()));
            if (item instanceof Link l) {
                b.append('L').append(length(l));
            }
        }
        return b.toString();
    }

    private static int length(Link head) {
        int n = 0;
        int expected = head.value;
        for (Link l = head; l != null; l = l.next) {
            if (l.value != expected++) {
                return -1;
            }
            n++;
        }
        return n;
    }
}
