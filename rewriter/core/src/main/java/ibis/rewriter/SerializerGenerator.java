package ibis.rewriter;

import static ibis.rewriter.SerialRules.GENERATOR_SUFFIX;
import static ibis.rewriter.SerialRules.IBIS_GENERATOR;
import static ibis.rewriter.SerialRules.IBIS_INPUT;
import static ibis.rewriter.SerialRules.IBIS_OUTPUT;
import static ibis.rewriter.SerialRules.IBIS_SERIALIZABLE;
import static ibis.rewriter.SerialRules.READ_CONSTRUCTOR_DESCRIPTOR;
import static ibis.rewriter.SerialRules.WRITE_DESCRIPTOR;
import static ibis.rewriter.SerialRules.WRITE_METHOD;

import ibis.io.BlockOutputStream;
import ibis.rewriter.ClassHierarchy.MissingClassException;
import java.util.Arrays;
import java.util.List;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Generates the code io/README.md specifies for a plain class {@code C}: adds
 * {@code ibis/io/Serializable} to its interfaces, the write method {@code ibisWrite}, the reading
 * constructor, and builds the companion class {@code C_ibis_io_Generator}. The rest of the class
 * file is kept byte for byte: the ClassWriter shares the reader's constant pool and copies every
 * existing method unchanged, and the class file version is kept.
 */
final class SerializerGenerator {

    private static final String[] READ_EXCEPTIONS = {"java/io/IOException", "java/lang/ClassNotFoundException"};
    private static final String[] WRITE_EXCEPTIONS = {"java/io/IOException"};
    /** The largest run of primitive fields read or written with one bounds check (the block streams' RUN_MAX). */
    private static final int RUN_MAX = BlockOutputStream.MIN_BUFFER_SIZE;
    private static final String NEW_INSTANCE_DESCRIPTOR = "(L" + IBIS_INPUT + ";)Ljava/lang/Object;";

    private final ClassHierarchy hierarchy;

