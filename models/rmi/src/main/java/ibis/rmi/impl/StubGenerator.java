package ibis.rmi.impl;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Generates the bytecode of stubs and skeletons for a set of remote interfaces (see
 * {@link RemoteInterfaces} for the method numbering). The generated code marshals every
 * parameter with the typed method of its type (primitives are never boxed) and calls the target
 * with a direct {@code invokeinterface}; there is no reflection on the call path.
 *
 * <p>A stub class extends {@code ibis.rmi.server.RemoteStub}, implements all remote interfaces
 * and has a constructor taking a {@link RemoteReference}. A skeleton class extends
 * {@link Skeleton} and has a public no-argument constructor. Both carry the table's
 * {@link RemoteMethodTable#hash() fingerprint} in a static field
 * {@value RemoteMethodTable#HASH_FIELD}. The input is a {@link RemoteMethodTable}, which the run
 * time computes from loaded classes and the rewriter's build-time pass from class files, so both
 * produce the same code for the same interfaces; the output depends only on the table and the
 * class name (deterministic bytes).
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
     * @return a fresh class name for generated code in the package of a non-public remote
     *         interface (see {@link RemoteInterfaces#host()})
     */
    static String newClassName(String kind, Class<?> firstInterface, Class<?> host) {
        String pkg = host.getPackageName();
        return (pkg.isEmpty() ? "" : pkg + ".") + firstInterface.getSimpleName() + "_IbisRt" + kind
                + COUNTER.incrementAndGet();
    }

    /**
     * The class file of a stub.
     *
     * @param className the binary name of the class to generate
     * @param remote the remote interfaces
     * @return the class file bytes
     */
    public static byte[] stubBytes(String className, RemoteMethodTable remote) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        String[] names = remote.interfaces().toArray(new String[0]);
        String internal = className.replace('.', '/');
        cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, internal, null, REMOTE_STUB, names);
        hashField(cw, remote);

        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "(L" + REFERENCE + ";)V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitVarInsn(ALOAD, 1);
        init.visitMethodInsn(INVOKESPECIAL, REMOTE_STUB, "<init>", "(L" + REFERENCE + ";)V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        List<RemoteMethodTable.RemoteMethod> methods = remote.methods();
        for (int number = 0; number < methods.size(); number++) {
            stubMethod(cw, methods.get(number), number);
        }
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void hashField(ClassWriter cw, RemoteMethodTable remote) {
        cw.visitField(ACC_PUBLIC | ACC_STATIC | ACC_FINAL | ACC_SYNTHETIC, RemoteMethodTable.HASH_FIELD, "J", null,
                remote.hash()).visitEnd();
    }

    private static void stubMethod(ClassWriter cw, RemoteMethodTable.RemoteMethod m, int number) {
        String[] exceptionNames = m.exceptions().toArray(new String[0]);
        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC | ACC_FINAL, m.name(), m.descriptor(), null, exceptionNames);
        mv.visitCode();
        Type[] params = Type.getArgumentTypes(m.descriptor());
        int local = 1;
        for (Type p : params) {
            local += p.getSize();
        }
        int callLocal = local;
        // ClientCall call = this.ref.newCall(number);
        mv.visitVarInsn(ALOAD, 0);
        mv.visitFieldInsn(GETFIELD, REMOTE_STUB, "ref", "L" + REFERENCE + ";");
        pushInt(mv, number);
        Type r = Type.getReturnType(m.descriptor());
        pushInt(mv, returnKind(r));
        mv.visitMethodInsn(INVOKEVIRTUAL, REFERENCE, "newCall", "(II)L" + CLIENT_CALL + ";", false);
        mv.visitVarInsn(ASTORE, callLocal);
        int slot = 1;
        for (Type p : params) {
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitVarInsn(p.getOpcode(ILOAD), slot);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "write" + kindOf(p), "(" + wireDescriptor(p) + ")V", false);
            slot += p.getSize();
        }
        mv.visitVarInsn(ALOAD, callLocal);
        mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "invoke", "()V", false);
        if (r.getSort() == Type.VOID) {
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "done", "()V", false);
            mv.visitInsn(RETURN);
        } else {
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "read" + kindOf(r), "()" + wireDescriptor(r), false);
            mv.visitVarInsn(ALOAD, callLocal);
            mv.visitMethodInsn(INVOKEVIRTUAL, CLIENT_CALL, "done", "()V", false);
            checkCast(mv, r);
            mv.visitInsn(r.getOpcode(IRETURN));
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
    public static byte[] skeletonBytes(String className, RemoteMethodTable remote) {
        // Frames: the only branch is the dispatch switch, whose targets all have the entry frame.
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String a, String b) {
                return "java/lang/Object";
            }
        };
        String internal = className.replace('.', '/');
        cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER | ACC_SYNTHETIC, internal, null, SKELETON, null);
        hashField(cw, remote);

        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitMethodInsn(INVOKESPECIAL, SKELETON, "<init>", "()V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        String callDescriptor = "(Ljava/lang/Object;L" + READ_MESSAGE + ";L" + SERVER_CALL + ";)V";
        List<RemoteMethodTable.RemoteMethod> methods = remote.methods();
        MethodVisitor d = cw.visitMethod(ACC_PUBLIC, "dispatch", "(Ljava/lang/Object;IL" + READ_MESSAGE + ";L"
                + SERVER_CALL + ";)V", null, new String[] { "java/lang/Throwable" });
        d.visitCode();
        Label unknown = new Label();
        if (methods.size() > 0) {
            Label[] cases = new Label[methods.size()];
            for (int i = 0; i < cases.length; i++) {
                cases[i] = new Label();
            }
            d.visitVarInsn(ILOAD, 2);
            d.visitTableSwitchInsn(0, methods.size() - 1, unknown, cases);
            for (int i = 0; i < methods.size(); i++) {
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
        d.visitLdcInsn("no such remote method number in " + String.join(", ", remote.interfaces()).replace('/', '.'));
        d.visitMethodInsn(INVOKESPECIAL, "java/rmi/UnmarshalException", "<init>", "(Ljava/lang/String;)V", false);
        d.visitInsn(ATHROW);
        d.visitMaxs(0, 0);
        d.visitEnd();

        for (int i = 0; i < methods.size(); i++) {
            skeletonMethod(cw, methods.get(i), i, callDescriptor);
        }
        skipMethods(cw, internal, remote);
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void skeletonMethod(ClassWriter cw, RemoteMethodTable.RemoteMethod m, int number,
            String callDescriptor) {
        MethodVisitor mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "call" + number, callDescriptor, null,
                new String[] { "java/lang/Throwable" });
        mv.visitCode();
        String owner = m.owner();
        mv.visitVarInsn(ALOAD, 0);
        mv.visitTypeInsn(CHECKCAST, owner);
        for (Type p : Type.getArgumentTypes(m.descriptor())) {
            mv.visitVarInsn(ALOAD, 1);
            mv.visitMethodInsn(INVOKEINTERFACE, READ_MESSAGE, "read" + kindOf(p), "()" + wireDescriptor(p), true);
            checkCast(mv, p);
        }
        mv.visitVarInsn(ALOAD, 2);
        mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "invoking", "()V", false);
        mv.visitMethodInsn(INVOKEINTERFACE, owner, m.name(), m.descriptor(), true);
        Type r = Type.getReturnType(m.descriptor());
        if (r.getSort() == Type.VOID) {
            mv.visitVarInsn(ALOAD, 2);
            mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "returnVoid", "()V", false);
        } else {
            mv.visitVarInsn(r.getOpcode(ISTORE), 3);
            mv.visitVarInsn(ALOAD, 2);
            pushInt(mv, returnKind(r));
            mv.visitMethodInsn(INVOKEVIRTUAL, SERVER_CALL, "result", "(I)L" + WRITE_MESSAGE + ";", false);
            mv.visitVarInsn(r.getOpcode(ILOAD), 3);
            if (!isPrimitive(r)) {
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

    /**
     * {@code skip(number, in)}: a tableswitch to one static method per remote method that reads and
     * drops its parameters.
     */
    private static void skipMethods(ClassWriter cw, String internal, RemoteMethodTable remote) {
        List<RemoteMethodTable.RemoteMethod> methods = remote.methods();
        String skipDescriptor = "(L" + READ_MESSAGE + ";)V";
        MethodVisitor d = cw.visitMethod(ACC_PUBLIC, "skip", "(IL" + READ_MESSAGE + ";)V", null,
                new String[] { "java/lang/Throwable" });
        d.visitCode();
        Label unknown = new Label();
        if (methods.size() > 0) {
            Label[] cases = new Label[methods.size()];
            for (int i = 0; i < cases.length; i++) {
                cases[i] = new Label();
            }
            d.visitVarInsn(ILOAD, 1);
            d.visitTableSwitchInsn(0, methods.size() - 1, unknown, cases);
            for (int i = 0; i < methods.size(); i++) {
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
        for (int i = 0; i < methods.size(); i++) {
            MethodVisitor mv = cw.visitMethod(ACC_PRIVATE | ACC_STATIC, "skip" + i, skipDescriptor, null,
                    new String[] { "java/lang/Throwable" });
            mv.visitCode();
            for (Type p : Type.getArgumentTypes(methods.get(i).descriptor())) {
                mv.visitVarInsn(ALOAD, 0);
                mv.visitMethodInsn(INVOKEINTERFACE, READ_MESSAGE, "read" + kindOf(p), "()" + wireDescriptor(p), true);
                mv.visitInsn(p.getSize() == 2 ? POP2 : POP);
            }
            mv.visitInsn(RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
    }

    /** The suffix of the typed read/write method for a type. */
    private static String kindOf(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: return "Boolean";
            case Type.BYTE: return "Byte";
            case Type.CHAR: return "Char";
            case Type.SHORT: return "Short";
            case Type.INT: return "Int";
            case Type.LONG: return "Long";
            case Type.FLOAT: return "Float";
            case Type.DOUBLE: return "Double";
            default: return "Object";
        }
    }

    private static boolean isPrimitive(Type t) {
        return t.getSort() != Type.OBJECT && t.getSort() != Type.ARRAY;
    }

    /** The descriptor character of a return type, 'L' for references and arrays (as ClientCall/ServerCall expect). */
    private static int returnKind(Type t) {
        return isPrimitive(t) ? t.getDescriptor().charAt(0) : 'L';
    }

    private static String wireDescriptor(Type t) {
        return isPrimitive(t) ? t.getDescriptor() : "Ljava/lang/Object;";
    }

    private static void checkCast(MethodVisitor mv, Type t) {
        if (!isPrimitive(t) && !t.getInternalName().equals("java/lang/Object")) {
            mv.visitTypeInsn(CHECKCAST, t.getInternalName());
        }
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
