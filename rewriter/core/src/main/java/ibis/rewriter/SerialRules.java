package ibis.rewriter;

import ibis.io.codegen.FieldEncoding;
import ibis.io.codegen.FieldPlan;
import ibis.io.codegen.SerialField;
import ibis.io.codegen.StreamMethod;
import ibis.rewriter.ClassHierarchy.MissingClassException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.objectweb.asm.Opcodes;

/**
 * Decides which input classes are "plain" and may be rewritten, following io/README.md
 * ("Generated serializers: the contract for the rewriter", rules 1 to 7), and computes the serial
 * fields of each in canonical order with their encodings. Everything is decided from class file
 * bytes through the {@link ClassHierarchy}; a class whose decision needs a class that cannot be
 * found is skipped (being too careful is always safe: the stream then uses a run-time serializer).
 *
 * <p>The "known type" test must agree exactly with the stream's run-time one (ibis.io.SerialClass),
 * because it decides the wire format of a field: a primitive array type, or a class that is not an
 * interface, not String, not an enum, final, and without a writeReplace method as the JDK finds it.
 */
final class SerialRules {

    static final String IBIS_SERIALIZABLE = "ibis/io/Serializable";
    static final String IBIS_OUTPUT = StreamMethod.OUTPUT;
    static final String IBIS_INPUT = StreamMethod.INPUT;
    static final String IBIS_GENERATOR = "ibis/io/Generator";
    static final String GENERATOR_SUFFIX = "_ibis_io_Generator";
    static final String WRITE_METHOD = "ibisWrite";
    static final String WRITE_DESCRIPTOR = "(L" + IBIS_OUTPUT + ";)V";
    static final String READ_CONSTRUCTOR_DESCRIPTOR = "(L" + IBIS_INPUT + ";)V";

    private static final String SERIALIZABLE = "java/io/Serializable";
    private static final String EXTERNALIZABLE = "java/io/Externalizable";
    private static final String STRING = "java/lang/String";
    private static final String OBJECT_RESULT = "Ljava/lang/Object;";

    /** The outcome for one class. */
    static final class Decision {
        /** What happens to the class. */
        enum Kind {
            /** Plain: gets the generated members. */
            REWRITE,
            /** Already lists ibis/io/Serializable. */
            ALREADY_REWRITTEN,
            /** Not a Serializable class at all (interfaces, annotations, module-info included). */
            NOT_SERIALIZABLE,
            /** Serializable, but one of the rules excludes it; {@link #reason} says which. */
            EXCLUDED
        }

        final Kind kind;
        final String reason;
        final boolean superSerializable;
        final List<SerialField> fields;

        private Decision(Kind kind, String reason, boolean superSerializable, List<SerialField> fields) {
            this.kind = kind;
            this.reason = reason;
            this.superSerializable = superSerializable;
            this.fields = fields;
        }

        static Decision rewrite(boolean superSerializable, List<SerialField> fields) {
            return new Decision(Kind.REWRITE, "plain Serializable class", superSerializable, List.copyOf(fields));
        }

        static Decision skip(Kind kind, String reason) {
            return new Decision(kind, reason, false, List.of());
        }

        /** Whether the class has (or will have) the rewritten members after this run. */
        boolean rewrittenAfterRun() {
            return kind == Kind.REWRITE || kind == Kind.ALREADY_REWRITTEN;
        }
    }

    private final ClassHierarchy hierarchy;
    private final Set<ClassInfo> inputs;
    private final Map<ClassInfo, Decision> decisions = new IdentityHashMap<>();
    private final Set<ClassInfo> inProgress = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<ClassInfo, String> pinned = new IdentityHashMap<>();

    /**
     * @param inputs the classes of this run (identity set); a superclass among them is decided
     *        (and rewritten) in this run, one outside counts as rewritten only if it already
     *        lists ibis/io/Serializable
     */
    SerialRules(ClassHierarchy hierarchy, Set<ClassInfo> inputs) {
        this.hierarchy = hierarchy;
        this.inputs = inputs;
    }

    /**
     * Forbids rewriting an input class for a reason of its container (a signed jar, multi-release
     * variants); it is then excluded even when the rules would allow it. Call before deciding.
     */
    void exclude(ClassInfo c, String reason) {
        pinned.put(c, reason);
    }

    /** The decision for an input class (its superclasses in the input are decided first). */
    Decision decide(ClassInfo c) {
        Decision d = decisions.get(c);
        if (d != null) {
            return d;
        }
        if (!inProgress.add(c)) {
            return Decision.skip(Decision.Kind.EXCLUDED, "its class hierarchy is circular");
        }
        try {
            d = compute(c);
        } finally {
            inProgress.remove(c);
        }
        decisions.put(c, d);
        return d;
    }

