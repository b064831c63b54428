package ibis.rewriter;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * What the rewriter needs to know about one class, read from its class file bytes with ASM (the
 * class is never loaded into the JVM): names of the class, its superclass and interfaces, access
 * flags, and its declared fields and methods.
 */
final class ClassInfo {

    /** A declared field or method: access flags, name, descriptor (and a method's declared exceptions). */
    static final class Member {
        final int access;
        final String name;
        final String descriptor;
        final List<String> exceptions;

        Member(int access, String name, String descriptor) {
            this(access, name, descriptor, List.of());
        }

        Member(int access, String name, String descriptor, List<String> exceptions) {
            this.access = access;
            this.name = name;
            this.descriptor = descriptor;
            this.exceptions = exceptions;
        }

        boolean is(int flag) {
            return (access & flag) != 0;
        }
    }

    final int version;          // major version (low 16 bits of ASM's version)
    final int access;           // access_flags of the class file
    final int modifiers;        // as Class.getModifiers() reports them (InnerClasses entry when present)
    final String name;          // internal name, e.g. p/Outer$Inner
    final String superName;     // null for java/lang/Object and module-info
    final List<String> interfaces;
    final List<Member> fields;
    final List<Member> methods;

    private ClassInfo(int version, int access, int modifiers, String name, String superName, List<String> interfaces,
            List<Member> fields, List<Member> methods) {
        this.version = version;
        this.access = access;
        this.modifiers = modifiers;
        this.name = name;
        this.superName = superName;
        this.interfaces = interfaces;
        this.fields = fields;
        this.methods = methods;
    }

    /** Reads the summary of a class file; throws IllegalArgumentException for bytes ASM cannot parse. */
    static ClassInfo read(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        Collector collector = new Collector();
        reader.accept(collector, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return new ClassInfo(collector.version & 0xffff, collector.access,
                collector.innerModifiers >= 0 ? collector.innerModifiers : collector.access, collector.name,
                collector.superName, collector.interfaces, Collections.unmodifiableList(collector.fields),
                Collections.unmodifiableList(collector.methods));
    }

    /**
     * A summary made up without a class file, for the two ibis.io types rewritten classes refer
     * to (ibis-io need not be on the rewriter's class path): {@code ibis.io.Serializable} (an
     * interface extending nothing) and {@code ibis.io.Generator} (an abstract class).
     */
    static ClassInfo builtIn(String name, int access, int version) {
        return new ClassInfo(version, access, access, name, "java/lang/Object", List.of(), List.of(), List.of());
    }

    boolean is(int flag) {
        return (access & flag) != 0;
    }

    boolean isInterface() {
        return is(Opcodes.ACC_INTERFACE);
    }

    /** Whether the class lists {@code iface} among its own (direct) interfaces. */
    boolean listsInterface(String iface) {
        return interfaces.contains(iface);
    }

    /** The package part of the internal name ("" for the unnamed package). */
    String packageName() {
        return packageOf(name);
    }

    static String packageOf(String internalName) {
        int slash = internalName.lastIndexOf('/');
        return slash < 0 ? "" : internalName.substring(0, slash);
    }

    /** The declared method with exactly this name and descriptor, or null. */
    Member method(String methodName, String descriptor) {
        for (Member m : methods) {
            if (m.name.equals(methodName) && m.descriptor.equals(descriptor)) {
                return m;
            }
        }
        return null;
    }

    /** The declared field with this name and descriptor, or null. */
    Member field(String fieldName, String descriptor) {
        for (Member f : fields) {
            if (f.name.equals(fieldName) && f.descriptor.equals(descriptor)) {
                return f;
            }
        }
        return null;
    }

    /** Java's name of the class (dots), for messages. */
    String javaName() {
        return name.replace('/', '.');
    }

    @Override
    public String toString() {
        return javaName();
    }

    private static final class Collector extends ClassVisitor {
        int version;
        int access;
        int innerModifiers = -1;
        String name;
        String superName;
        List<String> interfaces;
        final List<Member> fields = new ArrayList<>();
        final List<Member> methods = new ArrayList<>();

        Collector() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.version = version;
            this.access = access;
            this.name = name;
            this.superName = superName;
            this.interfaces = interfaces == null ? List.of() : List.of(interfaces);
        }

        @Override
        public void visitInnerClass(String innerName, String outerName, String simpleName, int innerAccess) {
            if (innerName.equals(name)) {
                // Class.getModifiers() of a member/local/anonymous class comes from this entry.
                innerModifiers = innerAccess;
            }
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            fields.add(new Member(access, name, descriptor));
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            methods.add(new Member(access, name, descriptor, exceptions == null ? List.of() : List.of(exceptions)));
            return null;
        }
    }
}
