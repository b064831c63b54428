package ibis.gmi.impl;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Makes the group skeleton of a group interface: a subclass of {@link GroupSkeleton} whose
 * {@code dispatch} is one {@code tableswitch} over the method numbers, each case unpacking the
 * arguments and calling the interface method on the member.
 */
final class SkeletonGenerator {

    private static final String BASE = Type.getInternalName(GroupSkeleton.class);
    private static final Map<Class<?>, GroupSkeleton> SKELETONS = new ConcurrentHashMap<>();

    private SkeletonGenerator() {
    }

    /** The skeleton of {@code table}'s interface (prebuilt by ibisc, or made once per interface). */
    static GroupSkeleton skeleton(MethodTable table) {
        GroupSkeleton s = SKELETONS.get(table.type);
        return s != null ? s : SKELETONS.computeIfAbsent(table.type, t -> make(table));
    }

    private static GroupSkeleton make(MethodTable table) {
        String iface = Type.getInternalName(table.type);
        String name = GroupCode.skeletonName(iface).replace('/', '.');
        Class<?> c = GroupStubGenerator.prebuilt(table.type, name, GroupSkeleton.class);
        if (c == null) {
            c = GroupStubGenerator.defineFor(table.type, name,
                    generate(iface, table.signatures(), GroupCode.skeletonName(iface)));
        }
        try {
            return (GroupSkeleton) c.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the skeleton of " + table.type.getName() + ": " + e, e);
        }
    }

    static byte[] generate(String iface, List<GroupCode.MethodSig> methods, String self) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object";
            }
        };
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, self, null, BASE, null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, BASE, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "dispatch",
                "(Ljava/lang/Object;I[Ljava/lang/Object;)Ljava/lang/Object;", null,
                new String[] { "java/lang/Throwable" });
        mv.visitCode();
        Label fail = new Label();
        if (!methods.isEmpty()) {
            Label[] cases = new Label[methods.size()];
            for (int i = 0; i < cases.length; i++) {
                cases[i] = new Label();
            }
            mv.visitVarInsn(Opcodes.ILOAD, 2);
            mv.visitTableSwitchInsn(0, cases.length - 1, fail, cases);
            for (int i = 0; i < cases.length; i++) {
                mv.visitLabel(cases[i]);
                GroupCode.MethodSig m = methods.get(i);
                mv.visitVarInsn(Opcodes.ALOAD, 1);
                mv.visitTypeInsn(Opcodes.CHECKCAST, iface);
                Type[] args = Type.getArgumentTypes(m.descriptor());
                for (int a = 0; a < args.length; a++) {
                    mv.visitVarInsn(Opcodes.ALOAD, 3);
                    mv.visitLdcInsn(a);
                    mv.visitInsn(Opcodes.AALOAD);
                    unbox(mv, args[a]);
                }
                mv.visitMethodInsn(Opcodes.INVOKEINTERFACE, iface, m.name(), m.descriptor(), true);
                box(mv, Type.getReturnType(m.descriptor()));
                mv.visitInsn(Opcodes.ARETURN);
            }
        }
        mv.visitLabel(fail);
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, self, "noMethod", "(I)Ljava/lang/RuntimeException;", false);
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void unbox(MethodVisitor mv, Type t) {
        String owner = boxOwner(t);
        if (owner == null) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, t.getSort() == Type.ARRAY ? t.getDescriptor() : t.getInternalName());
            return;
        }
        mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, t.getClassName() + "Value", "()" + t.getDescriptor(), false);
    }

    private static void box(MethodVisitor mv, Type t) {
        if (t.getSort() == Type.VOID) {
            mv.visitInsn(Opcodes.ACONST_NULL);
            return;
        }
        String owner = boxOwner(t);
        if (owner != null) {
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, owner, "valueOf", "(" + t.getDescriptor() + ")L" + owner + ";",
                    false);
        }
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
}
