package ibis.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Generates, with ASM, the {@link FieldCodec} of one class as a hidden class in package
 * {@code ibis.io}. Its methods are straight-line code over the serial fields, making the same
 * stream calls as rewritten code (io/README.md, contract tables); each field is reached through a
 * getter or setter {@link MethodHandle} that the hidden class holds as a constant (class data,
 * loaded with {@code ldc} of a dynamic constant), so the JIT turns it into a plain field access.
 * The allocator (no constructor of the class itself runs) is a constant too.
 */
final class FieldCodecGenerator {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    private static final String CODEC = Type.getInternalName(FieldCodec.class);
    private static final String OUT = Type.getInternalName(IbisSerializationOutput.class);
    private static final String IN = Type.getInternalName(IbisSerializationInput.class);
    private static final String OUT_DESC = Type.getDescriptor(IbisSerializationOutput.class);
    private static final String IN_DESC = Type.getDescriptor(IbisSerializationInput.class);
    private static final String MH = "java/lang/invoke/MethodHandle";
    private static final String MH_DESC = "Ljava/lang/invoke/MethodHandle;";
    private static final Handle CLASS_DATA_AT = new Handle(Opcodes.H_INVOKESTATIC, "java/lang/invoke/MethodHandles", "classDataAt",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)Ljava/lang/Object;", false);

    private FieldCodecGenerator() {
    }

