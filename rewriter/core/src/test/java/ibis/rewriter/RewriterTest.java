package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.util.CheckClassAdapter;
import org.objectweb.asm.util.Textifier;
import org.objectweb.asm.util.TraceMethodVisitor;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The rewriter on the sample corpus (compiled with --release 17): which classes are rewritten or
 * skipped and why, the exact members the contract in io/README.md asks for, verification and
 * loading of the result, unchanged existing code, idempotence, and the class path rules.
 */
public class RewriterTest {

    private Path original;   // compiled corpus, never rewritten
    private Path rewritten;  // the same, rewritten once
    private RewriteResult result;
    private final List<ClassOutcome> reported = new ArrayList<>();

    @BeforeClass
    public void compileAndRewrite() throws Exception {
        original = Samples.compile(Samples.tempDir("original"), SampleSources.corpus());
        rewritten = Samples.tempDir("rewritten");
        copyTree(original, rewritten);
        result = new Rewriter().listener(reported::add).rewrite(List.of(rewritten));
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(original);
        Samples.delete(rewritten);
    }

    static void copyTree(Path from, Path to) throws IOException {
        for (Map.Entry<String, byte[]> e : Samples.snapshot(from).entrySet()) {
            Path target = to.resolve(e.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, e.getValue());
        }
    }

    private byte[] rewrittenBytes(String className) throws IOException {
        return Files.readAllBytes(rewritten.resolve(className.replace('.', '/') + ".class"));
    }

    private ClassNode node(byte[] bytes) {
        ClassNode n = new ClassNode();
        new ClassReader(bytes).accept(n, 0);
        return n;
    }

    private static MethodNode method(ClassNode c, String name, String descriptor) {
        for (MethodNode m : c.methods) {
            if (m.name.equals(name) && m.desc.equals(descriptor)) {
                return m;
            }
        }
        return null;
    }

    @Test
    public void eachSampleClassIsRewrittenOrSkippedAsTheRulesSay() {
        for (Map.Entry<String, ClassOutcome.Status> e : SampleSources.EXPECTED.entrySet()) {
            ClassOutcome o = result.outcome(e.getKey());
            assertNotNull(o, "no outcome for " + e.getKey());
            assertEquals(o.status(), e.getValue(), e.getKey() + ": " + o.reason());
        }
        for (Map.Entry<String, String> e : SampleSources.REASONS.entrySet()) {
            String reason = result.outcome(e.getKey()).reason();
            assertTrue(reason.contains(e.getValue()),
                    e.getKey() + ": reason '" + reason + "' lacks '" + e.getValue() + "'");
        }
        assertEquals(reported.size(), result.classes().size(), "the listener sees every class once");
    }

    @Test
    public void superclassesAreReportedBeforeTheirSubclasses() {
        List<String> order = new ArrayList<>();
        for (ClassOutcome o : result.classes()) {
            order.add(o.className());
        }
        assertTrue(order.indexOf("sample.Base") < order.indexOf("sample.Foo"));
        assertTrue(order.indexOf("sample.Base") < order.indexOf("sample.Outer$1"));
        assertTrue(order.indexOf("sample.AbstractShape") < order.indexOf("sample.Circle"));
        assertTrue(order.indexOf("sample.WithWriteObject") < order.indexOf("sample.SubOfHooked"));
    }

    @Test
    public void skippedAndNonSerializableClassesKeepTheirBytes() throws IOException {
        Map<String, byte[]> before = Samples.snapshot(original);
        Map<String, byte[]> after = Samples.snapshot(rewritten);
        for (ClassOutcome o : result.classes()) {
            String file = o.className().replace('.', '/') + ".class";
            if (o.status() == ClassOutcome.Status.REWRITTEN) {
                assertFalse(Arrays.equals(after.get(file), before.get(file)), file + " should have changed");
                boolean isAbstract = (node(after.get(file)).access & Opcodes.ACC_ABSTRACT) != 0;
                assertEquals(after.containsKey(file.replace(".class", "_ibis_io_Generator.class")), !isAbstract,
                        "a generator for every rewritten class that is not abstract: " + file);
            } else {
                assertEquals(after.get(file), before.get(file), file + " must be untouched");
                assertFalse(after.containsKey(file.replace(".class", "_ibis_io_Generator.class")),
                        "no generator for " + file);
            }
        }
    }

