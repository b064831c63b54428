package ibis.gmi.impl;

import ibis.gmi.ParameterVector;
import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Makes the parameter vector class of one group method at run time: a subclass of
 * {@link GeneratedParameterVector} with a field per parameter of its declared type (no boxing in
 * {@code write}/{@code read} or in (de)serialization), defined next to the group stub.
 */
final class ParameterVectorGenerator {

    private static final String BASE = Type.getInternalName(GeneratedParameterVector.class);
    private static final String PV = Type.getInternalName(ParameterVector.class);
    private static final String WM = Type.getInternalName(WriteMessage.class);
    private static final String RM = Type.getInternalName(ReadMessage.class);
    private static final String OBJ = "java/lang/Object";
    private static final String OBJD = "Ljava/lang/Object;";
    private static final String BASED = "L" + BASE + ";";
    private static final Type[] PRIMITIVES = { Type.BOOLEAN_TYPE, Type.BYTE_TYPE, Type.CHAR_TYPE, Type.SHORT_TYPE,
        Type.INT_TYPE, Type.LONG_TYPE, Type.FLOAT_TYPE, Type.DOUBLE_TYPE };

    private static final Map<String, GeneratedParameterVector> PROTOTYPES = new ConcurrentHashMap<>();

    private ParameterVectorGenerator() {
    }

    /** A new, empty vector of method {@code method} of {@code table}'s interface. */
    static GeneratedParameterVector newVector(MethodTable table, int method) {
        String key = table.type.getName() + "#" + method;
        GeneratedParameterVector proto = PROTOTYPES.get(key);
        if (proto == null) {
            proto = PROTOTYPES.computeIfAbsent(key, k -> prototype(table, method));
        }
        return proto.fresh();
    }

    /** A vector holding {@code args}. */
    static GeneratedParameterVector of(MethodTable table, int method, Object[] args) {
        GeneratedParameterVector v = newVector(table, method);
        for (int i = 0; i < args.length; i++) {
            v.put(i, args[i]);
        }
        return v;
    }