    private Decision compute(ClassInfo c) {
        if (c.listsInterface(IBIS_SERIALIZABLE)) {
            return Decision.skip(Decision.Kind.ALREADY_REWRITTEN,
                    "already rewritten (implements ibis.io.Serializable)");
        }
        if (IBIS_GENERATOR.equals(c.superName) && c.name.endsWith(GENERATOR_SUFFIX)) {
            return Decision.skip(Decision.Kind.NOT_SERIALIZABLE, "a generator class made by the rewriter");
        }
        if (c.is(Opcodes.ACC_MODULE) || c.isInterface() || c.superName == null) {
            return Decision.skip(Decision.Kind.NOT_SERIALIZABLE, c.isInterface() ? "an interface" : "not a class");
        }
        try {
            if (!hierarchy.isSubtypeOf(c.name, SERIALIZABLE)) {
                return Decision.skip(Decision.Kind.NOT_SERIALIZABLE, "not Serializable");
            }
            return computeSerializable(c);
        } catch (MissingClassException e) {
            return excluded("class " + e.getMessage() + " is needed to decide but is not in the input, the class path"
                    + " or the JDK");
        }
    }

    private static Decision excluded(String reason) {
        return Decision.skip(Decision.Kind.EXCLUDED, reason);
    }

    private Decision computeSerializable(ClassInfo c) throws MissingClassException {
        // Rule 1: a class (not enum, record, Externalizable).
        if (isEnumOrEnumConstant(c)) {
            return excluded("an enum (handled by the stream)");
        }
        if ("java/lang/Record".equals(c.superName)) {
            return excluded("a record (handled by the stream)");
        }
        if (hierarchy.isSubtypeOf(c.name, EXTERNALIZABLE)) {
            return excluded("Externalizable (handled by the stream)");
        }
        if (c.version < Opcodes.V1_5) {
            return excluded("class file version " + c.version + " is older than Java 5");
        }
        // Rule 2: no JDK hooks in the serializable chain; find the first non-serializable superclass.
        ClassInfo level = c;
        while (true) {
            String hook = hook(level);
            if (hook != null) {
                return excluded(level == c ? "declares " + hook
                        : "superclass " + level.javaName() + " declares " + hook);
            }
            ClassInfo up = hierarchy.get(level.superName);
            if (!hierarchy.isSubtypeOf(up.name, SERIALIZABLE)) {
                level = up;
                break;
            }
            level = up;
        }
        ClassInfo firstNonSerializable = level;
        // Rule 3: no writeReplace / readResolve as the JDK finds them.
        String replace = replaceOrResolve(c, "writeReplace");
        if (replace != null) {
            return excluded("has writeReplace()" + replace + " (handled by the stream)");
        }
        String resolve = replaceOrResolve(c, "readResolve");
        if (resolve != null) {
            return excluded("has readResolve()" + resolve + " (handled by the stream)");
        }
        // Rule 4: the direct superclass, when Serializable, is rewritten too.
        ClassInfo sup = hierarchy.get(c.superName);
        boolean superSerializable = sup != firstNonSerializable;
        if (superSerializable) {
            if (inputs.contains(sup)) {
                Decision d = decide(sup);
                if (!d.rewrittenAfterRun()) {
                    // Name the root cause once, not one nested "superclass ..." per level.
                    return excluded(d.reason.startsWith("superclass ") ? d.reason
                            : "superclass " + sup.javaName() + " is not rewritten (it " + d.reason + ")");
                }
            } else if (!sup.listsInterface(IBIS_SERIALIZABLE)) {
                return excluded("superclass " + sup.javaName() + " is Serializable but not rewritten (it is not in the"
                        + " input and does not implement ibis.io.Serializable)");
            }
        }
        // Rule 5: the no-arg constructor the JDK runs must be accessible from c.
        ClassInfo.Member init = firstNonSerializable.method("<init>", "()V");
        if (init == null) {
            return excluded("first non-serializable superclass " + firstNonSerializable.javaName()
                    + " has no no-argument constructor");
        }
        if (init.is(Opcodes.ACC_PRIVATE) || (!init.is(Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)
                && !firstNonSerializable.packageName().equals(c.packageName()))) {
            return excluded("the no-argument constructor of first non-serializable superclass "
                    + firstNonSerializable.javaName() + " is not accessible from it");
        }
        // Generated members must not clash with declared ones.
        if (c.method(SerialRules.WRITE_METHOD, WRITE_DESCRIPTOR) != null) {
            return excluded("already declares ibisWrite(IbisSerializationOutput) but does not implement"
                    + " ibis.io.Serializable");
        }
        if (c.method("<init>", READ_CONSTRUCTOR_DESCRIPTOR) != null) {
            return excluded("already declares a constructor (IbisSerializationInput) but does not implement"
                    + " ibis.io.Serializable");
        }
        ClassInfo generator = hierarchy.find(c.name + GENERATOR_SUFFIX);
        if (generator != null && !IBIS_GENERATOR.equals(generator.superName)) {
            return excluded("class " + generator.javaName() + " exists and is not an ibis.io.Generator");
        }
        // Rule 6: serial fields, their encodings (known types need the field types' classes).
        List<SerialField> fields = new ArrayList<>();
        for (ClassInfo.Member f : c.fields) {
            if (f.is(Opcodes.ACC_STATIC | Opcodes.ACC_TRANSIENT)) {
                continue;
            }
            FieldEncoding encoding;
            try {
                encoding = encoding(f.descriptor);
            } catch (MissingClassException e) {
                return excluded("the type of field " + f.name + " (" + e.getMessage() + ") is not in the input, the"
                        + " class path or the JDK");
            }
            fields.add(new SerialField(f.name, f.descriptor, encoding));
        }
        fields.sort(FieldPlan.CANONICAL_ORDER); // the order the stream's run-time code uses too
        String pin = pinned.get(c);
        if (pin != null) {
            return excluded(pin);
        }
        return Decision.rewrite(superSerializable, fields);
    }