    @Test
    public void addedMembersHaveTheContractDescriptorsAndAccess() throws IOException {
        for (ClassOutcome o : result.classes()) {
            if (o.status() != ClassOutcome.Status.REWRITTEN) {
                continue;
            }
            ClassNode c = node(rewrittenBytes(o.className()));
            assertTrue(c.interfaces.contains("ibis/io/Serializable"), o.className());
            assertEquals(c.interfaces.get(c.interfaces.size() - 1), "ibis/io/Serializable", "appended last");
            MethodNode write = method(c, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V");
            assertNotNull(write, o.className() + " ibisWrite");
            assertEquals(write.access, Opcodes.ACC_PUBLIC);
            assertEquals(write.exceptions, List.of("java/io/IOException"));
            MethodNode read = method(c, "<init>", "(Libis/io/IbisSerializationInput;)V");
            assertNotNull(read, o.className() + " reading constructor");
            assertEquals(read.access, Opcodes.ACC_PUBLIC);
            assertEquals(read.exceptions, List.of("java/io/IOException", "java/lang/ClassNotFoundException"));

            if ((c.access & Opcodes.ACC_ABSTRACT) != 0) {
                continue; // no generator (it would never be called)
            }
            ClassNode g = node(rewrittenBytes(o.className() + "_ibis_io_Generator"));
            assertEquals(g.name, c.name + "_ibis_io_Generator");
            assertEquals(g.superName, "ibis/io/Generator");
            assertEquals(g.access & ~Opcodes.ACC_SUPER, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL);
            assertEquals(g.version, c.version, "generator has the class's class file version");
            assertEquals(g.methods.size(), 2);
            MethodNode init = method(g, "<init>", "()V");
            assertEquals(init.access, Opcodes.ACC_PUBLIC);
            assertEquals(calls(init), List.of("INVOKESPECIAL ibis/io/Generator.<init>()V"));
            MethodNode create = method(g, "newInstance", "(Libis/io/IbisSerializationInput;)Ljava/lang/Object;");
            assertEquals(create.access, Opcodes.ACC_PUBLIC);
            assertEquals(create.exceptions, List.of("java/io/IOException", "java/lang/ClassNotFoundException"));
            assertEquals(code(create), List.of("NEW " + c.name, "DUP", "ALOAD 1",
                    "INVOKESPECIAL " + c.name + ".<init>(Libis/io/IbisSerializationInput;)V", "ARETURN"));
        }
    }

    @Test
    public void fooIsRewrittenExactlyLikeTheContractExample() throws IOException {
        ClassNode base = node(rewrittenBytes("sample.Base"));
        assertEquals(code(method(base, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V")), List.of(
                "ALOAD 1", "ALOAD 0", "GETFIELD sample/Base.x I",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.writeInt(I)V",
                "RETURN"));
        assertEquals(code(method(base, "<init>", "(Libis/io/IbisSerializationInput;)V")), List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init>()V",
                "ALOAD 1", "ALOAD 0",
                "INVOKEVIRTUAL ibis/io/IbisSerializationInput.registerObject(Ljava/lang/Object;)V",
                "ALOAD 0", "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readInt()I",
                "PUTFIELD sample/Base.x I",
                "RETURN"));
        ClassNode foo = node(rewrittenBytes("sample.Foo"));
        assertEquals(code(method(foo, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V")), List.of(
                "ALOAD 0", "ALOAD 1", "INVOKESPECIAL sample/Base.ibisWrite(Libis/io/IbisSerializationOutput;)V",
                "ALOAD 1", "ALOAD 0", "GETFIELD sample/Foo.a I",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.writeInt(I)V",
                "ALOAD 1", "ALOAD 0", "GETFIELD sample/Foo.arr [I", "LDC [I",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.writeKnownObject(Ljava/lang/Object;Ljava/lang/Class;)V",
                "ALOAD 1", "ALOAD 0", "GETFIELD sample/Foo.b Lsample/Bar;", "LDC sample/Bar",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.writeKnownObject(Ljava/lang/Object;Ljava/lang/Class;)V",
                "ALOAD 0", "GETFIELD sample/Foo.f Lsample/Foo;", "ASTORE 3", "ALOAD 1", "ALOAD 3", "LDC sample/Foo",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.beginPlain(Ljava/lang/Object;Ljava/lang/Class;)Z",
                "IFEQ",
                "ALOAD 3", "ALOAD 1", "INVOKEVIRTUAL sample/Foo.ibisWrite(Libis/io/IbisSerializationOutput;)V",
                "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.endPlain()V",
                "ALOAD 1", "ALOAD 0", "GETFIELD sample/Foo.s Ljava/lang/String;",
                "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.writeString(Ljava/lang/String;)V",
                "RETURN"));
        assertEquals(code(method(foo, "<init>", "(Libis/io/IbisSerializationInput;)V")), List.of(
                "ALOAD 0", "ALOAD 1", "INVOKESPECIAL sample/Base.<init>(Libis/io/IbisSerializationInput;)V",
                "ALOAD 0", "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readInt()I",
                "PUTFIELD sample/Foo.a I",
                "ALOAD 0", "ALOAD 1", "LDC [I",
                "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readKnownObject(Ljava/lang/Class;)Ljava/lang/Object;",
                "CHECKCAST [I", "PUTFIELD sample/Foo.arr [I",
                "ALOAD 0", "ALOAD 1", "LDC sample/Bar",
                "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readKnownObject(Ljava/lang/Class;)Ljava/lang/Object;",
                "CHECKCAST sample/Bar", "PUTFIELD sample/Foo.b Lsample/Bar;",
                "ALOAD 1", "LDC sample/Foo",
                "INVOKEVIRTUAL ibis/io/IbisSerializationInput.beginPlain(Ljava/lang/Class;)Z",
                "IFEQ", "NEW sample/Foo", "DUP", "ALOAD 1",
                "INVOKESPECIAL sample/Foo.<init>(Libis/io/IbisSerializationInput;)V",
                "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationInput.endPlain()V", "GOTO",
                "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readAfterHeader()Ljava/lang/Object;",
                "CHECKCAST sample/Foo", "ASTORE 3", "ALOAD 0", "ALOAD 3", "PUTFIELD sample/Foo.f Lsample/Foo;",
                "ALOAD 0", "ALOAD 1", "INVOKEVIRTUAL ibis/io/IbisSerializationInput.readString()Ljava/lang/String;",
                "PUTFIELD sample/Foo.s Ljava/lang/String;",
                "RETURN"));
    }

    @Test
    public void aSelfTypedFieldAfterARunHasItsHeaderInTheRun() throws IOException {
        ClassNode link = node(rewrittenBytes("sample.Link"));
        String out = "INVOKEVIRTUAL ibis/io/IbisSerializationOutput.";
        assertEquals(code(method(link, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V")), List.of(
                "ALOAD 0", "GETFIELD sample/Link.next Lsample/Link;", "ASTORE 3",
                "ALOAD 1", "ALOAD 3", "LDC sample/Link", out + "selfHeader(Ljava/lang/Object;Ljava/lang/Class;)I",
                "ISTORE 4",
                "ALOAD 1", "BIPUSH", "ILOAD 4", out + "reserveWithHeader(II)I", "ISTORE 2",
                "ALOAD 1", "ILOAD 2", "ALOAD 0", "GETFIELD sample/Link.id I", out + "putInt(II)V",
                "ALOAD 1", "ILOAD 2", "ICONST_4", "IADD", "ALOAD 0", "GETFIELD sample/Link.mark I", out + "putInt(II)V",
                "ALOAD 1", "ILOAD 2", "BIPUSH", "IADD", "ILOAD 4", "ALOAD 3",
                out + "putSelfHeader(IILjava/lang/Object;)Z",
                "IFEQ", "ALOAD 3", "ALOAD 1", "INVOKEVIRTUAL sample/Link.ibisWrite(Libis/io/IbisSerializationOutput;)V",
                "ALOAD 1", out + "endPlain()V",
                "ALOAD 0", "GETFIELD sample/Link.other Lsample/Link;", "ASTORE 3",
                "ALOAD 1", "ALOAD 3", "LDC sample/Link",
                out + "beginPlain(Ljava/lang/Object;Ljava/lang/Class;)Z", "IFEQ",
                "ALOAD 3", "ALOAD 1", "INVOKEVIRTUAL sample/Link.ibisWrite(Libis/io/IbisSerializationOutput;)V",
                "ALOAD 1", out + "endPlain()V",
                "RETURN"));
        String in = "INVOKEVIRTUAL ibis/io/IbisSerializationInput.";
        List<String> readLink = List.of("IFEQ", "NEW sample/Link", "DUP", "ALOAD 1",
                "INVOKESPECIAL sample/Link.<init>(Libis/io/IbisSerializationInput;)V",
                "ALOAD 1", in + "endPlain()V", "GOTO",
                "ALOAD 1", in + "readAfterHeader()Ljava/lang/Object;", "CHECKCAST sample/Link", "ASTORE 3");
        List<String> read = new java.util.ArrayList<>(List.of(
                "ALOAD 0", "INVOKESPECIAL java/lang/Object.<init>()V",
                "ALOAD 1", "ALOAD 0", in + "registerObject(Ljava/lang/Object;)V",
                "ALOAD 1", "BIPUSH", in + "claimWithHeader(I)I", "ISTORE 2",
                "ALOAD 0", "ALOAD 1", "ILOAD 2", in + "intAt(I)I", "PUTFIELD sample/Link.id I",
                "ALOAD 0", "ALOAD 1", "ILOAD 2", "ICONST_4", "IADD", in + "intAt(I)I", "PUTFIELD sample/Link.mark I",
                "ALOAD 1", "ILOAD 2", "BIPUSH", "IADD", "LDC sample/Link", in + "beginPlainAt(ILjava/lang/Class;)Z"));
        read.addAll(readLink);
        read.addAll(List.of("ALOAD 0", "ALOAD 3", "PUTFIELD sample/Link.next Lsample/Link;",
                "ALOAD 1", "LDC sample/Link", in + "beginPlain(Ljava/lang/Class;)Z"));
        read.addAll(readLink);
        read.addAll(List.of("ALOAD 0", "ALOAD 3", "PUTFIELD sample/Link.other Lsample/Link;", "RETURN"));
        assertEquals(code(method(link, "<init>", "(Libis/io/IbisSerializationInput;)V")), read);
    }

    @Test
    public void abstractClassGetsTheMembersButNoGenerator() throws IOException {
        ClassNode c = node(rewrittenBytes("sample.AbstractShape"));
        assertTrue(c.interfaces.contains("ibis/io/Serializable"));
        assertNotNull(method(c, "<init>", "(Libis/io/IbisSerializationInput;)V"));
        assertFalse(Files.exists(rewritten.resolve("sample/AbstractShape_ibis_io_Generator.class")));
        assertTrue(Files.exists(rewritten.resolve("sample/Circle_ibis_io_Generator.class")));
    }

    @Test
    public void firstNonSerializableSuperclassConstructorIsCalled() throws IOException {
        ClassNode c = node(rewrittenBytes("sample.OnTopOfPlain"));
        assertEquals(code(method(c, "<init>", "(Libis/io/IbisSerializationInput;)V")).get(1),
                "INVOKESPECIAL sample/Plain.<init>()V");
        ClassNode p = node(rewrittenBytes("sample.SubOfProtectedCtor"));
        assertEquals(code(method(p, "<init>", "(Libis/io/IbisSerializationInput;)V")).get(1),
                "INVOKESPECIAL sample/other/ProtectedCtorBase.<init>()V");
    }

    @Test
    public void knownTypesFollowTheRule() throws IOException {
        // Known: final classes without writeReplace, primitive arrays; not: enums, interfaces,
        // Object, reference arrays, final classes with writeReplace; String has its own call.
        Map<String, String> expected = Map.ofEntries(
                Map.entry("leaf", "writeKnownObject"), Map.entry("replacedLeaf", "writeObject"),
                Map.entry("ints", "writeKnownObject"), Map.entry("boxed", "writeKnownObject"),
                Map.entry("color", "writeObject"), Map.entry("runnable", "writeObject"),
                Map.entry("string", "writeString"), Map.entry("object", "writeObject"),
                Map.entry("bar", "writeKnownObject"), Map.entry("leaves", "writeObject"),
                Map.entry("type", "writeKnownObject"), Map.entry("point", "writeKnownObject"),
                Map.entry("uuid", "writeKnownObject"));
        assertEquals(writeCallsByField("sample.HasKnown"), expected);
    }

    /** Field name to the IbisSerializationOutput method ibisWrite calls for it. */
    private Map<String, String> writeCallsByField(String className) throws IOException {
        ClassNode c = node(rewrittenBytes(className));
        Map<String, String> calls = new java.util.TreeMap<>();
        String field = null;
        for (AbstractInsnNode insn : method(c, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V").instructions) {
            if (insn instanceof FieldInsnNode) {
                field = ((FieldInsnNode) insn).name;
            } else if (insn instanceof MethodInsnNode && field != null) {
                calls.put(field, ((MethodInsnNode) insn).name);
                field = null;
            }
        }
        return calls;
    }

    @Test
    public void knownTypeDecisionsAgreeWithTheStreamAtRunTime() throws Exception {
        // The wire format of a field depends on this decision, so the rewriter and the stream's
        // run-time rule (ibis.io.SerialClass.isKnownType) must agree on every sample field.
        Class<?> serialClass = Class.forName("ibis.io.SerialClass");
        Method isKnown = serialClass.getDeclaredMethod("isKnownType", Class.class);
        isKnown.setAccessible(true);
        try (URLClassLoader loader = Samples.loader(rewritten)) {
            int checked = 0;
            for (ClassOutcome o : result.classes()) {
                if (o.status() != ClassOutcome.Status.REWRITTEN) {
                    continue;
                }
                Class<?> c = Class.forName(o.className(), false, loader);
                for (Map.Entry<String, String> e : writeCallsByField(o.className()).entrySet()) {
                    Class<?> type = c.getDeclaredField(e.getKey()).getType();
                    if (type.isPrimitive() || type == String.class) {
                        continue;
                    }
                    boolean known = (Boolean) isKnown.invoke(null, type);
                    assertEquals(e.getValue().equals("writeKnownObject"), known,
                            o.className() + "." + e.getKey() + " of " + type);
                    checked++;
                }
            }
            assertTrue(checked > 20, "checked " + checked + " fields");
        }
    }

    @Test
    public void rewrittenClassesPassAsmVerificationAndLoad() throws Exception {
        try (URLClassLoader loader = Samples.loader(rewritten)) {
            for (Map.Entry<String, byte[]> e : Samples.snapshot(rewritten).entrySet()) {
                Samples.verify(e.getValue(), loader);
            }
            for (ClassOutcome o : result.classes()) {
                if (o.status() != ClassOutcome.Status.REWRITTEN) {
                    continue;
                }
                // Initialising links the class, so the JVM's verifier checks the new code.
                Class<?> c = Class.forName(o.className(), true, loader);
                assertTrue(ibis.io.Serializable.class.isAssignableFrom(c), o.className());
                Method write = c.getDeclaredMethod("ibisWrite", ibis.io.IbisSerializationOutput.class);
                assertTrue(Modifier.isPublic(write.getModifiers()));
                Constructor<?> read = c.getDeclaredConstructor(ibis.io.IbisSerializationInput.class);
                assertTrue(Modifier.isPublic(read.getModifiers()));
                if (Modifier.isAbstract(c.getModifiers())) {
                    continue;
                }
                Class<?> g = Class.forName(o.className() + "_ibis_io_Generator", true, loader);
                assertEquals(g.getSuperclass(), ibis.io.Generator.class);
                assertTrue(Modifier.isFinal(g.getModifiers()) && Modifier.isPublic(g.getModifiers()));
                assertTrue(g.getConstructor().newInstance() instanceof ibis.io.Generator);
            }
        }
    }

    @Test
    public void genericSignatureAlsoListsIbisSerializable() throws Exception {
        try (URLClassLoader loader = Samples.loader(rewritten)) {
            Class<?> box = Class.forName("sample.Box", false, loader);
            Type[] generic = box.getGenericInterfaces();
            assertEquals(generic.length, box.getInterfaces().length);
            assertEquals(generic[generic.length - 1], ibis.io.Serializable.class);
            assertEquals(box.getTypeParameters().length, 1);
            assertEquals(generic[1].getTypeName(), "java.lang.Comparable<sample.Box<T>>");
        }
    }

    @Test
    public void existingMembersAndAttributesAreUnchanged() throws IOException {
        for (ClassOutcome o : result.classes()) {
            if (o.status() != ClassOutcome.Status.REWRITTEN) {
                continue;
            }
            String file = o.className().replace('.', '/') + ".class";
            ClassNode before = node(Files.readAllBytes(original.resolve(file)));
            ClassNode after = node(rewrittenBytes(o.className()));
            assertEquals(after.version, before.version);
            assertEquals(after.access, before.access);
            assertEquals(after.superName, before.superName);
            assertEquals(after.fields.size(), before.fields.size());
            for (int i = 0; i < before.fields.size(); i++) {
                assertEquals(after.fields.get(i).access, before.fields.get(i).access, "field access (final kept)");
                assertEquals(after.fields.get(i).name, before.fields.get(i).name);
            }
            assertEquals(after.methods.size(), before.methods.size() + 2);
            for (int i = 0; i < before.methods.size(); i++) {
                assertEquals(text(after.methods.get(i)), text(before.methods.get(i)), o.className() + " method " + i);
            }
            assertEquals(after.innerClasses.size(), before.innerClasses.size());
            assertEquals(after.sourceFile, before.sourceFile);
        }
    }

    @Test
    public void finalFieldsStayFinalAndAreSetByTheReadingConstructor() throws IOException {
        ClassNode c = node(rewrittenBytes("sample.FinalFields"));
        c.fields.forEach(f -> assertTrue((f.access & Opcodes.ACC_FINAL) != 0, f.name));
        List<String> read = code(method(c, "<init>", "(Libis/io/IbisSerializationInput;)V"));
        assertTrue(read.contains("PUTFIELD sample/FinalFields.id I"));
        assertTrue(read.contains("PUTFIELD sample/FinalFields.name Ljava/lang/String;"));
        ClassNode inner = node(rewrittenBytes("sample.Outer$Inner"));
        assertTrue(code(method(inner, "<init>", "(Libis/io/IbisSerializationInput;)V"))
                .contains("PUTFIELD sample/Outer$Inner.this$0 Lsample/Outer;"), "synthetic this$0 is a serial field");
    }

    @Test
    public void secondRunChangesNoByte() throws Exception {
        Path again = Samples.tempDir("again");
        try {
            copyTree(rewritten, again);
            Map<String, byte[]> before = Samples.snapshot(again);
            RewriteResult second = new Rewriter().rewrite(List.of(again));
            Samples.assertSameFiles(Samples.snapshot(again), before);
            assertEquals(second.count(ClassOutcome.Status.REWRITTEN), 0);
            assertEquals(second.count(ClassOutcome.Status.ALREADY_REWRITTEN),
                    result.count(ClassOutcome.Status.REWRITTEN));
            assertTrue(second.outcome("sample.Foo").reason().contains("already rewritten"));
        } finally {
            Samples.delete(again);
        }
    }

    @Test
    public void superclassOutsideTheInputMustAlreadyBeRewritten() throws Exception {
        Path lib = Samples.tempDir("lib");
        Path app = Samples.tempDir("app");
        try {
            Samples.compile(lib, Map.of("lib/LibBase.java", """
                    package lib;
                    public class LibBase implements java.io.Serializable { protected int base; }
                    """));
            Samples.compile(app, Map.of("app/AppSub.java", """
                    package app;
                    public class AppSub extends lib.LibBase { int own; }
                    """), lib);
            RewriteResult r = new Rewriter().classPath(List.of(lib)).rewrite(List.of(app));
            assertEquals(r.outcome("app.AppSub").status(), ClassOutcome.Status.SKIPPED);
            assertTrue(r.outcome("app.AppSub").reason()
                    .contains("superclass lib.LibBase is Serializable but not rewritten"),
                    r.outcome("app.AppSub").reason());
            RewriteResult l = new Rewriter().rewrite(List.of(lib));
            assertEquals(l.outcome("lib.LibBase").status(), ClassOutcome.Status.REWRITTEN);
            r = new Rewriter().classPath(List.of(lib)).rewrite(List.of(app));
            assertEquals(r.outcome("app.AppSub").status(), ClassOutcome.Status.REWRITTEN);
            ClassNode sub = node(Files.readAllBytes(app.resolve("app/AppSub.class")));
            assertEquals(code(method(sub, "<init>", "(Libis/io/IbisSerializationInput;)V")).get(2),
                    "INVOKESPECIAL lib/LibBase.<init>(Libis/io/IbisSerializationInput;)V");
            try (URLClassLoader loader = Samples.loader(app, lib)) {
                Class.forName("app.AppSub", true, loader);
            }
        } finally {
            Samples.delete(lib);
            Samples.delete(app);
        }
    }

    @Test
    public void superclassInAnotherInputOfTheSameRunIsRewrittenFirst() throws Exception {
        Path lib = Samples.tempDir("lib2");
        Path app = Samples.tempDir("app2");
        try {
            Samples.compile(lib, Map.of("lib/LibBase.java", """
                    package lib;
                    public class LibBase implements java.io.Serializable { protected int base; }
                    """));
            Samples.compile(app, Map.of("app/AppSub.java", """
                    package app;
                    public class AppSub extends lib.LibBase { int own; }
                    """), lib);
            // The subclass's input comes first on the command line; the order of work still puts the superclass first.
            RewriteResult r = new Rewriter().rewrite(List.of(app, lib));
            assertEquals(r.outcome("app.AppSub").status(), ClassOutcome.Status.REWRITTEN);
            assertEquals(r.outcome("lib.LibBase").status(), ClassOutcome.Status.REWRITTEN);
            assertEquals(r.classes().get(0).className(), "lib.LibBase");
        } finally {
            Samples.delete(lib);
            Samples.delete(app);
        }
    }

    @Test
    public void fieldTypeNotFoundSkipsTheClassUntilTheClassPathHasIt() throws Exception {
        Path dep = Samples.tempDir("dep");
        Path app = Samples.tempDir("usesdep");
        try {
            Samples.compile(dep,
                    Map.of("dep/Dep.java", "package dep; public final class Dep implements java.io.Serializable { }"));
            Samples.compile(app, Map.of("app/UsesDep.java", """
                    package app;
                    public class UsesDep implements java.io.Serializable { dep.Dep d; int i; }
                    """), dep);
            Map<String, byte[]> before = Samples.snapshot(app);
            RewriteResult r = new Rewriter().rewrite(List.of(app));
            ClassOutcome o = r.outcome("app.UsesDep");
            assertEquals(o.status(), ClassOutcome.Status.SKIPPED);
            assertTrue(o.reason().contains("field d (dep.Dep)"), o.reason());
            Samples.assertSameFiles(Samples.snapshot(app), before);

            r = new Rewriter().classPath(List.of(dep)).rewrite(List.of(app));
            assertEquals(r.outcome("app.UsesDep").status(), ClassOutcome.Status.REWRITTEN);
            ClassNode c = node(Files.readAllBytes(app.resolve("app/UsesDep.class")));
            assertTrue(code(method(c, "ibisWrite", "(Libis/io/IbisSerializationOutput;)V")).contains("LDC dep/Dep"),
                    "Dep is final: a known type");
        } finally {
            Samples.delete(dep);
            Samples.delete(app);
        }
    }

    @Test
    public void theRewriterNeverLoadsTheClassesItRewrites() throws Exception {
        // A static initialiser that would fail if the class were ever initialised, and a class name
        // that is not on any class loader's path: the rewriter works from bytes only.
        Path dir = Samples.tempDir("noload");
        try {
            Samples.compile(dir, Map.of("trap/Trap.java", """
                    package trap;
                    public class Trap implements java.io.Serializable {
                        static { if (true) throw new IllegalStateException("loaded!"); }
                        int t;
                    }
                    """));
            RewriteResult r = new Rewriter().rewrite(List.of(dir));
            assertEquals(r.outcome("trap.Trap").status(), ClassOutcome.Status.REWRITTEN);
            try {
                Class.forName("trap.Trap");
                fail("trap.Trap must not be on the rewriter's class path");
            } catch (ClassNotFoundException expected) {
                // fine
            }
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void unparsableClassFileFailsWithItsName() throws Exception {
        Path dir = Samples.tempDir("broken");
        try {
            Files.createDirectories(dir.resolve("p"));
            Files.write(dir.resolve("p/Broken.class"),
                    new byte[] {(byte) 0xca, (byte) 0xfe, (byte) 0xba, (byte) 0xbe, 0, 0});
            try {
                new Rewriter().rewrite(List.of(dir));
                fail("a broken class file must fail the run");
            } catch (RewriteException e) {
                assertTrue(e.getMessage().contains("Broken.class"), e.getMessage());
            }
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void javaRmiOptionWithoutJavaRmiReferencesStillGeneratesSerializers() throws Exception {
        Path dir = Samples.tempDir("rmi");
        try {
            Samples.compile(dir,
                    Map.of("r/R.java", "package r; public class R implements java.io.Serializable { int i; }"));
            RewriteResult r = new Rewriter().javaRmi(true).rewrite(List.of(dir));
            assertTrue(r.warnings().isEmpty(), r.warnings().toString());
            assertEquals(r.javaRmiRenamed(), 0);
            assertFalse(r.outcome("r.R").javaRmiRenamed());
            assertEquals(r.outcome("r.R").status(), ClassOutcome.Status.REWRITTEN, "serializers are still generated");
        } finally {
            Samples.delete(dir);
        }
    }

    @Test
    public void structuralCheckOfEveryRewrittenClassFile() throws IOException {
        // CheckClassAdapter with its basic data-flow check (no class loading): throws on any problem.
        int checked = 0;
        for (Map.Entry<String, byte[]> e : Samples.snapshot(rewritten).entrySet()) {
            ClassWriter sink = new ClassWriter(0);
            new ClassReader(e.getValue()).accept(new CheckClassAdapter(sink, true), 0);
            assertEquals(new ClassReader(sink.toByteArray()).getClassName() + ".class", e.getKey());
            checked++;
        }
        assertEquals(checked, Samples.snapshot(original).size() + result.count(ClassOutcome.Status.REWRITTEN) - 1,
                "one more file per rewritten class, except the abstract AbstractShape");
    }

    // ---- bytecode as text

    /** The instructions of a method (labels, line numbers and frames left out). */
    static List<String> code(MethodNode m) {
        List<String> out = new ArrayList<>();
        for (AbstractInsnNode insn : m.instructions) {
            int op = insn.getOpcode();
            if (op < 0) {
                continue;
            }
            String name = org.objectweb.asm.util.Printer.OPCODES[op];
            if (insn instanceof MethodInsnNode) {
                MethodInsnNode mi = (MethodInsnNode) insn;
                out.add(name + " " + mi.owner + "." + mi.name + mi.desc);
            } else if (insn instanceof FieldInsnNode) {
                FieldInsnNode fi = (FieldInsnNode) insn;
                out.add(name + " " + fi.owner + "." + fi.name + " " + fi.desc);
            } else if (insn instanceof TypeInsnNode) {
                out.add(name + " " + ((TypeInsnNode) insn).desc);
            } else if (insn instanceof LdcInsnNode) {
                Object c = ((LdcInsnNode) insn).cst;
                out.add(name + " "
                        + (c instanceof org.objectweb.asm.Type ? ((org.objectweb.asm.Type) c).getInternalName() : c));
            } else if (insn instanceof org.objectweb.asm.tree.VarInsnNode) {
                out.add(name + " " + ((org.objectweb.asm.tree.VarInsnNode) insn).var);
            } else {
                out.add(name);
            }
        }
        return out;
    }

    private static List<String> calls(MethodNode m) {
        List<String> out = new ArrayList<>();
        for (String s : code(m)) {
            if (s.startsWith("INVOKE")) {
                out.add(s);
            }
        }
        return out;
    }

    private static String text(MethodNode m) {
        Textifier t = new Textifier();
        m.accept(new TraceMethodVisitor(t));
        StringWriter w = new StringWriter();
        t.print(new PrintWriter(w));
        return m.access + " " + m.name + m.desc + "\n" + w;
    }
}