    SerializerGenerator(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /** The internal name of the generator class of {@code className}. */
    static String generatorName(String className) {
        return className + GENERATOR_SUFFIX;
    }

    /** The rewritten class file of {@code original} (a plain class; decision from {@link SerialRules}). */
    byte[] rewriteClass(byte[] original, ClassInfo info, SerialRules.Decision decision) {
        ClassReader reader = new ClassReader(original);
        ClassWriter writer = new HierarchyClassWriter(reader, flags(info.version), hierarchy);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                String[] extended = interfaces == null ? new String[1] : Arrays.copyOf(interfaces, interfaces.length + 1);
                extended[extended.length - 1] = IBIS_SERIALIZABLE;
                // A generic signature lists the superinterfaces too; keep it consistent with the class.
                String sig = signature == null ? null : signature + "L" + IBIS_SERIALIZABLE + ";";
                super.visit(version, access, name, sig, superName, extended);
            }

            @Override
            public void visitEnd() {
                addWriteMethod(cv, info, decision);
                addReadingConstructor(cv, info, decision);
                super.visitEnd();
            }
        }, 0);
        return writer.toByteArray();
    }

    /** The class file of {@code C_ibis_io_Generator} (same class file version as C). */
    byte[] generatorClass(ClassInfo info) {
        ClassWriter cw = new HierarchyClassWriter(null, flags(info.version), hierarchy);
        cw.visit(info.version, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, generatorName(info.name), null,
                IBIS_GENERATOR, null);
        MethodVisitor init = cw.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, IBIS_GENERATOR, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor create = cw.visitMethod(Opcodes.ACC_PUBLIC, "newInstance", NEW_INSTANCE_DESCRIPTOR, null,
                READ_EXCEPTIONS.clone());
        create.visitCode();
        create.visitTypeInsn(Opcodes.NEW, info.name);
        create.visitInsn(Opcodes.DUP);
        create.visitVarInsn(Opcodes.ALOAD, 1);
        create.visitMethodInsn(Opcodes.INVOKESPECIAL, info.name, "<init>", READ_CONSTRUCTOR_DESCRIPTOR, false);
        create.visitInsn(Opcodes.ARETURN);
        create.visitMaxs(0, 0);
        create.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static int flags(int version) {
        // Stack map frames exist from Java 6 on; older class files only need max stack/locals.
        return version >= Opcodes.V1_6 ? ClassWriter.COMPUTE_FRAMES : ClassWriter.COMPUTE_MAXS;
    }

    private static void addWriteMethod(ClassVisitor cv, ClassInfo info, SerialRules.Decision decision) {
        MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PUBLIC, WRITE_METHOD, WRITE_DESCRIPTOR, null, WRITE_EXCEPTIONS.clone());
        mv.visitCode();
        if (decision.superSerializable) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, info.superName, WRITE_METHOD, WRITE_DESCRIPTOR, false);
        }
        List<SerialField> fields = decision.fields;
        for (int i = 0; i < fields.size();) {
            int j = runEnd(fields, i);
            if (j - i >= 2) {
                List<SerialField> run = fields.subList(i, j);
                if (j < fields.size() && isSelfTyped(info, fields.get(j))) {
                    writeRunAndSelfTyped(mv, info, run, fields.get(j));
                    i = j + 1;
                } else {
                    writeRun(mv, info, run);
                    i = j;
                }
                continue;
            }
            SerialField f = fields.get(i++);
            if (isSelfTyped(info, f)) {
                writeSelfTyped(mv, info, f);
                continue;
            }
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitFieldInsn(Opcodes.GETFIELD, info.name, f.name, f.descriptor);
            switch (f.encoding) {
                case PRIMITIVE:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "write" + primitiveName(f.descriptor),
                            "(" + f.descriptor + ")V", false);
                    break;
                case STRING:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "writeString", "(Ljava/lang/String;)V", false);
                    break;
                case KNOWN:
                    mv.visitLdcInsn(Type.getType(f.descriptor));
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "writeKnownObject",
                            "(Ljava/lang/Object;Ljava/lang/Class;)V", false);
                    break;
                default:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "writeObject", "(Ljava/lang/Object;)V", false);
                    break;
            }
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static boolean isSelfTyped(ClassInfo info, SerialField f) {
        return f.encoding == SerialField.Encoding.OBJECT && f.descriptor.equals("L" + info.name + ";");
    }

    /**
     * A run of primitive fields followed by a field declared as the class itself, its header in the
     * same reservation: {@code int h = out.selfHeader(v, C.class); int p = out.reserveWithHeader(n,
     * h); out.putX(p + offset, this.f); ...; if (out.putSelfHeader(p + n, h, v)) { v.ibisWrite(out);
     * out.endPlain(); }} (p in local 2, v in 3, h in 4). The same bytes as the run followed by
     * {@link #writeSelfTyped}.
     */
    private static void writeRunAndSelfTyped(MethodVisitor mv, ClassInfo info, List<SerialField> run, SerialField self) {
        int n = runBytes(run);
        selfTypedCall(mv, info, self, "selfHeader", "I");
        mv.visitVarInsn(Opcodes.ISTORE, 4);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        pushInt(mv, n);
        mv.visitVarInsn(Opcodes.ILOAD, 4);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "reserveWithHeader", "(II)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, 2);
        putRun(mv, info, run);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        pushOffset(mv, n);
        mv.visitVarInsn(Opcodes.ILOAD, 4);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "putSelfHeader", "(IILjava/lang/Object;)Z", false);
        writeBodyIfNew(mv, info);
    }

    /** {@code v = this.f; out.call(v, C.class)} (v in local 3), the call's result (descriptor {@code result}) left on the stack. */
    private static void selfTypedCall(MethodVisitor mv, ClassInfo info, SerialField f, String call, String result) {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitFieldInsn(Opcodes.GETFIELD, info.name, f.name, f.descriptor);
        mv.visitVarInsn(Opcodes.ASTORE, 3);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitLdcInsn(Type.getObjectType(info.name));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, call, "(Ljava/lang/Object;Ljava/lang/Class;)" + result, false);
    }

    /** {@code if (<the boolean on the stack>) { v.ibisWrite(out); out.endPlain(); }} (v in local 3). */
    private static void writeBodyIfNew(MethodVisitor mv, ClassInfo info) {
        Label done = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, done);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, info.name, WRITE_METHOD, WRITE_DESCRIPTOR, false);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "endPlain", "()V", false);
        mv.visitLabel(done);
    }

    /**
     * A field declared as the class itself (the link of a list or tree): {@code if
     * (out.beginPlain(v, C.class)) { v.ibisWrite(out); out.endPlain(); }}, so a new object of
     * exactly this class is written by a direct call of this same method.
     */
    private static void writeSelfTyped(MethodVisitor mv, ClassInfo info, SerialField f) {
        selfTypedCall(mv, info, f, "beginPlain", "Z");
        writeBodyIfNew(mv, info);
    }

    /**
     * {@code this.f = in.beginPlain(C.class) ? <new C(in), then in.endPlain()> : (C)
     * in.readAfterHeader()} (the new object in local 3).
     */
    private static void readSelfTyped(MethodVisitor mv, ClassInfo info, SerialField f) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitLdcInsn(Type.getObjectType(info.name));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "beginPlain", "(Ljava/lang/Class;)Z", false);
        readBodyIfNew(mv, info, f);
    }

    /**
     * A run of primitive fields followed by a field declared as the class itself, the header read
     * with the run: {@code int p = in.claimWithHeader(n); this.f = in.xAt(p + offset); ...; this.g =
     * in.beginPlainAt(p + n, C.class) ? ... : ...} (p in local 2). The same bytes as the run followed
     * by {@link #readSelfTyped}.
     */
    private static void readRunAndSelfTyped(MethodVisitor mv, ClassInfo info, List<SerialField> run, SerialField self) {
        readRun(mv, info, run, "claimWithHeader");
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        pushOffset(mv, runBytes(run));
        mv.visitLdcInsn(Type.getObjectType(info.name));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "beginPlainAt", "(ILjava/lang/Class;)Z", false);
        readBodyIfNew(mv, info, self);
    }

    /** The rest of {@link #readSelfTyped} after the boolean of beginPlain is on the stack. */
    private static void readBodyIfNew(MethodVisitor mv, ClassInfo info, SerialField f) {
        Label other = new Label();
        Label store = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, other);
        mv.visitTypeInsn(Opcodes.NEW, info.name);
        mv.visitInsn(Opcodes.DUP);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKESPECIAL, info.name, "<init>", READ_CONSTRUCTOR_DESCRIPTOR, false);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "endPlain", "()V", false);
        mv.visitJumpInsn(Opcodes.GOTO, store);
        mv.visitLabel(other);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "readAfterHeader", "()Ljava/lang/Object;", false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, info.name);
        mv.visitLabel(store);
        mv.visitVarInsn(Opcodes.ASTORE, 3);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitVarInsn(Opcodes.ALOAD, 3);
        mv.visitFieldInsn(Opcodes.PUTFIELD, info.name, f.name, f.descriptor);
    }

    private static void addReadingConstructor(ClassVisitor cv, ClassInfo info, SerialRules.Decision decision) {
        MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PUBLIC, "<init>", READ_CONSTRUCTOR_DESCRIPTOR, null,
                READ_EXCEPTIONS.clone());
        mv.visitCode();
        if (decision.superSerializable) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, info.superName, "<init>", READ_CONSTRUCTOR_DESCRIPTOR, false);
        } else {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, info.superName, "<init>", "()V", false);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "registerObject", "(Ljava/lang/Object;)V", false);
        }
        List<SerialField> fields = decision.fields;
        for (int i = 0; i < fields.size();) {
            int j = runEnd(fields, i);
            if (j - i >= 2) {
                List<SerialField> run = fields.subList(i, j);
                if (j < fields.size() && isSelfTyped(info, fields.get(j))) {
                    readRunAndSelfTyped(mv, info, run, fields.get(j));
                    i = j + 1;
                } else {
                    readRun(mv, info, run, "claimPrimitives");
                    i = j;
                }
                continue;
            }
            SerialField f = fields.get(i++);
            if (isSelfTyped(info, f)) {
                readSelfTyped(mv, info, f);
                continue;
            }
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            Type type = Type.getType(f.descriptor);
            switch (f.encoding) {
                case PRIMITIVE:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "read" + primitiveName(f.descriptor),
                            "()" + f.descriptor, false);
                    break;
                case STRING:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "readString", "()Ljava/lang/String;", false);
                    break;
                case KNOWN:
                    mv.visitLdcInsn(type);
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "readKnownObject",
                            "(Ljava/lang/Class;)Ljava/lang/Object;", false);
                    mv.visitTypeInsn(Opcodes.CHECKCAST, type.getInternalName());
                    break;
                default:
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, "readObject", "()Ljava/lang/Object;", false);
                    if (!type.getInternalName().equals(ClassHierarchy.OBJECT)) {
                        mv.visitTypeInsn(Opcodes.CHECKCAST, type.getInternalName());
                    }
                    break;
            }
            mv.visitFieldInsn(Opcodes.PUTFIELD, info.name, f.name, f.descriptor);
        }
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /**
     * The end (exclusive) of the run of primitive fields starting at {@code i}: as many consecutive
     * primitive fields as fit in {@link #RUN_MAX} bytes (i itself when field i is not primitive).
     */
    private static int runEnd(List<SerialField> fields, int i) {
        int bytes = 0;
        int j = i;
        while (j < fields.size() && fields.get(j).isPrimitive()) {
            int size = primitiveSize(fields.get(j).descriptor);
            if (bytes + size > RUN_MAX) {
                break;
            }
            bytes += size;
            j++;
        }
        return j;
    }

    /** {@code int p = out.reservePrimitives(n); out.putX(p + offset, this.f); ...} (p in local 2). */
    private static void writeRun(MethodVisitor mv, ClassInfo info, List<SerialField> run) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        pushInt(mv, runBytes(run));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "reservePrimitives", "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, 2);
        putRun(mv, info, run);
    }

    /** {@code out.putX(p + offset, this.f); ...} for a reserved run (p in local 2). */
    private static void putRun(MethodVisitor mv, ClassInfo info, List<SerialField> run) {
        int offset = 0;
        for (SerialField f : run) {
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            pushOffset(mv, offset);
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitFieldInsn(Opcodes.GETFIELD, info.name, f.name, f.descriptor);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_OUTPUT, "put" + primitiveName(f.descriptor),
                    "(I" + f.descriptor + ")V", false);
            offset += primitiveSize(f.descriptor);
        }
    }

    /** {@code int p = in.claim(n); this.f = in.xAt(p + offset); ...} (p in local 2; claim: claimPrimitives or claimWithHeader). */
    private static void readRun(MethodVisitor mv, ClassInfo info, List<SerialField> run, String claim) {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        pushInt(mv, runBytes(run));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, claim, "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, 2);
        int offset = 0;
        for (SerialField f : run) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            pushOffset(mv, offset);
            String name = primitiveName(f.descriptor);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IBIS_INPUT, Character.toLowerCase(name.charAt(0)) + name.substring(1) + "At",
                    "(I)" + f.descriptor, false);
            mv.visitFieldInsn(Opcodes.PUTFIELD, info.name, f.name, f.descriptor);
            offset += primitiveSize(f.descriptor);
        }
    }

    private static int runBytes(List<SerialField> run) {
        int bytes = 0;
        for (SerialField f : run) {
            bytes += primitiveSize(f.descriptor);
        }
        return bytes;
    }

    /** Pushes {@code p + offset} (p in local 2). */
    private static void pushOffset(MethodVisitor mv, int offset) {
        mv.visitVarInsn(Opcodes.ILOAD, 2);
        if (offset != 0) {
            pushInt(mv, offset);
            mv.visitInsn(Opcodes.IADD);
        }
    }

    private static void pushInt(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + value);
        } else {
            mv.visitIntInsn(Opcodes.BIPUSH, value);
        }
    }

    /** Bytes of a primitive on the wire (boolean: one). */
    private static int primitiveSize(String descriptor) {
        switch (descriptor.charAt(0)) {
            case 'Z':
            case 'B':
                return 1;
            case 'C':
            case 'S':
                return 2;
            case 'I':
            case 'F':
                return 4;
            case 'J':
            case 'D':
                return 8;
            default:
                throw new IllegalArgumentException("not a primitive descriptor: " + descriptor);
        }
    }

    private static String primitiveName(String descriptor) {
        switch (descriptor.charAt(0)) {
            case 'Z': return "Boolean";
            case 'B': return "Byte";
            case 'C': return "Char";
            case 'S': return "Short";
            case 'I': return "Int";
            case 'J': return "Long";
            case 'F': return "Float";
            case 'D': return "Double";
            default: throw new IllegalArgumentException("not a primitive descriptor: " + descriptor);
        }
    }

    /**
     * A ClassWriter whose frame computation asks the byte-based {@link ClassHierarchy} for common
     * superclasses, never {@code Class.forName} (the user's classes are not loaded).
     */
    private static final class HierarchyClassWriter extends ClassWriter {
        private final ClassHierarchy hierarchy;

        HierarchyClassWriter(ClassReader reader, int flags, ClassHierarchy hierarchy) {
            super(reader, flags);
            this.hierarchy = hierarchy;
        }

        @Override
        protected String getCommonSuperClass(String type1, String type2) {
            try {
                return hierarchy.commonSuperClass(type1, type2);
            } catch (MissingClassException e) {
                throw new TypeNotPresentException(e.getMessage(), e);
            }
        }
    }
}
