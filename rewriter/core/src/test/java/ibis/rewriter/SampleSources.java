package ibis.rewriter;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sample classes the rewriter tests compile at test time: one per rule of io/README.md
 * ("Which classes are rewritten"), the contract's Base/Foo/Bar example, and the class shapes of
 * the rewriter's requirements (inner, anonymous, local, generic classes, final fields, Object fields).
 */
final class SampleSources {

    private SampleSources() {
    }

    /** Class name to expected outcome in {@link #corpus()} (classes not listed: not checked). */
    static final Map<String, ClassOutcome.Status> EXPECTED = new LinkedHashMap<>();

    static {
        ClassOutcome.Status rewritten = ClassOutcome.Status.REWRITTEN;
        ClassOutcome.Status skipped = ClassOutcome.Status.SKIPPED;
        ClassOutcome.Status none = ClassOutcome.Status.NOT_SERIALIZABLE;
        EXPECTED.put("sample.Base", rewritten);
        EXPECTED.put("sample.Foo", rewritten);
        EXPECTED.put("sample.Bar", rewritten);
        EXPECTED.put("sample.Shapes", rewritten);
        EXPECTED.put("sample.FinalFields", rewritten);
        EXPECTED.put("sample.Outer", rewritten);
        EXPECTED.put("sample.Outer$Inner", rewritten);
        EXPECTED.put("sample.Outer$Nested", rewritten);
        EXPECTED.put("sample.Outer$1", rewritten);        // anonymous subclass of Base
        EXPECTED.put("sample.Outer$1Local", rewritten);
        EXPECTED.put("sample.Box", rewritten);
        EXPECTED.put("sample.ViaInterface", rewritten);
        EXPECTED.put("sample.Marker", none);
        EXPECTED.put("sample.Plain", none);
        EXPECTED.put("sample.OnTopOfPlain", rewritten);
        EXPECTED.put("sample.SubOfProtectedCtor", rewritten);
        EXPECTED.put("sample.SubOfPackageCtor", skipped);
        EXPECTED.put("sample.SubOfNoNoArg", skipped);
        EXPECTED.put("sample.WithWriteObject", skipped);
        EXPECTED.put("sample.WithReadObject", skipped);
        EXPECTED.put("sample.WithReadObjectNoData", skipped);
        EXPECTED.put("sample.WithPersistentFields", skipped);
        EXPECTED.put("sample.WithWriteReplace", skipped);
        EXPECTED.put("sample.WithReadResolve", skipped);
        EXPECTED.put("sample.SubReplace", skipped);         // inherits a protected writeReplace
        EXPECTED.put("sample.SubPrivateReplace", rewritten); // a private writeReplace is not inherited
        EXPECTED.put("sample.SubOfHooked", skipped);
        EXPECTED.put("sample.Ext", skipped);
        EXPECTED.put("sample.Color", skipped);
        EXPECTED.put("sample.Color$1", skipped);             // enum constant with a body
        EXPECTED.put("sample.Point", skipped);
        EXPECTED.put("sample.Leaf", rewritten);
        EXPECTED.put("sample.ReplacedLeaf", skipped);
        EXPECTED.put("sample.HasKnown", rewritten);
        EXPECTED.put("sample.Node", rewritten);
        EXPECTED.put("sample.Link", rewritten);
        EXPECTED.put("sample.SubLink", rewritten);
        EXPECTED.put("sample.AbstractShape", rewritten);
        EXPECTED.put("sample.Circle", rewritten);
        EXPECTED.put("sample.Wide", rewritten);
        EXPECTED.put("sample.Spill", rewritten);
        EXPECTED.put("sample.Level1", rewritten);
        EXPECTED.put("sample.Level2", rewritten);
        EXPECTED.put("sample.Level3", rewritten);
    }

    /** Part of the reason expected for each skipped class. */
    static final Map<String, String> REASONS = Map.ofEntries(
            Map.entry("sample.SubOfPackageCtor", "not accessible"),
            Map.entry("sample.SubOfNoNoArg", "has no no-argument constructor"),
            Map.entry("sample.WithWriteObject", "declares writeObject(ObjectOutputStream)"),
            Map.entry("sample.WithReadObject", "declares readObject(ObjectInputStream)"),
            Map.entry("sample.WithReadObjectNoData", "declares readObjectNoData()"),
            Map.entry("sample.WithPersistentFields", "declares serialPersistentFields"),
            Map.entry("sample.WithWriteReplace", "has writeReplace()"),
            Map.entry("sample.WithReadResolve", "has readResolve()"),
            Map.entry("sample.SubReplace", "has writeReplace() declared in sample.ReplaceBase"),
            Map.entry("sample.SubOfHooked", "superclass sample.WithWriteObject declares writeObject"),
            Map.entry("sample.Ext", "Externalizable"),
            Map.entry("sample.Color", "an enum"),
            Map.entry("sample.Color$1", "an enum"),
            Map.entry("sample.Point", "a record"),
            Map.entry("sample.ReplacedLeaf", "has writeReplace()"));

