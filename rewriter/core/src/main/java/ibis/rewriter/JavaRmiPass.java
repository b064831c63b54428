package ibis.rewriter;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;

/**
 * The {@code --java-rmi} drop-in pass: renames the {@code java.rmi} classes a program uses to
 * find and export remote objects ({@code Naming}, {@code registry.LocateRegistry},
 * {@code registry.Registry}, {@code server.UnicastRemoteObject}, {@code server.RemoteStub},
 * the result type of the JDK's {@code exportObject(Remote)}, and {@code server.RemoteObject} and
 * {@code server.RemoteRef}, for {@code getRef()} and the remote identity) to their {@code ibis.rmi}
 * counterparts wherever a class file names them (member owners, superclass, interfaces,
 * descriptors, signatures, type instructions, class constants, method handles). Calls of
 * {@code RemoteServer}'s static {@code getClientHost}, {@code getLog} and {@code setLog} go to the
 * Ibis {@code UnicastRemoteObject}'s. Nothing else is renamed: the exceptions, the socket
 * factories and {@code java.rmi.Remote} stay the JDK's.
 *
 * <p>Every method and field the program uses on one of the mapped classes must exist on the
 * {@code ibis.rmi} class (looked up, with its supertypes, through the {@link ClassHierarchy}, or as
 * a class file of the rewriter's own class path); otherwise the class is not rewritten and the run
 * fails naming the class and the member. A class that names none of them is returned as it
 * was, so a second run changes nothing.
 */
final class JavaRmiPass {

    /** java.rmi internal name to ibis.rmi internal name. */
    static final Map<String, String> MAPPING = Map.of(
            "java/rmi/Naming", "ibis/rmi/Naming",
            "java/rmi/registry/LocateRegistry", "ibis/rmi/registry/LocateRegistry",
            "java/rmi/registry/Registry", "ibis/rmi/registry/Registry",
            "java/rmi/server/UnicastRemoteObject", "ibis/rmi/server/UnicastRemoteObject",
            // The JDK's deprecated exportObject(Remote) returns a RemoteStub: Ibis's returns its own.
            "java/rmi/server/RemoteStub", "ibis/rmi/server/RemoteStub",
            // getRef(), toStub and the identity of stubs and remote objects; the ref's identity methods.
            "java/rmi/server/RemoteObject", "ibis/rmi/server/RemoteObject",
            "java/rmi/server/RemoteRef", "ibis/rmi/server/RemoteRef");

    private static final String REMOTE_SERVER = "java/rmi/server/RemoteServer";
    private static final String UNICAST_REMOTE_OBJECT = "java/rmi/server/UnicastRemoteObject";

    /**
     * The static methods of {@code java.rmi.server.RemoteServer} ({@code getClientHost},
     * {@code getLog}, {@code setLog}): a program may call them through {@code RemoteServer}
     * itself; such calls are sent to {@code UnicastRemoteObject}, which inherits them in the JDK
     * and declares them in Ibis RMI. ({@code RemoteServer} itself is not renamed: a class may
     * extend it or test for it.)
     */
    private static final Set<String> REMOTE_SERVER_STATICS = Set.of("getClientHost", "getLog", "setLog");

    /** A member reference to one of the mapped classes, as the original class file names it. */
    private static final class MemberRef {
        final boolean field;
        final String owner;
        final String name;
        final String descriptor;

