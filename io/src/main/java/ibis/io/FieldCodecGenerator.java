package ibis.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

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
 *
 * <p>When the class's package is open to this module and its class loader sees {@code ibis.io}
 * (every class on the class path), the field code goes into a second hidden class instead, a
 * nestmate of the class in its own package: there it reaches the class's own fields with plain
 * {@code getfield}/{@code putfield} (final fields are still set through setter handles, since the
 * JVM allows {@code putfield} of a final field only in the class's constructors), so the JIT sees
 * exactly the code of a rewritten class. The codec in {@code ibis.io} then calls its static
 * methods through method-handle constants, one call per object.
 */
final class FieldCodecGenerator {

    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();

    /** Name prefix of the codecs whose field code is a nestmate of the class (tests check which variant was made). */
    static final String NESTMATE_PREFIX = "ibis.io.FieldCodec$Nestmate$";

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
        FieldCodec direct = generateNestmate(sc, getters, setters, allocator);
        return direct != null ? direct : generateWithHandles(sc, getters, setters, allocator);
    }

    private static FieldCodec generateWithHandles(SerialClass sc, MethodHandle[][] getters, MethodHandle[][] setters,
            MethodHandle allocator) {
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
            levelSwitch(mv, 1, getters, l -> {
                if (write) {
                    writeLevel(mv, sc.levels[l], getterIndex[l], typeIndex[l], 2, 3);
                } else {
                    readLevel(mv, sc.levels[l], setterIndex[l], typeIndex[l], 2, 3);
                }
            });
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

    /**
     * The nestmate variant (see the class comment), or null when the class's package or loader does
     * not allow it (then the caller generates the handle-only variant).
     */
    private static FieldCodec generateNestmate(SerialClass sc, MethodHandle[][] getters, MethodHandle[][] setters,
            MethodHandle allocator) {
        Class<?> c = sc.type;
        MethodHandles.Lookup host;
        try {
            if (c.isHidden() || c.isArray() || c.getClassLoader() == null
                    || Class.forName(IbisSerializationInput.class.getName(), false, c.getClassLoader()) != IbisSerializationInput.class
                    || Class.forName(IbisSerializationOutput.class.getName(), false, c.getClassLoader()) != IbisSerializationOutput.class) {
                return null;
            }
            host = MethodHandles.privateLookupIn(c, LOOKUP);
            if (!host.hasFullPrivilegeAccess()) {
                return null;
            }
        } catch (ClassNotFoundException | IllegalAccessException | RuntimeException | LinkageError e) {
            return null;
        }
        String owner = Type.getInternalName(c);
        List<Object> data = new ArrayList<>();
        data.add(allocator); // index ALLOCATOR: reading fields declared as the class itself
        // Per level and field: how it is reached. direct[l][f] bit 1: getfield, bit 2: putfield.
        int[][] access = new int[getters.length][];
        int[][] getterIndex = new int[getters.length][];
        int[][] setterIndex = new int[getters.length][];
        int[][] typeIndex = new int[getters.length][];
        String[][] descriptors = new String[getters.length][];
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] == null) {
                continue;
            }
            SerialClass.Level level = sc.levels[l];
            int n = getters[l].length;
            access[l] = new int[n];
            getterIndex[l] = new int[n];
            setterIndex[l] = new int[n];
            typeIndex[l] = new int[n];
            descriptors[l] = new String[n];
            for (int f = 0; f < n; f++) {
                int modifiers;
                try {
                    Field field = level.type.getDeclaredField(level.names[f]);
                    modifiers = field.getModifiers();
                } catch (NoSuchFieldException | RuntimeException e) {
                    return null;
                }
                descriptors[l][f] = Type.getDescriptor(level.types[f]);
                if (level.type == c) {
                    access[l][f] = Modifier.isFinal(modifiers) ? 1 : 3;
                }
                if ((access[l][f] & 1) == 0) {
                    getterIndex[l][f] = data.size();
                    data.add(getters[l][f]);
                }
                if ((access[l][f] & 2) == 0) {
                    setterIndex[l][f] = data.size();
                    data.add(setters[l][f]);
                }
                if (level.encodings[f] == SerialClass.F_KNOWN) {
                    typeIndex[l][f] = data.size();
                    data.add(level.types[f]);
                }
            }
        }
        String fieldsName = owner + "$$IbisFields";
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return c.getClassLoader();
            }
        };
        cw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, fieldsName, null, "java/lang/Object", null);
        String writeDesc = "(Ljava/lang/Object;" + OUT_DESC + ")V";
        String readDesc = "(Ljava/lang/Object;" + IN_DESC + ")V";
        MethodVisitor wc = cw.visitMethod(Opcodes.ACC_STATIC, "writeContents", writeDesc, null, null);
        MethodVisitor rc = cw.visitMethod(Opcodes.ACC_STATIC, "readContents", readDesc, null, null);
        for (MethodVisitor mv : new MethodVisitor[] {wc, rc}) {
            mv.visitCode();
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
            mv.visitVarInsn(Opcodes.ASTORE, 2);
        }
        resolveAllocator(rc);
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] != null) {
                writeLevelNestmate(wc, owner, fieldsName, sc.levels[l], access[l], descriptors[l], getterIndex[l],
                        typeIndex[l], 2, 1);
                readLevelNestmate(rc, owner, fieldsName, sc.levels[l], access[l], descriptors[l], setterIndex[l],
                        typeIndex[l], 2, 1);
            }
        }
        for (MethodVisitor mv : new MethodVisitor[] {wc, rc}) {
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        MethodVisitor wl = cw.visitMethod(Opcodes.ACC_STATIC, "writeLevel", "(ILjava/lang/Object;" + OUT_DESC + ")V", null, null);
        MethodVisitor rl = cw.visitMethod(Opcodes.ACC_STATIC, "readLevel", "(ILjava/lang/Object;" + IN_DESC + ")V", null, null);
        for (MethodVisitor mv : new MethodVisitor[] {wl, rl}) {
            boolean write = mv == wl;
            mv.visitCode();
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
            mv.visitVarInsn(Opcodes.ASTORE, 3);
            if (!write) {
                resolveAllocator(mv);
            }
            levelSwitch(mv, 0, getters, l -> {
                if (write) {
                    writeLevelNestmate(mv, owner, fieldsName, sc.levels[l], access[l], descriptors[l], getterIndex[l],
                            typeIndex[l], 3, 2);
                } else {
                    readLevelNestmate(mv, owner, fieldsName, sc.levels[l], access[l], descriptors[l], setterIndex[l],
                            typeIndex[l], 3, 2);
                }
            });
        }
        cw.visitEnd();

        MethodHandles.Lookup fields;
        List<Object> bridgeData = new ArrayList<>();
        try {
            fields = host.defineHiddenClassWithClassData(cw.toByteArray(), data, true, MethodHandles.Lookup.ClassOption.NESTMATE);
            Class<?> f = fields.lookupClass();
            bridgeData.add(allocator);
            bridgeData.add(fields.findStatic(f, "writeContents", MethodType.methodType(void.class, Object.class, IbisSerializationOutput.class)));
            bridgeData.add(fields.findStatic(f, "readContents", MethodType.methodType(void.class, Object.class, IbisSerializationInput.class)));
            bridgeData.add(fields.findStatic(f, "writeLevel", MethodType.methodType(void.class, int.class, Object.class, IbisSerializationOutput.class)));
            bridgeData.add(fields.findStatic(f, "readLevel", MethodType.methodType(void.class, int.class, Object.class, IbisSerializationInput.class)));
        } catch (IllegalAccessException | NoSuchMethodException | RuntimeException | LinkageError e) {
            return null; // e.g. a loader that resolves ibis.io differently: the handle-only variant works everywhere
        }

        String simple = c.getSimpleName().replaceAll("[^A-Za-z0-9_$]", "_");
        String name = NESTMATE_PREFIX.replace('.', '/') + (simple.isEmpty() ? "Anonymous" : simple);
        ClassWriter bw = new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES);
        bw.visit(Opcodes.V17, Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, name, null, CODEC, null);
        MethodVisitor init = bw.visitMethod(0, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, CODEC, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        forward(bw, "allocate", "()Ljava/lang/Object;", 0, Opcodes.ARETURN);
        forward(bw, "writeContents", writeDesc, 1, Opcodes.RETURN);
        forward(bw, "readContents", readDesc, 2, Opcodes.RETURN);
        forward(bw, "writeLevel", "(ILjava/lang/Object;" + OUT_DESC + ")V", 3, Opcodes.RETURN);
        forward(bw, "readLevel", "(ILjava/lang/Object;" + IN_DESC + ")V", 4, Opcodes.RETURN);
        bw.visitEnd();
        try {
            MethodHandles.Lookup bridge = LOOKUP.defineHiddenClassWithClassData(bw.toByteArray(), bridgeData, true);
            return (FieldCodec) bridge.findConstructor(bridge.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot define the run-time serializer of " + sc.name + ": " + t, t);
        }
    }

    /** A method that passes its arguments to the method handle constant {@code index} (invokeExact). */
    private static void forward(ClassWriter cw, String name, String descriptor, int index, int returnOpcode) {
        MethodVisitor mv = cw.visitMethod(0, name, descriptor, null, null);
        mv.visitCode();
        mv.visitLdcInsn(constant(index, MH_DESC));
        int slot = 1;
        for (Type t : Type.getArgumentTypes(descriptor)) {
            mv.visitVarInsn(t.getOpcode(Opcodes.ILOAD), slot);
            slot += t.getSize();
        }
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", descriptor, false);
        mv.visitInsn(returnOpcode);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /** Writes the fields of one level: getfield where allowed, else the getter constant. */
    /**
     * Ends a writeLevel/readLevel method: a tableswitch on the level number in local {@code levelVar}
     * to the code {@code level} emits for each level that has fields ({@code present[l] != null}),
     * then return.
     */
    private static void levelSwitch(MethodVisitor mv, int levelVar, Object[] present, IntConsumer level) {
        Label end = new Label();
        Label[] cases = new Label[present.length];
        for (int l = 0; l < cases.length; l++) {
            cases[l] = present[l] != null ? new Label() : end;
        }
        if (cases.length > 0) {
            mv.visitVarInsn(Opcodes.ILOAD, levelVar);
            mv.visitTableSwitchInsn(0, cases.length - 1, end, cases);
            for (int l = 0; l < cases.length; l++) {
                if (present[l] == null) {
                    continue;
                }
                mv.visitLabel(cases[l]);
                level.accept(l);
                mv.visitJumpInsn(Opcodes.GOTO, end);
            }
        }
        mv.visitLabel(end);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    private static void writeLevelNestmate(MethodVisitor mv, String owner, String fieldsName, SerialClass.Level level,
            int[] access, String[] descriptors, int[] getters, int[] types, int obj, int out) {
        int runVar = Math.max(obj, out) + 1;
        int tmp = runVar + 1;
        int headerVar = runVar + 2;
        for (int f = 0; f < access.length;) {
            int end = runEnd(level.encodings, f);
            int bytes = runBytes(level.encodings, f, end);
            boolean run = end > f + 1;
            // A run followed by a field of the class's own type: its header joins the run (as the rewriter does it).
            boolean fold = run && end < access.length && selfTyped(owner, level, access, descriptors, end, 1);
            if (!fold) {
                startRun(mv, level.encodings, f, out, runVar, "reservePrimitives");
            } else {
                selfTypedCall(mv, owner, level.names[end], descriptors[end], obj, out, tmp, "selfHeader", "I");
                mv.visitVarInsn(Opcodes.ISTORE, headerVar);
                mv.visitVarInsn(Opcodes.ALOAD, out);
                mv.visitIntInsn(Opcodes.BIPUSH, bytes);
                mv.visitVarInsn(Opcodes.ILOAD, headerVar);
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "reserveWithHeader", "(II)I", false);
                mv.visitVarInsn(Opcodes.ISTORE, runVar);
            }
            for (int offset = 0; f < end; f++) {
                byte e = level.encodings[f];
                String c = carrier(e);
                if (!run && selfTyped(owner, level, access, descriptors, f, 1)) {
                    writeSelfTyped(mv, owner, fieldsName, level.names[f], descriptors[f], obj, out, tmp);
                    continue;
                }
                mv.visitVarInsn(Opcodes.ALOAD, out);
                if (run) {
                    pushOffset(mv, runVar, offset);
                }
                if ((access[f] & 1) != 0) {
                    mv.visitVarInsn(Opcodes.ALOAD, obj);
                    mv.visitFieldInsn(Opcodes.GETFIELD, owner, level.names[f], descriptors[f]);
                } else {
                    mv.visitLdcInsn(constant(getters[f], MH_DESC));
                    mv.visitVarInsn(Opcodes.ALOAD, obj);
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;)" + c, false);
                }
                if (run) {
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, PUT[e], "(I" + c + ")V", false);
                    offset += SIZE[e];
                } else {
                    writeCall(mv, e, c, types[f]);
                }
            }
            if (fold) {
                mv.visitVarInsn(Opcodes.ALOAD, out);
                pushOffset(mv, runVar, bytes);
                mv.visitVarInsn(Opcodes.ILOAD, headerVar);
                mv.visitVarInsn(Opcodes.ALOAD, tmp);
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "putSelfHeader", "(IILjava/lang/Object;)Z", false);
                writeBodyIfNew(mv, fieldsName, out, tmp);
                f = end + 1;
            }
        }
    }

    /**
     * Field f of the level is declared as the class itself and accessed directly (a link of a list
     * or tree): {@code how} 1 for reading it (getfield), 2 for setting it (putfield).
     */
    private static boolean selfTyped(String owner, SerialClass.Level level, int[] access, String[] descriptors, int f, int how) {
        return (access[f] & how) != 0 && level.encodings[f] == SerialClass.F_OBJECT && descriptors[f].equals("L" + owner + ";");
    }

    /** Reads the fields of one level: putfield where allowed (with a checkcast, as rewritten code), else the setter constant. */
    private static void readLevelNestmate(MethodVisitor mv, String owner, String fieldsName, SerialClass.Level level,
            int[] access, String[] descriptors, int[] setters, int[] types, int obj, int in) {
        int runVar = Math.max(obj, in) + 1;
        for (int f = 0; f < access.length;) {
            int end = runEnd(level.encodings, f);
            int bytes = runBytes(level.encodings, f, end);
            boolean run = end > f + 1;
            // A run followed by a field of the class's own type: its header is claimed with the run (as the rewriter does it).
            boolean fold = run && end < access.length && selfTyped(owner, level, access, descriptors, end, 2);
            startRun(mv, level.encodings, f, in, runVar, fold ? "claimWithHeader" : "claimPrimitives");
            for (int offset = 0; f < end; f++) {
                byte e = level.encodings[f];
                String c = carrier(e);
                boolean direct = (access[f] & 2) != 0;
                if (!run && selfTyped(owner, level, access, descriptors, f, 2)) {
                    mv.visitVarInsn(Opcodes.ALOAD, in);
                    mv.visitLdcInsn(Type.getObjectType(owner));
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "beginPlain", "(Ljava/lang/Class;)Z", false);
                    readBodyIfNew(mv, owner, fieldsName, level.names[f], descriptors[f], obj, in, runVar + 1);
                    continue;
                }
                if (!direct) {
                    mv.visitLdcInsn(constant(setters[f], MH_DESC));
                }
                mv.visitVarInsn(Opcodes.ALOAD, obj);
                mv.visitVarInsn(Opcodes.ALOAD, in);
                if (run) {
                    pushOffset(mv, runVar, offset);
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, AT[e], "(I)" + c, false);
                    offset += SIZE[e];
                } else {
                    readCall(mv, e, c, types[f]);
                }
                if (direct) {
                    if (e > SerialClass.F_STRING && level.types[f] != Object.class) {
                        mv.visitTypeInsn(Opcodes.CHECKCAST, Type.getInternalName(level.types[f]));
                    }
                    mv.visitFieldInsn(Opcodes.PUTFIELD, owner, level.names[f], descriptors[f]);
                } else {
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;" + c + ")V", false);
                }
            }
            if (fold) {
                mv.visitVarInsn(Opcodes.ALOAD, in);
                pushOffset(mv, runVar, bytes);
                mv.visitLdcInsn(Type.getObjectType(owner));
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "beginPlainAt", "(ILjava/lang/Class;)Z", false);
                readBodyIfNew(mv, owner, fieldsName, level.names[end], descriptors[end], obj, in, runVar + 1);
                f = end + 1;
            }
        }
    }

    /** Index of the allocator in the class data of the nestmate field code. */
    private static final int ALLOCATOR = 0;

    /**
     * Loads the allocator constant and drops it, first thing in a reading method: a dynamic
     * constant that was never resolved makes the JIT give up on the whole method (C1: "could not
     * resolve a constant", C2: "cannot parse method"), and the allocator is otherwise loaded only
     * on the branch for a new object of the class itself, which many classes never take (an
     * object whose links are null stayed interpreted: 0.17 µs per read instead of 0.02). Costs
     * nothing once compiled.
     */
    private static void resolveAllocator(MethodVisitor mv) {
        mv.visitLdcInsn(constant(ALLOCATOR, MH_DESC));
        mv.visitInsn(Opcodes.POP);
    }

    /**
     * A field declared as the class itself, as the rewriter writes it: a new object of exactly this
     * class is written here, by a direct call of writeContents (IbisSerializationOutput#beginPlain).
     */
    private static void writeSelfTyped(MethodVisitor mv, String owner, String fieldsName, String name, String descriptor,
            int obj, int out, int tmp) {
        selfTypedCall(mv, owner, name, descriptor, obj, out, tmp, "beginPlain", "Z");
        writeBodyIfNew(mv, fieldsName, out, tmp);
    }

    /** {@code tmp = obj.name; out.call(tmp, Owner.class)}, the call's result (descriptor {@code result}) left on the stack. */
    private static void selfTypedCall(MethodVisitor mv, String owner, String name, String descriptor, int obj, int out,
            int tmp, String call, String result) {
        mv.visitVarInsn(Opcodes.ALOAD, obj);
        mv.visitFieldInsn(Opcodes.GETFIELD, owner, name, descriptor);
        mv.visitVarInsn(Opcodes.ASTORE, tmp);
        mv.visitVarInsn(Opcodes.ALOAD, out);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitLdcInsn(Type.getObjectType(owner));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, call, "(Ljava/lang/Object;Ljava/lang/Class;)" + result, false);
    }

    /** {@code if (<the boolean on the stack>) { writeContents(tmp, out); out.endPlain(); }}. */
    private static void writeBodyIfNew(MethodVisitor mv, String fieldsName, int out, int tmp) {
        Label done = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, done);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitVarInsn(Opcodes.ALOAD, out);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, fieldsName, "writeContents", "(Ljava/lang/Object;" + OUT_DESC + ")V", false);
        mv.visitVarInsn(Opcodes.ALOAD, out);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "endPlain", "()V", false);
        mv.visitLabel(done);
    }

    /**
     * A field declared as the class itself (the link of a list or tree), as the rewriter reads it,
     * once beginPlain's or beginPlainAt's answer is on the stack: a new object of exactly this class
     * is allocated and read here, by a direct call of readContents, instead of through the codec
     * (IbisSerializationInput#beginPlain); else the reference comes from readAfterHeader.
     */
    private static void readBodyIfNew(MethodVisitor mv, String owner, String fieldsName, String name, String descriptor,
            int obj, int in, int tmp) {
        Label other = new Label();
        Label store = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, other);
        mv.visitLdcInsn(constant(ALLOCATOR, MH_DESC));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "()Ljava/lang/Object;", false);
        mv.visitVarInsn(Opcodes.ASTORE, tmp);
        mv.visitVarInsn(Opcodes.ALOAD, in);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "registerObject", "(Ljava/lang/Object;)V", false);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitVarInsn(Opcodes.ALOAD, in);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, fieldsName, "readContents", "(Ljava/lang/Object;" + IN_DESC + ")V", false);
        mv.visitVarInsn(Opcodes.ALOAD, in);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "endPlain", "()V", false);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitJumpInsn(Opcodes.GOTO, store);
        mv.visitLabel(other);
        mv.visitVarInsn(Opcodes.ALOAD, in);
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "readAfterHeader", "()Ljava/lang/Object;", false);
        mv.visitLabel(store);
        mv.visitTypeInsn(Opcodes.CHECKCAST, owner);
        mv.visitVarInsn(Opcodes.ASTORE, tmp);
        mv.visitVarInsn(Opcodes.ALOAD, obj);
        mv.visitVarInsn(Opcodes.ALOAD, tmp);
        mv.visitFieldInsn(Opcodes.PUTFIELD, owner, name, descriptor);
    }

    /** The largest run of primitive fields read or written with one bounds check. */
    private static final int RUN_MAX = BlockOutputStream.MIN_BUFFER_SIZE;
    /** Wire bytes of the primitive encodings. */
    private static final int[] SIZE = {1, 1, 2, 2, 4, 8, 4, 8};
    private static final String[] PUT = {"putBoolean", "putByte", "putChar", "putShort", "putInt", "putLong", "putFloat", "putDouble"};
    private static final String[] AT = {"booleanAt", "byteAt", "charAt", "shortAt", "intAt", "longAt", "floatAt", "doubleAt"};

    /**
     * {@link #runEnd} of {@code f}, having emitted the start of the run when there is one
     * ({@code int p = stream.start(n)}, p in local {@code runVar}; {@code start}: reservePrimitives
     * on an output, claimPrimitives or claimWithHeader on an input).
     */
    private static int startRun(MethodVisitor mv, byte[] encodings, int f, int stream, int runVar, String start) {
        int end = runEnd(encodings, f);
        if (end - f < 2) {
            return end;
        }
        mv.visitVarInsn(Opcodes.ALOAD, stream);
        mv.visitIntInsn(Opcodes.BIPUSH, runBytes(encodings, f, end));
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, start.startsWith("reserve") ? OUT : IN, start, "(I)I", false);
        mv.visitVarInsn(Opcodes.ISTORE, runVar);
        return end;
    }

    /**
     * The end (exclusive) of the fields from {@code f} on that are handled together: a run of two or
     * more consecutive primitive fields of at most RUN_MAX bytes; else just field f.
     */
    private static int runEnd(byte[] encodings, int f) {
        int bytes = 0;
        int end = f;
        while (end < encodings.length && encodings[end] < SerialClass.F_STRING && bytes + SIZE[encodings[end]] <= RUN_MAX) {
            bytes += SIZE[encodings[end]];
            end++;
        }
        return end - f < 2 ? f + 1 : end;
    }

    /** Wire bytes of the primitive fields f to end - 1. */
    private static int runBytes(byte[] encodings, int f, int end) {
        int bytes = 0;
        for (int i = f; i < end; i++) {
            bytes += encodings[i] < SerialClass.F_STRING ? SIZE[encodings[i]] : 0;
        }
        return bytes;
    }

    /** Pushes {@code p + offset} (p in local {@code runVar}). */
    private static void pushOffset(MethodVisitor mv, int runVar, int offset) {
        mv.visitVarInsn(Opcodes.ILOAD, runVar);
        if (offset != 0) {
            mv.visitIntInsn(Opcodes.BIPUSH, offset);
            mv.visitInsn(Opcodes.IADD);
        }
    }

    /** The write call of one field whose value (carrier {@code c}) is on the stack above the output. */
    private static void writeCall(MethodVisitor mv, byte e, String c, int type) {
        if (e <= SerialClass.F_STRING) {
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, WRITE[e], "(" + c + ")V", false);
        } else if (e == SerialClass.F_KNOWN) {
            mv.visitLdcInsn(constant(type, "Ljava/lang/Class;"));
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "writeKnownObject", "(Ljava/lang/Object;Ljava/lang/Class;)V", false);
        } else {
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, "writeObject", "(Ljava/lang/Object;)V", false);
        }
    }

    /** The read call of one field (the input on the stack); leaves the value (carrier {@code c}). */
    private static void readCall(MethodVisitor mv, byte e, String c, int type) {
        if (e <= SerialClass.F_STRING) {
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, READ[e], "()" + c, false);
        } else if (e == SerialClass.F_KNOWN) {
            mv.visitLdcInsn(constant(type, "Ljava/lang/Class;"));
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "readKnownObject", "(Ljava/lang/Class;)Ljava/lang/Object;", false);
        } else {
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, "readObject", "()Ljava/lang/Object;", false);
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

    /** out.writeX((X) getter.invokeExact(obj)) for each field of the level (runs of primitives: out.putX(p + offset, ...)). */
    private static void writeLevel(MethodVisitor mv, SerialClass.Level level, int[] getters, int[] types, int obj, int out) {
        int runVar = Math.max(obj, out) + 1;
        for (int f = 0; f < getters.length;) {
            int end = startRun(mv, level.encodings, f, out, runVar, "reservePrimitives");
            boolean run = end > f + 1;
            for (int offset = 0; f < end; f++) {
                byte e = level.encodings[f];
                String c = carrier(e);
                mv.visitVarInsn(Opcodes.ALOAD, out);
                if (run) {
                    pushOffset(mv, runVar, offset);
                }
                mv.visitLdcInsn(constant(getters[f], MH_DESC));
                mv.visitVarInsn(Opcodes.ALOAD, obj);
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;)" + c, false);
                if (run) {
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, OUT, PUT[e], "(I" + c + ")V", false);
                    offset += SIZE[e];
                } else {
                    writeCall(mv, e, c, types[f]);
                }
            }
        }
    }

    /** setter.invokeExact(obj, in.readX()) for each field of the level (runs of primitives: in.xAt(p + offset)). */
    private static void readLevel(MethodVisitor mv, SerialClass.Level level, int[] setters, int[] types, int obj, int in) {
        int runVar = Math.max(obj, in) + 1;
        for (int f = 0; f < setters.length;) {
            int end = startRun(mv, level.encodings, f, in, runVar, "claimPrimitives");
            boolean run = end > f + 1;
            for (int offset = 0; f < end; f++) {
                byte e = level.encodings[f];
                String c = carrier(e);
                mv.visitLdcInsn(constant(setters[f], MH_DESC));
                mv.visitVarInsn(Opcodes.ALOAD, obj);
                mv.visitVarInsn(Opcodes.ALOAD, in);
                if (run) {
                    pushOffset(mv, runVar, offset);
                    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, IN, AT[e], "(I)" + c, false);
                    offset += SIZE[e];
                } else {
                    readCall(mv, e, c, types[f]);
                }
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "(Ljava/lang/Object;" + c + ")V", false);
            }
        }
    }
}
