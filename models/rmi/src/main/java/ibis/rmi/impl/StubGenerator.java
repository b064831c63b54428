package ibis.rmi.impl;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Generates the bytecode of stubs and skeletons for a set of remote interfaces (see
 * {@link RemoteInterfaces} for the method numbering). The generated code marshals every
 * parameter with the typed method of its type (primitives are never boxed) and calls the target
 * with a direct {@code invokeinterface}; there is no reflection on the call path.
 *
 * <p>A stub class extends {@code ibis.rmi.server.RemoteStub}, implements all remote interfaces
 * and has a constructor taking a {@link RemoteReference}. A skeleton class extends
 * {@link Skeleton} and has a public no-argument constructor. The class bytes can also be used at
 * build time (for example by a rewriter pass): {@link #stubBytes} and {@link #skeletonBytes} only
 * need the interfaces and a class name.
 */
public final class StubGenerator implements Opcodes {

    private static final String REMOTE_STUB = "ibis/rmi/server/RemoteStub";
    private static final String REFERENCE = Type.getInternalName(RemoteReference.class);
    private static final String CLIENT_CALL = Type.getInternalName(ClientCall.class);
    private static final String SERVER_CALL = Type.getInternalName(ServerCall.class);
    private static final String SKELETON = Type.getInternalName(Skeleton.class);
    private static final String READ_MESSAGE = "ibis/ipl/ReadMessage";
    private static final String WRITE_MESSAGE = "ibis/ipl/WriteMessage";

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private StubGenerator() {
    }

    /** @return a fresh class name for generated code in the RMI generated package */
    static String newClassName(String kind, Class<?> firstInterface) {
        return "ibis.rmi.generated." + firstInterface.getSimpleName() + "_" + kind + COUNTER.incrementAndGet();
    }

    /**
     * The class file of a stub.
     *
     * @param className the binary name of the class to generate
     * @param remote the remote interfaces
     * @return the class file bytes
     */
    public static byte[] stubBytes(String className, RemoteInterfaces remote) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        List<Class<?>> interfaces = remote.interfaces();
        String[] names = new String[interfaces.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = Type.getInternalName(interfaces.get(i));
        }
        String internal = className.replace('.', '/');
        cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, internal, null, REMOTE_STUB, names);

        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "(L" + REFERENCE + ";)V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitMethodInsn(INVOKESPECIAL, REMOTE_STUB, "<init>", "(L" + REFERENCE + ";)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        Method[] methods = remote.methods();
        for (int number = 0; number < methods.length; number++) {
            stubMethod(cw, methods[number], number);
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void stubMethod(ClassWriter cw, Method m, int number) {
        Class<?>[] exceptions = m.getExceptionTypes();
        String[] exceptionNames = new String[exceptions.length];
        for (int i = 0; i < exceptions.length; i++) {
            exceptionNames[i] = Type.getInternalName(exceptions[i]);
        }
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_FINAL, m.getName(), Type.getMethodDescriptor(m), null,
                exceptionNames);
        mv.visitCode();
        Class<?>[] params = m.getParameterTypes();
        int local = 1;
        for (Class<?> p : params) {
            local += Type.getType(p).getSize();
        }
        int callLocal = local;
        // ClientCall call = this.ref.newCall(number);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, REMOTE_STUB, "ref", "L" + REFERENCE + ";");
        pushInt(mv, number);
        Class<?> returnType = m.getReturnType();
        pushInt(mv, returnType.isPrimitive() ? Type.getDescriptor(returnType).charAt(0) : 'L');
        mv.visitMethodInsn(INVOKEVIRTUAL, REFERENCE, "newCall", "(II)L" + CLIENT_CALL + ";", false);
        mv.visitVarInsn(ASTORE, callLocal);
        int slot = 1;
        for (Class<?> p : params) {
            Type t = Type.getType(p);
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitVarInsn(t.getOpcode(ILOAD), slot);
            String kind = kindOf(p);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "write" + kind, "(" + wireDescriptor(p) + ")V", false);
            slot += t.getSize();
        }
        mv.visitVarInsn(ALOAD, callLocal);
        mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "invoke", "()V", false);
        Class<?> r = m.getReturnType();
        if (r == void.class) {
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "done", "()V", false);
            mv.visitInsn(RETURN);
        } else {
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "read" + kindOf(r), "()" + wireDescriptor(r), false);
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "done", "()V", false);
            if (!r.isPrimitive() && r != Object.class) {
                mv.visitTypeInsn(CHECKCAST, Type.getInternalName(r));
            }
            mv.visitInsn(Type.getType(r).getOpcode(IRETURN));
        }
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /**
     * The class file of a skeleton.
     *
     * @param className the binary name of the class to generate
     * @param remote the remote interfaces
     * @return the class file bytes
     */
    public static byte[] skeletonBytes(String className, RemoteInterfaces remote) {
        // Frames: the only branch is the dispatch switch, whose targets all have the entry frame.
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        String internal = className.replace('.', '/');
        cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, internal, null, SKELETON, null);

        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitMethodInsn(INVOKESPECIAL, SKELETON, "<init>", "()V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        String callDescriptor = "(Ljava/lang/Object;L" + READ_MESSAGE + ";L" + SERVER_CALL + ";)V";
        Method[] methods = remote.methods();
        MethodVisitor d = cw.visitMethod(ACC_PUBLIC, "dispatch", "(Ljava/lang/Object;IL" + READ_MESSAGE + ";L"
                + SERVER_CALL + ";)V", null, new String[] { "java/lang/Throwable" });
        d.visitCode();
        Label unknown = new Label();
        if (methods.length > 0) {
            Label[] cases = new Label[methods.length];
            for (int i = 0; i < cases.length; i++) {
                cases[i] = new Label();
            }
            d.visitVarInsn(ILOAD, 2);
            d.visitTableSwitchInsn(0, methods.length - 1, unknown, cases);
            for (int i = 0; i < methods.length; i++) {
                d.visitLabel(cases[i]);
                d.visitVarInsn(ALOAD, 1);
                d.visitVarInsn(ALOAD, 3);
                d.visitVarInsn(ALOAD, 4);
                d.visitMethodInsn(INVOKESTATIC, internal, "call" + i, callDescriptor, false);
                d.visitInsn(RETURN);
            }
        }
        d.visitLabel(unknown);
        d.visitTypeInsn(NEW, "java/rmi/UnmarshalException");
        d.visitInsn(DUP);
        d.visitLdcInsn("no such remote method number in " + String.join(", ", remote.interfaceNames()));
        d.visitMethodInsn(INVOKESPECIAL, "java/rmi/UnmarshalException", "<init>", "(Ljava/lang/String;)V", false);
        d.visitInsn(ATHROW);
        d.visitMaxs(0, 0);
        d.visitEnd();

        for (int i = 0; i < methods.length; i++) {
            skeletonMethod(cw, methods[i], i, callDescriptor);
        }
        skipMethods(cw, internal, remote);
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void skeletonMethod(ClassWriter cw, Method m, int number, String callDescriptor) {
        MethodVisitor mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "call" + number, callDescriptor, null,
                new String[] { "java/lang/Throwable" });
        mv.visitCode();
        String owner = Type.getInternalName(m.getDeclaringClass());
        mv.visitVarInsn(ALOAD, 0);
        mv.visitTypeInsn(CHECKCAST, owner);
        for (Class<?> p : m.getParameterTypes()) {
            mv.visitVarInsn(ALOAD, 1);
            mv.visitMethodInsn(INVOKEINTERFACE, READ_MESSAGE, "read" + kindOf(p), "()" + wireDescriptor(p), true);
            if (!p.isPrimitive() && p != Object.class) {
                mv.visitTypeInsn(CHECKCAST, Type.getInternalName(p));
            }
        }
        mv.visitVarInsn(ALOAD, 2);
        mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "invoking", "()V", false);
        mv.visitMethodInsn(INVOKEINTERFACE, owner, m.getName(), Type.getMethodDescriptor(m), true);
        Class<?> r = m.getReturnType();
        if (r == void.class) {
            mv.visitVarInsn(ALOAD, 2);
            mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "returnVoid", "()V", false);
        } else {
            Type rt = Type.getType(r);
            mv.visitVarInsn(rt.getOpcode(ISTORE), 3);
            mv.visitVarInsn(ALOAD, 2);
            pushInt(mv, r.isPrimitive() ? Type.getDescriptor(r).charAt(0) : 'L');
            mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "result", "(I)L" + WRITE_MESSAGE + ";", false);
            mv.visitVarInsn(rt.getOpcode(ILOAD), 3);
            if (!r.isPrimitive()) {
                mv.visitMethodInsn(INVOKESTATIC, SERVER_CALL, "replace", "(Ljava/lang/Object;)Ljava/lang/Object;",
                        false);
            }
            mv.visitMethodInsn(INVOKEINTERFACE, WRITE_MESSAGE, "write" + kindOf(r), "(" + wireDescriptor(r) + ")V",
                    true);
            mv.visitVarInsn(ALOAD, 2);
            mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "sendResult", "()V", false);
        }
        mv.visitInsn(RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** {@code skip(number, in)}: a tableswitch to one static method per remote method that reads and drops its parameters. */
    private static void skipMethods(ClassWriter cw, String internal, RemoteInterfaces remote) {
        Method[] methods = remote.methods();
        String skipDescriptor = "(L" + READ_MESSAGE + ";)V";
        MethodVisitor d = cw.visitMethod(ACC_PUBLIC, "skip", "(IL" + READ_MESSAGE + ";)V", null,
                new String[] { "java/lang/Throwable" });
        d.visitCode();
        Label unknown = new Label();
        if (methods.length > 0) {
            Label[] cases = new Label[methods.length];
            for (int i = 0; i < cases.length; i++) {
                cases[i] = new Label();
            }
            d.visitVarInsn(ILOAD, 1);
            d.visitTableSwitchInsn(0, methods.length - 1, unknown, cases);
            for (int i = 0; i < methods.length; i++) {
                d.visitLabel(cases[i]);
                d.visitVarInsn(ALOAD, 2);
                d.visitMethodInsn(INVOKESTATIC, internal, "skip" + i, skipDescriptor, false);
                d.visitInsn(RETURN);
            }
        }
        d.visitLabel(unknown);
        d.visitTypeInsn(NEW, "java/rmi/UnmarshalException");
        d.visitInsn(DUP);
        d.visitLdcInsn("no such remote method number");
        d.visitMethodInsn(INVOKESPECIAL, "java/rmi/UnmarshalException", "<init>", "(Ljava/lang/String;)V", false);
        d.visitInsn(ATHROW);
        d.visitMaxs(0, 0);
        d.visitEnd();
        for (int i = 0; i < methods.length; i++) {
            MethodVisitor mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "skip" + i, skipDescriptor, null,
                    new String[] { "java/lang/Throwable" });
            mv.visitCode();
            for (Class<?> p : methods[i].getParameterTypes()) {
                mv.visitVarInsn(ALOAD, 0);
                mv.visitMethodInsn(INVOKEINTERFACE, READ_MESSAGE, "read" + kindOf(p), "()" + wireDescriptor(p), true);
                mv.visitInsn(Type.getType(p).getSize() == 2 ? POP2 : POP);
            }
            mv.visitInsn(RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
    }

    /** The suffix of the typed read/write method for a type. */
    private static String kindOf(Class<?> c) {
        if (c == boolean.class) return "Boolean";
        if (c == byte.class) return "Byte";
        if (c == char.class) return "Char";
        if (c == short.class) return "Short";
        if (c == int.class) return "Int";
        if (c == long.class) return "Long";
        if (c == float.class) return "Float";
        if (c == double.class) return "Double";
        return "Object";
    }

    private static String wireDescriptor(Class<?> c) {
        return c.isPrimitive() ? Type.getDescriptor(c) : "Ljava/lang/Object;";
    }

    private static void pushInt(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }
}
