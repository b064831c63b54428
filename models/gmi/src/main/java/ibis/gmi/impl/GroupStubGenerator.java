package ibis.gmi.impl;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Makes the group stub class of a group interface at run time, as bytecode: a subclass of
 * {@link GroupStub} implementing the interface, whose method number {@code i} packs its arguments
 * and calls {@link GroupStub#invoke(int, Object[])}, then unpacks the result to the declared type.
 * The class is defined by a loader below the interface's, so it sees the interface and GMI.
 */
final class GroupStubGenerator {

    private static final String BASE = Type.getInternalName(GroupStub.class);
    private static final Map<Class<?>, Class<? extends GroupStub>> CLASSES = new ConcurrentHashMap<>();

    private GroupStubGenerator() {
    }

    /** The stub class of {@code table}'s interface (made once per interface). */
    static Class<? extends GroupStub> stubClass(MethodTable table) {
        Class<? extends GroupStub> c = CLASSES.get(table.type);
        return c != null ? c : CLASSES.computeIfAbsent(table.type, t -> define(table));
    }

    private static final Map<Class<?>, StubLoader> LOADERS = new ConcurrentHashMap<>();

    /** The loader that defines the generated classes of a group interface (one per interface). */
    static StubLoader loaderFor(Class<?> type) {
        return LOADERS.computeIfAbsent(type, t -> {
            ClassLoader parent = t.getClassLoader();
            return new StubLoader(parent != null ? parent : GroupStubGenerator.class.getClassLoader());
        });
    }

    private static Class<? extends GroupStub> define(MethodTable table) {
        String internal = GroupCode.stubName(Type.getInternalName(table.type));
        String name = internal.replace('/', '.');
        Class<?> prebuilt = prebuilt(table.type, name, GroupStub.class);
        if (prebuilt != null) {
            return prebuilt.asSubclass(GroupStub.class);
        }
        byte[] code = generate(Type.getInternalName(table.type), table.signatures(), internal);
        return defineFor(table.type, name, code).asSubclass(GroupStub.class);
    }

    /**
     * Defines a generated class of the group interface {@code type}: for a public interface in a
     * loader below the interface's ({@link #loaderFor}); for one that is not public (earlier GMI
     * programs declare {@code interface Server extends GroupInterface} without {@code public}) in
     * the interface's own package and loader, the only place from which its methods can be
     * called and implemented.
     */
    static Class<?> defineFor(Class<?> type, String name, byte[] code) {
        if (java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
            return loaderFor(type).define(name, code);
        }
        try {
            return java.lang.invoke.MethodHandles.privateLookupIn(type, java.lang.invoke.MethodHandles.lookup())
                    .defineClass(code);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("cannot define " + name + " next to the non-public group interface "
                    + type.getName() + " (" + e.getMessage() + "): make the interface public, open its package to"
                    + " GMI, or rewrite the classes with ibisc at build time", e);
        }
    }

    /** A class that {@code ibisc} wrote at build time next to the interface, or null. */
    static Class<?> prebuilt(Class<?> type, String name, Class<?> base) {
        try {
            Class<?> c = Class.forName(name, true, type.getClassLoader());
            if (base.isAssignableFrom(c)) {
                return c;
            }
        } catch (ClassNotFoundException | LinkageError e) {
            // Not rewritten by ibisc: generate at run time.
        }
        return null;
    }

    static byte[] generate(String iface, List<GroupCode.MethodSig> methods, String internalName) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, internalName, null, BASE,
                new String[] { iface });
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, BASE, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        for (int i = 0; i < methods.size(); i++) {
            method(cw, i, methods.get(i));
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void method(ClassWriter cw, int index, GroupCode.MethodSig m) {
        Type[] args = Type.getArgumentTypes(m.descriptor());
        Type ret = Type.getReturnType(m.descriptor());
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL, m.name(), m.descriptor(), null,
                m.exceptions().length == 0 ? null : m.exceptions());
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitLdcInsn(index);
        mv.visitLdcInsn(args.length);
        mv.visitTypeInsn(Opcodes.ANEWARRAY, "java/lang/Object");
        int local = 1;
        for (int a = 0; a < args.length; a++) {
            mv.visitInsn(Opcodes.DUP);
            mv.visitLdcInsn(a);
            mv.visitVarInsn(args[a].getOpcode(Opcodes.ILOAD), local);
            box(mv, args[a]);
            mv.visitInsn(Opcodes.AASTORE);
            local += args[a].getSize();
        }
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, BASE, "invoke", "(I[Ljava/lang/Object;)Ljava/lang/Object;", false);
        unboxAndReturn(mv, ret);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void box(MethodVisitor mv, Type t) {
        String owner = boxOwner(t);
        if (owner != null) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, owner, "valueOf",
                    "(" + t.getDescriptor() + ")L" + owner + ";", false);
        }
    }

    private static void unboxAndReturn(MethodVisitor mv, Type t) {
        if (t.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.POP);
            mv.visitInsn(Opcodes.RETURN);
            return;
        }
        String owner = boxOwner(t);
        if (owner == null) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, t.getInternalName());
            mv.visitInsn(Opcodes.ARETURN);
            return;
        }
        mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, t.getClassName() + "Value", "()" + t.getDescriptor(), false);
        mv.visitInsn(t.getOpcode(Opcodes.IRETURN));
    }

    private static String boxOwner(Type t) {
        switch (t.getSort()) {
        case Type.BOOLEAN: return "java/lang/Boolean";
        case Type.BYTE: return "java/lang/Byte";
        case Type.CHAR: return "java/lang/Character";
        case Type.SHORT: return "java/lang/Short";
        case Type.INT: return "java/lang/Integer";
        case Type.LONG: return "java/lang/Long";
        case Type.FLOAT: return "java/lang/Float";
        case Type.DOUBLE: return "java/lang/Double";
        default: return null;
        }
    }

    /** Defines stub classes; finds the interface through its parent and GMI's classes through GMI's loader. */
    static final class StubLoader extends ClassLoader {
        StubLoader(ClassLoader parent) {
            super(parent);
        }

        synchronized Class<?> define(String name, byte[] code) {
            return defineClass(name, code, 0, code.length);
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            return Class.forName(name, false, GroupStubGenerator.class.getClassLoader());
        }
    }
}