    private boolean isEnumOrEnumConstant(ClassInfo c) throws MissingClassException {
        if (c.is(Opcodes.ACC_ENUM)) {
            return true;
        }
        for (String s = c.superName; s != null; s = hierarchy.get(s).superName) {
            if (s.equals("java/lang/Enum")) {
                return true;
            }
        }
        return false;
    }

    /** The JDK hook {@code level} declares (rule 2), described, or null. */
    private static String hook(ClassInfo level) {
        ClassInfo.Member m = level.method("writeObject", "(Ljava/io/ObjectOutputStream;)V");
        if (m != null && m.is(Opcodes.ACC_PRIVATE) && !m.is(Opcodes.ACC_STATIC)) {
            return "writeObject(ObjectOutputStream)";
        }
        m = level.method("readObject", "(Ljava/io/ObjectInputStream;)V");
        if (m != null && m.is(Opcodes.ACC_PRIVATE) && !m.is(Opcodes.ACC_STATIC)) {
            return "readObject(ObjectInputStream)";
        }
        m = level.method("readObjectNoData", "()V");
        if (m != null && m.is(Opcodes.ACC_PRIVATE) && !m.is(Opcodes.ACC_STATIC)) {
            return "readObjectNoData()";
        }
        if (level.field("serialPersistentFields", "[Ljava/io/ObjectStreamField;") != null) {
            return "serialPersistentFields";
        }
        return null;
    }

    /**
     * The JDK's lookup of {@code writeReplace()} / {@code readResolve()} for a Serializable class
     * (as ReflectionFactory finds it): the nearest class declaring a no-argument method of that
     * name decides; it counts when it returns Object, is neither static nor abstract, and is
     * public/protected, or private in {@code c} itself, or package-private in c's package.
     *
     * @return null when there is none, else " declared in X" (or "" when declared in c)
     */
    private String replaceOrResolve(ClassInfo c, String name) throws MissingClassException {
        for (ClassInfo def = c; def != null; def = def.superName == null ? null : hierarchy.get(def.superName)) {
            ClassInfo.Member found = null;
            boolean declared = false;
            for (ClassInfo.Member m : def.methods) {
                if (m.name.equals(name) && m.descriptor.startsWith("()")) {
                    if (declared) {
                        // Several: Class.getDeclaredMethod picks the most specific return type, never Object.
                        return null;
                    }
                    declared = true;
                    found = m;
                }
            }
            if (!declared) {
                continue;
            }
            if (!found.descriptor.equals("()" + OBJECT_RESULT) || found.is(Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT)) {
                return null;
            }
            if (found.is(Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)
                    || (found.is(Opcodes.ACC_PRIVATE) ? def == c : def.packageName().equals(c.packageName()))) {
                return def == c ? "" : " declared in " + def.javaName();
            }
            return null;
        }
        return null;
    }

    /** How a field with this descriptor travels (decides "known type"). */
    FieldEncoding encoding(String descriptor) throws MissingClassException {
        char k = descriptor.charAt(0);
        if (k == '[') {
            return descriptor.length() == 2 ? FieldEncoding.KNOWN : FieldEncoding.OBJECT;
        }
        if (k != 'L') {
            return FieldEncoding.primitive(descriptor);
        }
        String type = descriptor.substring(1, descriptor.length() - 1);
        if (type.equals(STRING)) {
            return FieldEncoding.STRING;
        }
        return isKnownClass(hierarchy.get(type)) ? FieldEncoding.KNOWN : FieldEncoding.OBJECT;
    }

    /** Known type test for a class (not an array), as the stream does it at run time. */
    private boolean isKnownClass(ClassInfo d) throws MissingClassException {
        if (d.isInterface() || (d.modifiers & Opcodes.ACC_FINAL) == 0) {
            return false;
        }
        if ((d.modifiers & Opcodes.ACC_ENUM) != 0 && "java/lang/Enum".equals(d.superName)) {
            return false; // Class.isEnum()
        }
        // The JDK looks for writeReplace only in Serializable classes.
        return !hierarchy.isSubtypeOf(d.name, SERIALIZABLE) || replaceOrResolve(d, "writeReplace") == null;
    }
}