    private static GeneratedParameterVector prototype(MethodTable table, int method) {
        String iface = Type.getInternalName(table.type);
        String name = GroupCode.vectorName(iface, method).replace('/', '.');
        Class<?> c = GroupStubGenerator.prebuilt(table.type, name, GeneratedParameterVector.class);
        if (c == null) {
            byte[] code = generate(table.signatures().get(method).descriptor(), name.replace('.', '/'));
            c = GroupStubGenerator.defineFor(table.type, name, code);
        }
        GeneratedParameterVector.PROTOTYPE_SIZE.set(table.parameterTypes[method].length);
        try {
            GeneratedParameterVector p = (GeneratedParameterVector) c.getDeclaredConstructor(
                    GeneratedParameterVector.class).newInstance((Object) null);
            p.table = table;
            p.method = method;
            return p;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make the parameter vector of " + table.signature(method) + ": " + e,
                    e);
        } finally {
            GeneratedParameterVector.PROTOTYPE_SIZE.remove();
        }
    }

    static byte[] generate(String methodDescriptor, String self) {
        Type[] params = Type.getArgumentTypes(methodDescriptor);
        Type[] types = new Type[params.length];
        for (int k = 0; k < params.length; k++) {
            types[k] = isPrimitive(params[k]) ? params[k] : Type.getType(Object.class);
        }
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return OBJ;
            }
        };
        cw.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, self, null, BASE, null);
        for (int k = 0; k < types.length; k++) {
            cw.visitField(Opcodes.ACC_PRIVATE, "p" + k, types[k].getDescriptor(), null, null).visitEnd();
        }
        MethodVisitor mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "(" + BASED + ")V", null, null);
        mv.visitCode();
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, BASE, "<init>", "(" + BASED + ")V", false);
        mv.visitInsn(Opcodes.RETURN);
        end(mv);

        mv = cw.visitMethod(Opcodes.ACC_PROTECTED, "fresh", "()" + BASED, null, null);
        mv.visitCode();
        mv.visitTypeInsn(Opcodes.NEW, self);
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, self, "<init>", "(" + BASED + ")V", false);
        mv.visitInsn(Opcodes.ARETURN);
        end(mv);

        getAndPut(cw, self, types);
        for (Type t : PRIMITIVES) {
            writeAndRead(cw, self, types, t);
        }
        references(cw, self, types, params);
        serialization(cw, self, types);
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void end(MethodVisitor mv) {
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** {@code if (num != k) goto next} with num in local 1. */
    private static Label unless(MethodVisitor mv, int k) {
        Label next = new Label();
        mv.visitVarInsn(Opcodes.ILOAD, 1);
        mv.visitLdcInsn(k);
        mv.visitJumpInsn(Opcodes.IF_ICMPNE, next);
        return next;
    }

    private static void mark(MethodVisitor mv, String owner, int k) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitLdcInsn(k);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, "mark", "(I)V", false);
    }

    private static void need(MethodVisitor mv, String owner, int k) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitLdcInsn(k);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner, "need", "(I)V", false);
    }

    private static void getAndPut(ClassWriter cw, String self, Type[] types) {
        MethodVisitor get = cw.visitMethod(Opcodes.ACC_PROTECTED, "get", "(I)" + OBJD, null, null);
        get.visitCode();
        MethodVisitor put = cw.visitMethod(Opcodes.ACC_PROTECTED, "put", "(I" + OBJD + ")V", null, null);
        put.visitCode();
        for (int k = 0; k < types.length; k++) {
            Type t = types[k];
            Label next = unless(get, k);
            get.visitVarInsn(Opcodes.ALOAD, 0);
            get.visitFieldInsn(Opcodes.GETFIELD, self, "p" + k, t.getDescriptor());
            String box = boxOwner(t);
            if (box != null) {
                get.visitMethodInsn(Opcodes.INVOKESTATIC, box, "valueOf", "(" + t.getDescriptor() + ")L" + box + ";",
                        false);
            }
            get.visitInsn(Opcodes.ARETURN);
            get.visitLabel(next);

            next = unless(put, k);
            put.visitVarInsn(Opcodes.ALOAD, 0);
            put.visitVarInsn(Opcodes.ALOAD, 2);
            if (box != null) {
                put.visitTypeInsn(Opcodes.CHECKCAST, box);
                put.visitMethodInsn(Opcodes.INVOKEVIRTUAL, box, t.getClassName() + "Value", "()" + t.getDescriptor(),
                        false);
            }
            put.visitFieldInsn(Opcodes.PUTFIELD, self, "p" + k, t.getDescriptor());
            mark(put, self, k);
            put.visitInsn(Opcodes.RETURN);
            put.visitLabel(next);
        }
        for (MethodVisitor mv : new MethodVisitor[] { get, put }) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ILOAD, 1);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "noSlot", "(I)Ljava/lang/RuntimeException;", false);
            mv.visitInsn(Opcodes.ATHROW);
            end(mv);
        }
    }

    /** write(int, T) and readT(int) for a primitive T, when a parameter has that type. */
    private static void writeAndRead(ClassWriter cw, String self, Type[] types, Type t) {
        boolean any = false;
        for (Type p : types) {
            any |= p.equals(t);
        }
        if (!any) {
            return;
        }
        String d = t.getDescriptor();
        String cap = Character.toUpperCase(t.getClassName().charAt(0)) + t.getClassName().substring(1);
        MethodVisitor w = cw.visitMethod(Opcodes.ACC_PUBLIC, "write", "(I" + d + ")V", null, null);
        w.visitCode();
        MethodVisitor r = cw.visitMethod(Opcodes.ACC_PUBLIC, "read" + cap, "(I)" + d, null, null);
        r.visitCode();
        for (int k = 0; k < types.length; k++) {
            if (!types[k].equals(t)) {
                continue;
            }
            Label next = unless(w, k);
            w.visitVarInsn(Opcodes.ALOAD, 0);
            w.visitVarInsn(t.getOpcode(Opcodes.ILOAD), 2);
            w.visitFieldInsn(Opcodes.PUTFIELD, self, "p" + k, d);
            mark(w, self, k);
            w.visitInsn(Opcodes.RETURN);
            w.visitLabel(next);

            next = unless(r, k);
            need(r, self, k);
            r.visitVarInsn(Opcodes.ALOAD, 0);
            r.visitFieldInsn(Opcodes.GETFIELD, self, "p" + k, d);
            r.visitInsn(t.getOpcode(Opcodes.IRETURN));
            r.visitLabel(next);
        }
        w.visitVarInsn(Opcodes.ALOAD, 0);
        w.visitVarInsn(Opcodes.ILOAD, 1);
        w.visitVarInsn(t.getOpcode(Opcodes.ILOAD), 2);
        w.visitMethodInsn(Opcodes.INVOKESPECIAL, PV, "write", "(I" + d + ")V", false);
        w.visitInsn(Opcodes.RETURN);
        end(w);
        r.visitVarInsn(Opcodes.ALOAD, 0);
        r.visitVarInsn(Opcodes.ILOAD, 1);
        r.visitMethodInsn(Opcodes.INVOKESPECIAL, PV, "read" + cap, "(I)" + d, false);
        r.visitInsn(t.getOpcode(Opcodes.IRETURN));
        end(r);
    }

    /** write(int, Object), readObject(int) and the writeSubArray overloads of the array parameters. */
    private static boolean isPrimitive(Type t) {
        return t.getSort() != Type.OBJECT && t.getSort() != Type.ARRAY;
    }

    private static void references(ClassWriter cw, String self, Type[] types, Type[] params) {
        boolean any = false;
        for (Type p : params) {
            any |= !isPrimitive(p);
        }
        if (!any) {
            return;
        }
        MethodVisitor w = cw.visitMethod(Opcodes.ACC_PUBLIC, "write", "(I" + OBJD + ")V", null, null);
        w.visitCode();
        MethodVisitor r = cw.visitMethod(Opcodes.ACC_PUBLIC, "readObject", "(I)" + OBJD, null, null);
        r.visitCode();
        for (int k = 0; k < params.length; k++) {
            if (isPrimitive(params[k])) {
                continue;
            }
            Label next = unless(w, k);
            w.visitVarInsn(Opcodes.ALOAD, 0);
            w.visitVarInsn(Opcodes.ALOAD, 0);
            w.visitLdcInsn(k);
            w.visitVarInsn(Opcodes.ALOAD, 2);
            w.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "checkRef", "(I" + OBJD + ")" + OBJD, false);
            w.visitFieldInsn(Opcodes.PUTFIELD, self, "p" + k, OBJD);
            mark(w, self, k);
            w.visitInsn(Opcodes.RETURN);
            w.visitLabel(next);

            next = unless(r, k);
            need(r, self, k);
            r.visitVarInsn(Opcodes.ALOAD, 0);
            r.visitFieldInsn(Opcodes.GETFIELD, self, "p" + k, OBJD);
            r.visitMethodInsn(Opcodes.INVOKESTATIC, self, "copyOut", "(" + OBJD + ")" + OBJD, false);
            r.visitInsn(Opcodes.ARETURN);
            r.visitLabel(next);
        }
        w.visitVarInsn(Opcodes.ALOAD, 0);
        w.visitVarInsn(Opcodes.ILOAD, 1);
        w.visitVarInsn(Opcodes.ALOAD, 2);
        w.visitMethodInsn(Opcodes.INVOKESPECIAL, PV, "write", "(I" + OBJD + ")V", false);
        w.visitInsn(Opcodes.RETURN);
        end(w);
        r.visitVarInsn(Opcodes.ALOAD, 0);
        r.visitVarInsn(Opcodes.ILOAD, 1);
        r.visitMethodInsn(Opcodes.INVOKESPECIAL, PV, "readObject", "(I)" + OBJD, false);
        r.visitInsn(Opcodes.ARETURN);
        end(r);

        // writeSubArray(int, int offset, int size, T[]) per overload that some array parameter takes
        String[] overloads = { "[Z", "[B", "[C", "[S", "[I", "[J", "[F", "[D", "[" + OBJD };
        for (String o : overloads) {
            MethodVisitor s = null;
            for (int k = 0; k < params.length; k++) {
                Type p = params[k];
                boolean primitiveArray = p.getSort() == Type.ARRAY && p.getDimensions() == 1
                        && isPrimitive(p.getElementType());
                boolean fits = p.getSort() == Type.ARRAY
                        && (primitiveArray ? p.getDescriptor().equals(o) : o.equals("[" + OBJD));
                if (!fits) {
                    continue;
                }
                if (s == null) {
                    s = cw.visitMethod(Opcodes.ACC_PUBLIC, "writeSubArray", "(III" + o + ")V", null, null);
                    s.visitCode();
                }
                Label next = unless(s, k);
                s.visitVarInsn(Opcodes.ALOAD, 0);
                s.visitVarInsn(Opcodes.ALOAD, 0);
                s.visitLdcInsn(k);
                s.visitVarInsn(Opcodes.ALOAD, 4);
                s.visitVarInsn(Opcodes.ILOAD, 2);
                s.visitVarInsn(Opcodes.ILOAD, 3);
                s.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "sub", "(I" + OBJD + "II)" + OBJD, false);
                s.visitFieldInsn(Opcodes.PUTFIELD, self, "p" + k, OBJD);
                mark(s, self, k);
                s.visitInsn(Opcodes.RETURN);
                s.visitLabel(next);
            }
            if (s != null) {
                s.visitVarInsn(Opcodes.ALOAD, 0);
                s.visitVarInsn(Opcodes.ILOAD, 1);
                s.visitVarInsn(Opcodes.ILOAD, 2);
                s.visitVarInsn(Opcodes.ILOAD, 3);
                s.visitVarInsn(Opcodes.ALOAD, 4);
                s.visitMethodInsn(Opcodes.INVOKESPECIAL, PV, "writeSubArray", "(III" + o + ")V", false);
                s.visitInsn(Opcodes.RETURN);
                end(s);
            }
        }
    }

    private static void serialization(ClassWriter cw, String self, Type[] types) {
        String[] io = { "java/io/IOException" };
        MethodVisitor w = cw.visitMethod(Opcodes.ACC_PUBLIC, "writeParameters", "(L" + WM + ";)V", null, io);
        w.visitCode();
        for (int k = 0; k < types.length; k++) {
            Type t = types[k];
            need(w, self, k);
            w.visitVarInsn(Opcodes.ALOAD, 1);
            w.visitVarInsn(Opcodes.ALOAD, 0);
            w.visitFieldInsn(Opcodes.GETFIELD, self, "p" + k, t.getDescriptor());
            if (t.getSort() == Type.OBJECT) {
                w.visitMethodInsn(Opcodes.INVOKESTATIC, self, "writeRef", "(L" + WM + ";" + OBJD + ")V", false);
            } else {
                w.visitMethodInsn(Opcodes.INVOKEINTERFACE, WM, "write" + capital(t), "(" + t.getDescriptor() + ")V",
                        true);
            }
        }
        w.visitInsn(Opcodes.RETURN);
        end(w);

        MethodVisitor r = cw.visitMethod(Opcodes.ACC_PUBLIC, "readParameters", "(L" + RM + ";)L" + PV + ";", null,
                io);
        r.visitCode();
        r.visitVarInsn(Opcodes.ALOAD, 0);
        r.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "fresh", "()" + BASED, false);
        r.visitTypeInsn(Opcodes.CHECKCAST, self);
        r.visitVarInsn(Opcodes.ASTORE, 2);
        for (int k = 0; k < types.length; k++) {
            Type t = types[k];
            r.visitVarInsn(Opcodes.ALOAD, 2);
            if (t.getSort() == Type.OBJECT) {
                r.visitVarInsn(Opcodes.ALOAD, 0);
                r.visitVarInsn(Opcodes.ALOAD, 1);
                r.visitLdcInsn(k);
                r.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "readRef", "(L" + RM + ";I)" + OBJD, false);
            } else {
                r.visitVarInsn(Opcodes.ALOAD, 1);
                r.visitMethodInsn(Opcodes.INVOKEINTERFACE, RM, "read" + capital(t), "()" + t.getDescriptor(), true);
            }
            r.visitFieldInsn(Opcodes.PUTFIELD, self, "p" + k, t.getDescriptor());
        }
        r.visitVarInsn(Opcodes.ALOAD, 2);
        r.visitMethodInsn(Opcodes.INVOKEVIRTUAL, self, "markAll", "()V", false);
        r.visitVarInsn(Opcodes.ALOAD, 2);
        r.visitInsn(Opcodes.ARETURN);
        end(r);
    }

    private static String capital(Type t) {
        String n = t.getClassName();
        return Character.toUpperCase(n.charAt(0)) + n.substring(1);
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