        MemberRef(boolean field, String owner, String name, String descriptor) {
            this.field = field;
            this.owner = owner;
            this.name = name;
            this.descriptor = descriptor;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof MemberRef)) {
                return false;
            }
            MemberRef m = (MemberRef) o;
            return field == m.field && owner.equals(m.owner) && name.equals(m.name) && descriptor.equals(m.descriptor);
        }

        @Override
        public int hashCode() {
            return ((owner.hashCode() * 31 + name.hashCode()) * 31 + descriptor.hashCode()) * 2 + (field ? 1 : 0);
        }

        String describe() {
            String javaOwner = owner.replace('/', '.');
            if (name.equals("<init>")) {
                return "constructor " + javaOwner + "(" + arguments() + ")";
            }
            if (field) {
                return "field " + javaOwner + "." + name + " (" + Type.getType(descriptor).getClassName() + ")";
            }
            return "method " + javaOwner + "." + name + "(" + arguments() + ") returning "
                    + Type.getReturnType(descriptor).getClassName();
        }

        private String arguments() {
            StringBuilder b = new StringBuilder();
            Type[] args = Type.getArgumentTypes(descriptor);
            for (int i = 0; i < args.length; i++) {
                b.append(i == 0 ? "" : ", ").append(args[i].getClassName());
            }
            return b.toString();
        }
    }

    /** Sets a flag when one of the mapped names is renamed. */
    private static final class FlaggingRemapper extends SimpleRemapper {
        boolean renamed;

        FlaggingRemapper() {
            super(MAPPING);
        }

        @Override
        public String map(String key) {
            String mapped = super.map(key);
            if (mapped != null) {
                renamed = true;
            }
            return mapped;
        }
    }

    private final ClassHierarchy hierarchy;

    JavaRmiPass(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /**
     * Renames the mapped classes in one class file.
     *
     * @param bytes the class file
     * @param className the class's Java name, for messages
     * @return the renamed class file, or null when the class names none of the mapped classes
     * @throws IllegalStateException when a used method or field has no ibis.rmi counterpart
     *         (the message names the class and the member)
     */
    byte[] remap(byte[] bytes, String className) {
        ClassReader reader = new ClassReader(bytes);
        FlaggingRemapper remapper = new FlaggingRemapper();
        Set<MemberRef> refs = new LinkedHashSet<>();
        // A fresh constant pool (the old names must not linger in it); frames and maximums are
        // copied as they are (only names change).
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new RefCollector(new ClassRemapper(writer, remapper), refs), 0);
        if (!remapper.renamed) {
            return null;
        }
        List<String> missing = new ArrayList<>();
        for (MemberRef r : refs) {
            String problem = check(r, remapper);
            if (problem != null) {
                missing.add(problem);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("class " + className + " uses " + String.join("; ", missing));
        }
        return writer.toByteArray();
    }

    /** Null when the ibis.rmi class has the member; else what is wrong. */
    private String check(MemberRef r, SimpleRemapper remapper) {
        String target = MAPPING.get(r.owner);
        String descriptor = r.field ? remapper.mapDesc(r.descriptor) : remapper.mapMethodDesc(r.descriptor);
        ClassInfo owner = find(target);
        if (owner == null) {
            return r.describe() + ", but " + target.replace('/', '.') + " is not on the class path (ibis-rmi must be"
                    + " on the rewriter's class path for --java-rmi)";
        }
        if (has(owner, r.field, r.name, descriptor)) {
            return null;
        }
        return r.describe() + ", which has no ibis.rmi counterpart (" + target.replace('/', '.') + " has no "
                + (r.field ? "field " + r.name : r.name.equals("<init>") ? "constructor " : "method " + r.name)
                + descriptor + ")";
    }

    /**
     * An ibis.rmi class: from the inputs or the class path, else the class file the rewriter's own
     * class loader sees (read as bytes, never loaded), so {@code ibisc} from the distribution,
     * which ships ibis-rmi, works without {@code -cp}.
     */
    private ClassInfo find(String name) {
        ClassInfo info = hierarchy.find(name);
        if (info != null) {
            return info;
        }
        ClassLoader loader = JavaRmiPass.class.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(name + ".class")) {
            return in == null ? null : ClassInfo.read(in.readAllBytes());
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the class or (except for constructors) one of its supertypes declares the member. */
    private boolean has(ClassInfo start, boolean field, String name, String descriptor) {
        if (name.equals("<init>")) {
            return start.method(name, descriptor) != null;
        }
        Deque<ClassInfo> todo = new ArrayDeque<>();
        Set<String> seen = new HashSet<>();
        todo.add(start);
        while (!todo.isEmpty()) {
            ClassInfo c = todo.poll();
            if (!seen.add(c.name)) {
                continue;
            }
            if (field ? c.field(name, descriptor) != null : c.method(name, descriptor) != null) {
                return true;
            }
            List<String> supers = new ArrayList<>(c.interfaces);
            if (c.superName != null) {
                supers.add(c.superName);
            }
            if (c.isInterface()) {
                // Object's public methods are callable on an interface type.
                supers.add(ClassHierarchy.OBJECT);
            }
            for (String s : supers) {
                ClassInfo info = find(s);
                if (info != null) {
                    todo.add(info);
                }
            }
        }
        return false;
    }

    /** Records the member references to the mapped classes, passing everything on unchanged. */
    private static final class RefCollector extends ClassVisitor {
        private final Set<MemberRef> refs;

        RefCollector(ClassVisitor next, Set<MemberRef> refs) {
            super(Opcodes.ASM9, next);
            this.refs = refs;
        }

        void add(boolean field, String owner, String name, String descriptor) {
            if (MAPPING.containsKey(owner)) {
                refs.add(new MemberRef(field, owner, name, descriptor));
            }
        }

        void addConstant(Object value) {
            if (value instanceof Handle) {
                Handle h = (Handle) value;
                boolean field = h.getTag() <= Opcodes.H_PUTSTATIC;
                add(field, h.getOwner(), h.getName(), h.getDesc());
            }
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            return new MethodVisitor(Opcodes.ASM9, next) {
                @Override
                public void visitMethodInsn(int opcode, String owner, String mName, String mDescriptor,
                        boolean isInterface) {
                    if (opcode == Opcodes.INVOKESTATIC && owner.equals(REMOTE_SERVER)
                            && REMOTE_SERVER_STATICS.contains(mName)) {
                        // RemoteServer's statics, inherited by UnicastRemoteObject: called through
                        // that class, they are renamed (and checked) like its own members.
                        owner = UNICAST_REMOTE_OBJECT;
                    }
                    add(false, owner, mName, mDescriptor);
                    super.visitMethodInsn(opcode, owner, mName, mDescriptor, isInterface);
                }

                @Override
                public void visitFieldInsn(int opcode, String owner, String fName, String fDescriptor) {
                    add(true, owner, fName, fDescriptor);
                    super.visitFieldInsn(opcode, owner, fName, fDescriptor);
                }

                @Override
                public void visitLdcInsn(Object value) {
                    addConstant(value);
                    super.visitLdcInsn(value);
                }

                @Override
                public void visitInvokeDynamicInsn(String iName, String iDescriptor, Handle bsm, Object... args) {
                    addConstant(bsm);
                    for (Object a : args) {
                        addConstant(a);
                    }
                    super.visitInvokeDynamicInsn(iName, iDescriptor, bsm, args);
                }
            };
        }
    }
}