    /** The sample sources (path to text), compiled with --release 17 (or 25). */
    static Map<String, String> corpus() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("sample/Base.java", """
                package sample;
                public class Base implements java.io.Serializable {
                    int x;
                    public Base() { }
                    public Base(int x) { this.x = x; }
                }
                """);
        s.put("sample/Bar.java", """
                package sample;
                public final class Bar implements java.io.Serializable {
                    public int v;
                    public Bar() { }
                    public Bar(int v) { this.v = v; }
                }
                """);
        s.put("sample/Foo.java", """
                package sample;
                public class Foo extends Base {
                    int a; String s; Foo f; int[] arr; Bar b; transient int t; static int z;
                    public Foo() { }
                    public static Foo make() {
                        Foo foo = new Foo(); foo.x = 1; foo.a = 2; foo.s = "s\u00e9"; foo.f = foo;
                        foo.arr = new int[] {3, 4}; foo.b = new Bar(5); foo.t = 6;
                        return foo;
                    }
                }
                """);
        s.put("sample/Shapes.java", """
                package sample;
                import java.util.*;
                public class Shapes implements java.io.Serializable {
                    boolean z; byte b; char c; short sh; int i; long j; float f; double d;
                    String str; String nullStr; Object o; Object o2; Object o3; Object o4; Integer boxed; Long boxedLong;
                    int[] ints; long[][] longs; Object[] objs; String[] strings; List<String> list; Map<String, Integer> map;
                    Class<?> cls; Color color; Color color2; Runnable notSet; double[] doubles; char[] chars;
                    public static Shapes make() {
                        Shapes x = new Shapes();
                        x.z = true; x.b = -7; x.c = '\u20ac'; x.sh = -300; x.i = 123456789; x.j = -1L << 40;
                        x.f = 1.5f; x.d = Math.PI; x.str = "hello \u4e16\u754c"; x.o = "an object string";
                        x.o2 = new int[] {1, 2, 3}; x.o3 = Color.GREEN; x.o4 = new Bar(8); x.boxed = 42; x.boxedLong = 43L;
                        x.ints = new int[] {9, 8, 7}; x.longs = new long[][] {{1, 2}, null, {3}};
                        x.objs = new Object[] {"a", 1, null, new Base(3), Color.RED};
                        x.strings = new String[] {"p", null, "q"};
                        x.list = new ArrayList<>(List.of("l1", "l2")); x.map = new HashMap<>(Map.of("k", 1));
                        x.cls = Shapes.class; x.color = Color.RED; x.color2 = null;
                        x.doubles = new double[] {0.5, -0.0}; x.chars = "chars".toCharArray();
                        return x;
                    }
                }
                """);
        s.put("sample/FinalFields.java", """
                package sample;
                public class FinalFields implements java.io.Serializable {
                    private final int id; private final String name; private final Bar bar; private final long[] data;
                    public FinalFields(int id, String name, Bar bar, long[] data) {
                        this.id = id; this.name = name; this.bar = bar; this.data = data;
                    }
                    public static FinalFields make() { return new FinalFields(11, "eleven", new Bar(12), new long[] {13}); }
                }
                """);
        s.put("sample/Outer.java", """
                package sample;
                import java.io.Serializable;
                public class Outer implements Serializable {
                    int o = 1;
                    public class Inner implements Serializable {
                        int v = 2;
                        public int outerValue() { return o; }
                    }
                    public static class Nested implements Serializable {
                        final String tag;
                        public Nested(String tag) { this.tag = tag; }
                    }
                    public Inner inner() { return new Inner(); }
                    public Base anonymous() {
                        return new Base(4) {
                            int y = 5;
                            @Override public String toString() { return "anon" + y + o; }
                        };
                    }
                    public Serializable local() {
                        class Local implements Serializable { int q = 3; }
                        return new Local();
                    }
                }
                """);
        s.put("sample/Box.java", """
                package sample;
                import java.io.Serializable;
                import java.util.*;
                public class Box<T extends Serializable> implements Serializable, Comparable<Box<T>> {
                    T value; List<T> items = new ArrayList<>();
                    public Box() { }
                    public Box(T value) { this.value = value; items.add(value); }
                    @Override public int compareTo(Box<T> other) { return 0; }
                }
                """);
        s.put("sample/Marker.java", """
                package sample;
                public interface Marker extends java.io.Serializable { }
                """);
        s.put("sample/ViaInterface.java", """
                package sample;
                public class ViaInterface implements Marker { int m = 17; }
                """);
        s.put("sample/Plain.java", """
                package sample;
                public class Plain { int p; public Plain() { p = 7; } public Plain(int p) { this.p = p; } }
                """);
        s.put("sample/OnTopOfPlain.java", """
                package sample;
                public class OnTopOfPlain extends Plain implements java.io.Serializable {
                    int q;
                    public OnTopOfPlain() { super(99); q = 100; }
                }
                """);
        s.put("sample/other/ProtectedCtorBase.java", """
                package sample.other;
                public class ProtectedCtorBase { protected int r; protected ProtectedCtorBase() { r = 1; } }
                """);
        s.put("sample/other/PackageCtorBase.java", """
                package sample.other;
                public class PackageCtorBase { PackageCtorBase() { } public PackageCtorBase(int x) { } }
                """);
        s.put("sample/SubOfProtectedCtor.java", """
                package sample;
                public class SubOfProtectedCtor extends sample.other.ProtectedCtorBase implements java.io.Serializable {
                    int s = 2;
                }
                """);
        s.put("sample/SubOfPackageCtor.java", """
                package sample;
                public class SubOfPackageCtor extends sample.other.PackageCtorBase implements java.io.Serializable {
                    public SubOfPackageCtor() { super(1); }
                }
                """);
        s.put("sample/NoNoArg.java", """
                package sample;
                public class NoNoArg { public NoNoArg(int x) { } }
                """);
        s.put("sample/SubOfNoNoArg.java", """
                package sample;
                public class SubOfNoNoArg extends NoNoArg implements java.io.Serializable {
                    public SubOfNoNoArg() { super(1); }
                }
                """);
        s.put("sample/WithWriteObject.java", """
                package sample;
                import java.io.*;
                public class WithWriteObject implements Serializable {
                    int w;
                    private void writeObject(ObjectOutputStream out) throws IOException { out.defaultWriteObject(); }
                }
                """);
        s.put("sample/SubOfHooked.java", """
                package sample;
                public class SubOfHooked extends WithWriteObject { int h; }
                """);
        s.put("sample/WithReadObject.java", """
                package sample;
                import java.io.*;
                public class WithReadObject implements Serializable {
                    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
                        in.defaultReadObject();
                    }
                }
                """);
        s.put("sample/WithReadObjectNoData.java", """
                package sample;
                public class WithReadObjectNoData implements java.io.Serializable {
                    private void readObjectNoData() { }
                }
                """);
        s.put("sample/WithPersistentFields.java", """
                package sample;
                import java.io.*;
                public class WithPersistentFields implements Serializable {
                    private static final ObjectStreamField[] serialPersistentFields = {new ObjectStreamField("k", int.class)};
                    int k;
                }
                """);
        s.put("sample/WithWriteReplace.java", """
                package sample;
                public class WithWriteReplace implements java.io.Serializable {
                    Object writeReplace() { return this; }
                }
                """);
        s.put("sample/WithReadResolve.java", """
                package sample;
                public class WithReadResolve implements java.io.Serializable {
                    private Object readResolve() { return this; }
                }
                """);
        s.put("sample/ReplaceBase.java", """
                package sample;
                public class ReplaceBase { protected Object writeReplace() { return this; } }
                """);
        s.put("sample/SubReplace.java", """
                package sample;
                public class SubReplace extends ReplaceBase implements java.io.Serializable { }
                """);
        s.put("sample/PrivateReplaceBase.java", """
                package sample;
                public class PrivateReplaceBase { private Object writeReplace() { return this; } }
                """);
        s.put("sample/SubPrivateReplace.java", """
                package sample;
                public class SubPrivateReplace extends PrivateReplaceBase implements java.io.Serializable { int u = 3; }
                """);
        s.put("sample/Ext.java", """
                package sample;
                import java.io.*;
                public class Ext implements Externalizable {
                    public Ext() { }
                    @Override public void writeExternal(ObjectOutput out) { }
                    @Override public void readExternal(ObjectInput in) { }
                }
                """);
        s.put("sample/Color.java", """
                package sample;
                public enum Color { RED { @Override public String toString() { return "red"; } }, GREEN, BLUE }
                """);
        s.put("sample/Point.java", """
                package sample;
                public record Point(int x, int y) implements java.io.Serializable { }
                """);
        s.put("sample/Leaf.java", """
                package sample;
                public final class Leaf implements java.io.Serializable { int v; }
                """);
        s.put("sample/ReplacedLeaf.java", """
                package sample;
                public final class ReplacedLeaf implements java.io.Serializable { Object writeReplace() { return this; } }
                """);
        s.put("sample/HasKnown.java", """
                package sample;
                public class HasKnown implements java.io.Serializable {
                    Leaf leaf; ReplacedLeaf replacedLeaf; int[] ints; Integer boxed; Color color; Runnable runnable;
                    String string; Object object; Bar bar; Leaf[] leaves; Class<?> type; Point point; java.util.UUID uuid;
                    public static HasKnown make() {
                        HasKnown h = new HasKnown();
                        h.leaf = new Leaf(); h.replacedLeaf = new ReplacedLeaf(); h.ints = new int[] {1};
                        h.boxed = 77; h.color = Color.BLUE; h.string = "str"; h.object = h.leaf; h.bar = new Bar(3);
                        h.leaves = new Leaf[] {h.leaf, null, new Leaf()}; h.type = int[].class; h.point = new Point(5, 6);
                        h.uuid = new java.util.UUID(1, 2);
                        return h;
                    }
                }
                """);
        s.put("sample/Node.java", """
                package sample;
                public class Node implements java.io.Serializable {
                    public int value; public Node next;
                    public static Node list(int n) {
                        Node head = null;
                        for (int i = n - 1; i >= 0; i--) { Node x = new Node(); x.value = i; x.next = head; head = x; }
                        return head;
                    }
                }
                """);
        // Fields declared as the class itself are read by a direct call of its reading constructor
        // when they hold a new object of exactly that class: this graph also holds nulls,
        // subclass objects (two in a row, so that the subclass is the stream's last plain class
        // when a field declared as the superclass holds one), back-references (a cycle and a
        // shared node) and a chain deeper than the stream's deferral depth through such fields.
        // The first of them (next) follows a run of primitive fields (id, mark), so its header is
        // written in the run (selfHeader) for every one of these cases.
        s.put("sample/Link.java", """
                package sample;
                public class Link implements java.io.Serializable {
                    public int id; public int mark; public Link next; public Link other;
                    public static Link make() {
                        Link head = new Link(); head.id = 0;
                        Link tail = head;
                        for (int i = 1; i < 300; i++) {
                            Link x = i % 7 == 3 || i % 7 == 4 ? new SubLink(i, tail) : new Link();
                            x.id = i; x.mark = -3 * i; tail.next = x; tail = x;
                            if (i % 5 == 0) { x.other = head; }
                            if (i % 11 == 0) { x.other = x; }
                        }
                        tail.next = head;
                        head.other = head.next.next;
                        return head;
                    }
                }
                """);
        s.put("sample/SubLink.java", """
                package sample;
                public class SubLink extends Link {
                    public String tag; public Link back;
                    public SubLink() { }
                    SubLink(int i, Link back) { tag = "sub" + i; this.back = back; }
                }
                """);
        s.put("sample/AbstractShape.java", """
                package sample;
                public abstract class AbstractShape implements java.io.Serializable { protected String label = "shape"; }
                """);
        s.put("sample/Circle.java", """
                package sample;
                public class Circle extends AbstractShape { double radius = 2.5; }
                """);
        // The layouts of the field plan (ibis.io.codegen.FieldPlan): every primitive type, more
        // primitive bytes than one run may hold (16), a run cut one byte short, runs followed by a
        // field of the class's own type or by another reference, and a chain of three classes
        // with fields at every level (final, transient, static, self-typed at each level).
        s.put("sample/Wide.java", """
                package sample;
                public class Wide implements java.io.Serializable {
                    boolean z0, z1; byte b0, b1; char c0, c1; short s0, s1; int i0, i1, i2, i3, i4, i5; long j0, j1, j2;
                    float f0, f1; double d0, d1; String text; int[] ints; long[][] longs; Object any; Wide self; Wide[] many;
                    transient long skipped = 5; static int counter;
                    public static Wide make(int seed) {
                        Wide w = new Wide();
                        w.z0 = seed % 2 == 0; w.z1 = true; w.b0 = (byte) seed; w.b1 = -128; w.c0 = (char) (0x4e16 + seed); w.c1 = 'x';
                        w.s0 = (short) -seed; w.s1 = Short.MAX_VALUE; w.i0 = seed; w.i1 = -1; w.i2 = Integer.MIN_VALUE; w.i3 = 3;
                        w.i4 = 4 * seed; w.i5 = Integer.MAX_VALUE; w.j0 = -1L << 40; w.j1 = seed; w.j2 = Long.MAX_VALUE;
                        w.f0 = Float.NaN; w.f1 = -0.0f; w.d0 = Math.E * seed; w.d1 = Double.MIN_VALUE;
                        w.text = "wide " + seed; w.ints = new int[] {seed, seed + 1}; w.longs = new long[][] {{seed}, null};
                        w.any = w.ints; w.skipped = seed;
                        return w;
                    }
                    public static Wide[] graph() {
                        Wide a = make(1); Wide b = make(2); Wide c = make(3);
                        a.self = b; b.self = b; c.self = a; a.many = new Wide[] {c, null, a};
                        return new Wide[] {a, new Wide()};
                    }
                }
                """);
        s.put("sample/Spill.java", """
                package sample;
                public class Spill implements java.io.Serializable {
                    int a, b, c, d; byte e; Spill next;
                    public static Spill chain(int n) {
                        Spill head = null;
                        for (int i = n; i > 0; i--) {
                            Spill x = new Spill(); x.a = i; x.b = -i; x.c = i * i; x.d = 7; x.e = (byte) i; x.next = head; head = x;
                        }
                        return head;
                    }
                }
                """);
        s.put("sample/Level1.java", """
                package sample;
                public class Level1 implements java.io.Serializable {
                    int a; long b; Level1 link; final String tag; transient int t1 = 11; static int s1 = 12;
                    public Level1() { tag = "level1"; }
                    Level1(String tag, int a) { this.tag = tag; this.a = a; this.b = -a; }
                }
                """);
        s.put("sample/Level2.java", """
                package sample;
                public class Level2 extends Level1 {
                    short c; byte d; final int fixed; Level1 base; Level2 peer; transient Object t2 = "t2"; static Level2 s2;
                    public Level2() { fixed = 0; }
                    Level2(String tag, int a) { super(tag, a); fixed = 2 * a; c = (short) a; d = (byte) -a; }
                }
                """);
        s.put("sample/Level3.java", """
                package sample;
                public class Level3 extends Level2 {
                    double e; float f; char g; boolean h; final Level3 first; Level3 next; Object zany; transient Level3 t3;
                    public Level3() { first = null; }
                    Level3(String tag, int a, Level3 first) {
                        super(tag, a); this.first = first; e = a / 3.0; f = a; g = (char) ('a' + a); h = a % 2 == 1;
                    }
                    public static Object[] graph() {
                        Level3 root = new Level3("root", 1, null);
                        Level3 second = new Level3("second", 2, root);
                        Level3 third = new Level3("third", 3, second);
                        root.next = second; second.next = third; third.next = root;
                        Level2 two = new Level2("two", 4); Level1 one = new Level1("one", 5);
                        root.link = one; one.link = one; second.link = third; two.link = new Level1("fresh", 6);
                        root.peer = two; two.peer = second; root.base = root; second.base = two; two.base = one;
                        third.zany = new Level1[] {one, two, third}; third.t3 = root;
                        return new Object[] {root, two, one, new Level3()};
                    }
                }
                """);
        s.put("sample/Graphs.java", """
                package sample;
                public final class Graphs {
                    private Graphs() { }
                    /** One graph per message; the last one holds them all (shared references across samples). */
                    public static Object[] all() {
                        Outer outer = new Outer();
                        Foo foo = Foo.make();
                        Object[] each = {
                            foo, Shapes.make(), FinalFields.make(), outer.inner(), new Outer.Nested("nested"), outer.anonymous(),
                            outer.local(), new Box<>("boxed"), new ViaInterface(), new OnTopOfPlain(), new SubOfProtectedCtor(),
                            new SubPrivateReplace(), HasKnown.make(), new Circle(), Node.list(100_000), Link.make(), new Leaf(),
                            new Object[] {foo, foo},
                            new WithWriteObject(), new SubOfHooked(), new Ext(), Color.RED, new Point(1, 2),
                            Wide.graph(), Spill.chain(40), Level3.graph(),
                        };
                        Object[] all = java.util.Arrays.copyOf(each, each.length + 1);
                        all[each.length] = each.clone();
                        return all;
                    }
                }
                """);
        return s;
    }
}
