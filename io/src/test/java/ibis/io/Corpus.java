package ibis.io;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInput;
import java.io.ObjectInputStream;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamField;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Date;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A corpus of class shapes for serialization tests: every JDK serialization feature the ibis
 * serialization honours (io/README.md), plus inner, anonymous and generic classes, final fields,
 * Object fields holding every kind of value, JDK collections, shared references and cycles.
 * {@link #samples()} gives named graphs; each builds a fresh graph.
 */
final class Corpus {

    private Corpus() {
    }

    static class Primitives implements Serializable {
        private static final long serialVersionUID = 1L;
        boolean z = true;
        byte b = -7;
        char c = '\u20ac';
        short s = -300;
        int i = 123456789;
        long j = Long.MIN_VALUE + 5;
        float f = -1.5e-7f;
        double d = Math.PI;
        Boolean boxedZ = false;
        Byte boxedB = 9;
        Character boxedC = 'q';
        Short boxedS = 1234;
        Integer boxedI = -1;
        Long boxedJ = 1L << 40;
        Float boxedF = Float.NaN;
        Double boxedD = Double.NEGATIVE_INFINITY;
        Integer nullBoxed;
        String latin1 = "caf\u00e9 au lait";
        String unicode = "\u4e16\u754c \ud83d\ude00";
        String empty = "";
        String nullString;
        String longLatin1 = "abcdefghij".repeat(1000);
        String longUnicode = "\u03b1\u03b2\u03b3".repeat(3000);
    }

    static class Node implements Serializable {
        private static final long serialVersionUID = 1L;
        int value;
        Node next;

        Node(int value) {
            this.value = value;
        }
    }

    static Node list(int n, boolean cyclic) {
        Node head = new Node(0);
        Node tail = head;
        for (int i = 1; i < n; i++) {
            tail.next = new Node(i);
            tail = tail.next;
        }
        if (cyclic) {
            tail.next = head;
        }
        return head;
    }

    /** A final class: references to it are known-type fields. */
    static final class Tree implements Serializable {
        private static final long serialVersionUID = 1L;
        int a;
        int b;
        int c;
        int d;
        Tree left;
        Tree right;
        Tree parent;
    }

    static Tree tree(int depth, Tree parent) {
        Tree t = new Tree();
        t.a = depth;
        t.b = depth * 2;
        t.c = -depth;
        t.d = 7;
        t.parent = parent;
        if (depth > 0) {
            t.left = tree(depth - 1, t);
            t.right = tree(depth - 1, t);
        }
        return t;
    }

    static class Base implements Serializable {
        private static final long serialVersionUID = 1L;
        int baseValue;
        protected String baseName;
    }

    static class Derived extends Base {
        private static final long serialVersionUID = 1L;
        long derivedValue;
        Base peer;
    }

    /** Not serializable: its no-arg constructor must run when a subclass is read. */
    static class NotSerializableParent {
        int parentValue;

        NotSerializableParent() {
            parentValue = 42;
        }

        NotSerializableParent(int v) {
            parentValue = v;
        }
    }

    static class SerializableChild extends NotSerializableParent implements Serializable {
        private static final long serialVersionUID = 1L;
        int childValue;

        SerializableChild(int parent, int child) {
            super(parent);
            childValue = child;
        }
    }

    static final class Point implements Serializable {
        private static final long serialVersionUID = 1L;
        final int x;
        final int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }
    }

    static class WithFinals implements Serializable {
        private static final long serialVersionUID = 1L;
        final int id;
        final String name;
        final Point point;
        final int[] data;
        final List<String> tags;

        WithFinals(int id, String name) {
            this.id = id;
            this.name = name;
            this.point = new Point(id, -id);
            this.data = new int[] {id, id + 1};
            this.tags = new ArrayList<>(List.of("t" + id));
        }
    }

    static class WithTransient implements Serializable {
        private static final long serialVersionUID = 1L;
        int kept = 5;
        transient int dropped = 6;
        transient String droppedRef = "gone";
    }

    /** writeObject/readObject with defaultWriteObject and extra data; restores a transient field. */
    static class Custom implements Serializable {
        private static final long serialVersionUID = 1L;
        int a;
        List<String> items = new ArrayList<>();
        transient int derived;

        Custom(int a) {
            this.a = a;
            this.derived = 2 * a;
            items.add("i" + a);
        }

        private void writeObject(ObjectOutputStream s) throws IOException {
            s.defaultWriteObject();
            s.writeInt(3 * a);
            s.writeUTF("marker");
            s.writeObject(items.size());
        }

        private void readObject(ObjectInputStream s) throws IOException, ClassNotFoundException {
            s.defaultReadObject();
            if (s.readInt() != 3 * a || !"marker".equals(s.readUTF())
                    || !Integer.valueOf(items.size()).equals(s.readObject())) {
                throw new InvalidObjectException("extra data mismatch");
            }
            derived = 2 * a;
        }
    }

    /** putFields/readFields. */
    static class Fields implements Serializable {
        private static final long serialVersionUID = 1L;
        int count;
        String label;
        double ratio;
        Object any;

        private void writeObject(ObjectOutputStream s) throws IOException {
            ObjectOutputStream.PutField p = s.putFields();
            p.put("count", count);
            p.put("label", label);
            p.put("ratio", ratio);
            p.put("any", any);
            s.writeFields();
        }

        private void readObject(ObjectInputStream s) throws IOException, ClassNotFoundException {
            ObjectInputStream.GetField g = s.readFields();
            count = g.get("count", -1);
            label = (String) g.get("label", null);
            ratio = g.get("ratio", 0.0);
            any = g.get("any", null);
        }
    }

    static final class Singleton implements Serializable {
        private static final long serialVersionUID = 1L;
        static final Singleton INSTANCE = new Singleton();

        private Object readResolve() {
            return INSTANCE;
        }
    }

    /** Written as a {@link ReplacedProxy}, which reads back as a Replaced. */
    static class Replaced implements Serializable {
        private static final long serialVersionUID = 1L;
        String text;

        Replaced(String text) {
            this.text = text;
        }

        private Object writeReplace() {
            return new ReplacedProxy(text);
        }
    }

    static class ReplacedProxy implements Serializable {
        private static final long serialVersionUID = 1L;
        String t;

        ReplacedProxy(String t) {
            this.t = t;
        }

        private Object readResolve() {
            return new Replaced(t);
        }
    }

    public static class Ext implements Externalizable {
        private static final long serialVersionUID = 1L;
        int a;
        String s;
        Object ref;

        public Ext() {
        }

        Ext(int a, String s, Object ref) {
            this.a = a;
            this.s = s;
            this.ref = ref;
        }

        @Override
        public void writeExternal(ObjectOutput out) throws IOException {
            out.writeInt(a);
            out.writeUTF(s);
            out.writeObject(ref);
        }

        @Override
        public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
            a = in.readInt();
            s = in.readUTF();
            ref = in.readObject();
        }
    }

    /** serialPersistentFields naming a subset of the real fields; no hooks. */
    static class Persistent implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final ObjectStreamField[] serialPersistentFields = {
            new ObjectStreamField("value", int.class), new ObjectStreamField("name", String.class),
        };
        int value;
        String name;
        int notSerialized;
    }

    /** serialPersistentFields that are not real fields, through putFields/readFields. */
    static class PersistentVirtual implements Serializable {
        private static final long serialVersionUID = 1L;
        private static final ObjectStreamField[] serialPersistentFields = {new ObjectStreamField("total", long.class)};
        transient int a;
        transient int b;
        long total;

        private void writeObject(ObjectOutputStream s) throws IOException {
            s.putFields().put("total", (long) a + b);
            s.writeFields();
        }

        private void readObject(ObjectInputStream s) throws IOException, ClassNotFoundException {
            total = s.readFields().get("total", 0L);
        }
    }

    enum Color { RED, GREEN, BLUE }

    enum Op {
        PLUS {
            @Override
            int apply(int x, int y) {
                return x + y;
            }
        },
        MINUS {
            @Override
            int apply(int x, int y) {
                return x - y;
            }
        };

        abstract int apply(int x, int y);
    }

    static class WithEnums implements Serializable {
        private static final long serialVersionUID = 1L;
        Color color = Color.GREEN;
        Op op = Op.MINUS;
        Object anyEnum = Op.PLUS;
        Color[] colors = {Color.BLUE, null, Color.RED};
        EnumMap<Color, String> map = new EnumMap<>(Map.of(Color.RED, "r", Color.BLUE, "b"));
        EnumSet<Color> set = EnumSet.of(Color.GREEN, Color.BLUE);
    }

    record Pair(String name, int count) implements Serializable {
    }

    record Nested(Pair pair, List<Pair> more, Object any, long[] numbers) implements Serializable {
    }

    static class Arrays2 implements Serializable {
        private static final long serialVersionUID = 1L;
        int[][] matrix = {{1, 2, 3}, {}, null, {4}};
        Object[][] objects = {{"a", 1}, {null}};
        String[] strings = {"x", null, "\u00ff\u0100"};
        Node[] nodes;
        long[][][] cube = new long[2][3][4];
        byte[] empty = new byte[0];
        double[] doubles = {0.1, -0.0, Double.MAX_VALUE};
        char[] chars = "chars".toCharArray();
        boolean[] bools = {true, false, true};
        short[] shorts = {1, -1};
        float[] floats = {1f, Float.MIN_VALUE};
        Object[] mixed;

        Arrays2() {
            Node shared = new Node(9);
            nodes = new Node[] {shared, new Node(1), shared};
            cube[1][2][3] = 77;
            mixed = new Object[] {matrix, matrix[0], shared, new int[0], new String[0]};
        }
    }

    static class Outer implements Serializable {
        private static final long serialVersionUID = 1L;
        int outerValue = 11;
        Inner inner = new Inner();

        class Inner implements Serializable {
            private static final long serialVersionUID = 1L;
            int innerValue = 12;

            int outer() {
                return outerValue;
            }
        }
    }

    abstract static class Shape implements Serializable {
        private static final long serialVersionUID = 1L;

        abstract double area();
    }

    static Shape circle(double r) {
        return new Shape() {
            private static final long serialVersionUID = 1L;
            final double radius = r;

            @Override
            double area() {
                return Math.PI * radius * radius;
            }
        };
    }

    static class Box<T> implements Serializable {
        private static final long serialVersionUID = 1L;
        T value;
        List<T> history = new ArrayList<>();

        Box(T value) {
            this.value = value;
            history.add(value);
        }
    }

    /** Object fields holding every kind of value. */
    static class Holder implements Serializable {
        private static final long serialVersionUID = 1L;
        Object aBoolean = Boolean.TRUE;
        Object aByte = (byte) 1;
        Object aChar = 'c';
        Object aShort = (short) 2;
        Object anInt = 3;
        Object aLong = 4L;
        Object aFloat = 5f;
        Object aDouble = 6.0;
        Object aString = "seven";
        Object anIntArray = new int[] {8};
        Object aStringArray = new String[] {"nine"};
        Object aMatrix = new double[][] {{10}};
        Object anEnum = Color.RED;
        Object aRecord = new Pair("p", 11);
        Object aList = new ArrayList<>(List.of(12, "twelve"));
        Object aMap = new HashMap<>(Map.of("k", 13));
        Object aClass = String.class;
        Object aPrimitiveClass = int.class;
        Object anArrayClass = Node[].class;
        Object nothing;
        Object self;
        Object[] all;

        Holder() {
            self = this;
            all = new Object[] {aBoolean, anIntArray, aRecord, aList, this};
        }
    }

    /** A non-serializable class, for NotSerializableException. */
    static class Unserializable {
        int x;
    }

    static class HoldsUnserializable implements Serializable {
        private static final long serialVersionUID = 1L;
        Object field = new Unserializable();
    }

    /** JDK collections and value classes (they go through their own writeObject/readObject hooks). */
    static Object jdkClasses() {
        Map<String, Object> m = new LinkedHashMap<>();
        Node shared = new Node(1);
        m.put("arrayList", new ArrayList<>(List.of("a", 1, 2.5)));
        m.put("linkedList", new LinkedList<>(List.of(shared, shared)));
        HashMap<String, Object> hm = new HashMap<>();
        hm.put("x", shared);
        hm.put("y", new int[] {1});
        m.put("hashMap", hm);
        m.put("treeMap", new TreeMap<>(Map.of("b", 2, "a", 1)));
        m.put("treeSetReversed", new TreeSet<>(Collections.reverseOrder()) {
            private static final long serialVersionUID = 1L;
            {
                add(3);
                add(1);
            }
        });
        m.put("hashSet", new HashSet<>(List.of("p", "q")));
        m.put("linkedHashSet", new LinkedHashSet<>(List.of(3, 1, 2)));
        m.put("arrayDeque", new ArrayDeque<>(List.of(5, 6)));
        m.put("listOf", List.of(1, 2, 3));
        m.put("mapOf", Map.of("one", 1));
        m.put("unmodifiable", Collections.unmodifiableList(new ArrayList<>(List.of(shared))));
        m.put("asList", Arrays.asList("u", "v"));
        m.put("emptyList", Collections.emptyList());
        m.put("bigInteger", new BigInteger("123456789012345678901234567890"));
        m.put("bigDecimal", new BigDecimal("-3.14159265358979323846"));
        m.put("date", new Date(1_700_000_000_000L));
        m.put("uuid", new UUID(1234, 5678));
        m.put("sharedAgain", shared);
        return m;
    }

    /** Named sample graphs. */
    /** A link with JDK hooks that only default-write and default-read, and a field of its own type. */
    static class HookedLink implements Serializable {
        private static final long serialVersionUID = 1L;
        int v;
        HookedLink next;

        static HookedLink chain(int n) {
            HookedLink h = null;
            for (int i = 0; i < n; i++) {
                HookedLink x = new HookedLink();
                x.v = i;
                x.next = h;
                h = x;
            }
            return h;
        }

        private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
            out.defaultWriteObject();
        }

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
        }
    }

    static Map<String, Supplier<Object>> samples() {
        Map<String, Supplier<Object>> s = new LinkedHashMap<>();
        s.put("primitives and strings", Primitives::new);
        s.put("short list", () -> list(10, false));
        s.put("cyclic list", () -> list(300, true));
        s.put("tree with parent pointers (final class fields)", () -> tree(6, null));
        s.put("inheritance", () -> {
            Derived d = new Derived();
            d.baseValue = 1;
            d.baseName = "base";
            d.derivedValue = 2;
            d.peer = d;
            return d;
        });
        s.put("non-serializable superclass", () -> new SerializableChild(5, 6));
        s.put("final fields", () -> new WithFinals(3, "finals"));
        s.put("transient fields", WithTransient::new);
        s.put("writeObject/readObject", () -> {
            Custom c = new Custom(4);
            return new Object[] {c, c, new Custom(5)};
        });
        s.put("putFields/readFields", () -> {
            Fields f = new Fields();
            f.count = 3;
            f.label = "label";
            f.ratio = 0.25;
            f.any = List.of(f.label);
            return f;
        });
        s.put("readResolve singleton", () -> new Object[] {Singleton.INSTANCE, Singleton.INSTANCE});
        s.put("writeReplace", () -> {
            Replaced r = new Replaced("rep");
            return new ArrayList<>(List.of(r, r));
        });
        s.put("Externalizable", () -> {
            Ext e = new Ext(1, "ext", null);
            e.ref = e;
            return new Ext(2, "outer", e);
        });
        s.put("serialPersistentFields", () -> {
            Persistent p = new Persistent();
            p.value = 8;
            p.name = "p";
            return p;
        });
        s.put("serialPersistentFields through putFields/readFields", () -> {
            PersistentVirtual v = new PersistentVirtual();
            v.a = 1;
            v.b = 2;
            v.total = 3;
            return v;
        });
        s.put("enums", WithEnums::new);
        s.put("records", () -> {
            Pair p = new Pair("a", 1);
            return new Nested(p, List.of(p, new Pair("b", 2)), p, new long[] {1, 2});
        });
        s.put("arrays of every kind", Arrays2::new);
        s.put("inner class", () -> new Outer().inner);
        s.put("anonymous class", () -> circle(2.0));
        s.put("generic class", () -> new Box<>(new Box<>("inner")));
        s.put("Object fields holding every kind of value", Holder::new);
        s.put("JDK collections and values", Corpus::jdkClasses);
        s.put("a hooked self-typed chain of 1 (no plain class cached yet)", () -> HookedLink.chain(1));
        s.put("a hooked self-typed chain of 50", () -> HookedLink.chain(50));
        s.put("a ConcurrentHashMap (serialPersistentFields that are no fields)", () -> {
            java.util.concurrent.ConcurrentHashMap<String, Object> m = new java.util.concurrent.ConcurrentHashMap<>();
            m.put("a", new Node(3));
            m.put("b", List.of(1, 2));
            return m;
        });
        s.put("null", () -> null);
        s.put("a bare string", () -> "just a string");
        s.put("a bare int array", () -> new int[] {1, 2, 3});
        return s;
    }
}