    /**
     * @param getters per level, per serial field: {@code (Object) X}; a null level is not covered
     *        (its methods are never called for it)
     * @param setters per level, per field: {@code (Object, X) void}
     * @param allocator {@code () Object}
     */
    static FieldCodec generate(SerialClass sc, MethodHandle[][] getters, MethodHandle[][] setters, MethodHandle allocator) {
        List<Object> data = new ArrayList<>();
        data.add(allocator);
        int[][] getterIndex = new int[getters.length][];
        int[][] setterIndex = new int[getters.length][];
        int[][] typeIndex = new int[getters.length][];
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] == null) {
                continue;
            }
            int n = getters[l].length;
            getterIndex[l] = new int[n];
            setterIndex[l] = new int[n];
            typeIndex[l] = new int[n];
            for (int f = 0; f < n; f++) {
                getterIndex[l][f] = data.size();
                data.add(getters[l][f]);
                setterIndex[l][f] = data.size();
                data.add(setters[l][f]);
                if (sc.levels[l].encodings[f] == SerialClass.F_KNOWN) {
                    typeIndex[l][f] = data.size();
                    data.add(sc.levels[l].types[f]);
                }
            }
        }
        String simple = sc.type.getSimpleName().replaceAll("[^A-Za-z0-9_$]", "_");
        String name = "ibis/io/FieldCodec$" + (simple.isEmpty() ? "Anonymous" : simple);

        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, CODEC, null);

        MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, CODEC, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        MethodVisitor alloc = cw.visitMethod(0, "allocate", "()Ljava/lang/Object;", null, null);
        alloc.visitCode();
        alloc.visitLdcInsn(constant(0, MH_DESC));
        alloc.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "()Ljava/lang/Object;", false);
        alloc.visitInsn(Opcodes.ARETURN);
        alloc.visitMaxs(0, 0);
        alloc.visitEnd();

        // writeContents(Object obj, out) / readContents(Object obj, in): every level, top-down.
        MethodVisitor wc = cw.visitMethod(0, "writeContents", "(Ljava/lang/Object;" + OUT_DESC + ")V", null, null);
        wc.visitCode();
        MethodVisitor rc = cw.visitMethod(0, "readContents", "(Ljava/lang/Object;" + IN_DESC + ")V", null, null);
        rc.visitCode();
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] != null) {
                writeLevel(wc, sc.levels[l], getterIndex[l], typeIndex[l], 1, 2);
                readLevel(rc, sc.levels[l], setterIndex[l], typeIndex[l], 1, 2);
            }
        }
        wc.visitInsn(Opcodes.RETURN);
        wc.visitMaxs(0, 0);
        wc.visitEnd();
        rc.visitInsn(Opcodes.RETURN);
        rc.visitMaxs(0, 0);
        rc.visitEnd();

        // writeLevel(int level, Object obj, out) / readLevel(int level, Object obj, in): one level.
        MethodVisitor wl = cw.visitMethod(0, "writeLevel", "(ILjava/lang/Object;" + OUT_DESC + ")V", null, null);
        MethodVisitor rl = cw.visitMethod(0, "readLevel", "(ILjava/lang/Object;" + IN_DESC + ")V", null, null);
        for (MethodVisitor mv : new MethodVisitor[] {wl, rl}) {
            boolean write = mv == wl;
            mv.visitCode();
            Label end = new Label();
            Label[] cases = new Label[getters.length];
            for (int l = 0; l < cases.length; l++) {
                cases[l] = getters[l] != null ? new Label() : end;
            }
            if (cases.length > 0) {
                mv.visitVarInsn(Opcodes.ILOAD, 1);
                mv.visitTableSwitchInsn(0, cases.length - 1, end, cases);
                for (int l = 0; l < cases.length; l++) {
                    if (getters[l] == null) {
                        continue;
                    }
                    mv.visitLabel(cases[l]);
                    if (write) {
                        writeLevel(mv, sc.levels[l], getterIndex[l], typeIndex[l], 2, 3);
                    } else {
                        readLevel(mv, sc.levels[l], setterIndex[l], typeIndex[l], 2, 3);
                    }
                    mv.visitJumpInsn(Opcodes.GOTO, end);
                }
            }
            mv.visitLabel(end);
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        cw.visitEnd();

        try {
            MethodHandles.Lookup hidden = LOOKUP.defineHiddenClassWithClassData(cw.toByteArray(), data, true);
            return (FieldCodec) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot define the run-time serializer of " + sc.name + ": " + t, t);
        }
    }

    private static ConstantDynamic constant(int index, String descriptor) {
        return new ConstantDynamic("_", descriptor, CLASS_DATA_AT, index); // classDataAt requires the name "_"
    }

    /** The descriptor of the carrier type of a field (primitive, String, or Object). */
    private static String carrier(byte encoding) {
        switch (encoding) {
            case SerialClass.F_BOOLEAN: return "Z";
            case SerialClass.F_BYTE: return "B";
            case SerialClass.F_CHAR: return "C";
            case SerialClass.F_SHORT: return "S";
            case SerialClass.F_INT: return "I";
            case SerialClass.F_LONG: return "J";
            case SerialClass.F_FLOAT: return "F";
            case SerialClass.F_DOUBLE: return "D";
            case SerialClass.F_STRING: return "Ljava/lang/String;";
            default: return "Ljava/lang/Object;";
        }
    }

    private static final String[] WRITE = {"writeBoolean", "writeByte", "writeChar", "writeShort", "writeInt", "writeLong",
        "writeFloat", "writeDouble", "writeString"};
    private static final String[] READ = {"readBoolean", "readByte", "readChar", "readShort", "readInt", "readLong",
        "readFloat", "readDouble", "readString"};

    /** out.writeX((X) getter.invokeExact(obj)) for each field of the level. */
    private static void writeLevel(MethodVisitor mv, SerialClass.Level level, int[] getters, int[] types, int obj, int out) {
        for (int f = 0; f < getters.length; f++) {
            byte e = level.encodings[f];
            String c = carrier(e);
            mv.visitVarInsn(Opcodes.ALOAD, out);
            mv.visitLdcInsn(constant(getters[f], MH_DESC));
            mv.visitVarInsn(Opcodes.ALOAD, obj);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;)" + c, false);
            if (e <= SerialClass.F_STRING) {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, WRITE[e], "(" + c + ")V", false);
            } else if (e == SerialClass.F_KNOWN) {
                mv.visitLdcInsn(constant(types[f], "Ljava/lang/Class;"));
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "writeKnownObject", "(Ljava/lang/Object;Ljava/lang/Class;)V", false);
            } else {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "writeObject", "(Ljava/lang/Object;)V", false);
            }
        }
    }

    /** setter.invokeExact(obj, in.readX()) for each field of the level. */
    private static void readLevel(MethodVisitor mv, SerialClass.Level level, int[] setters, int[] types, int obj, int in) {
        for (int f = 0; f < setters.length; f++) {
            byte e = level.encodings[f];
            String c = carrier(e);
            mv.visitLdcInsn(constant(setters[f], MH_DESC));
            mv.visitVarInsn(Opcodes.ALOAD, obj);
            mv.visitVarInsn(Opcodes.ALOAD, in);
            if (e <= SerialClass.F_STRING) {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, READ[e], "()" + c, false);
            } else if (e == SerialClass.F_KNOWN) {
                mv.visitLdcInsn(constant(types[f], "Ljava/lang/Class;"));
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "readKnownObject", "(Ljava/lang/Class;)Ljava/lang/Object;", false);
            } else {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "readObject", "()Ljava/lang/Object;", false);
            }
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;" + c + ")V", false);
        }
    }
}
