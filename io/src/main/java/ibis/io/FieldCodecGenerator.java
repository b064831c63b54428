package ibis.io;

import ibis.io.codegen.FieldAccess;
import ibis.io.codegen.FieldCodeEmitter;
import ibis.io.codegen.FieldEncoding;
import ibis.io.codegen.FieldPlan;
import ibis.io.codegen.SerialField;
import ibis.io.codegen.StreamMethod;

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
    private static final String OUT_DESC = StreamMethod.OUTPUT_DESCRIPTOR;
    private static final String IN_DESC = StreamMethod.INPUT_DESCRIPTOR;
    private static final String MH = "java/lang/invoke/MethodHandle";
    private static final String MH_DESC = "Ljava/lang/invoke/MethodHandle;";
    private static final Handle CLASS_DATA_AT = new Handle(Opcodes.H_INVOKESTATIC,
            "java/lang/invoke/MethodHandles", "classDataAt",
            "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;I)Ljava/lang/Object;", false);

    private FieldCodecGenerator() {
    }

    /**
     * @param getters per level, per serial field: {@code (Object) X}; a null level is not covered
     *        (its methods are never called for it)
     * @param setters per level, per field: {@code (Object, X) void}
     * @param allocator {@code () Object}
     */
    static FieldCodec generate(SerialClass sc, MethodHandle[][] getters, MethodHandle[][] setters,
            MethodHandle allocator) {
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

        // Every field through its getter or setter constant: nothing is written or read self-typed.
        Plans plans = new Plans(sc, getters, (l, f) -> 0, getterIndex, setterIndex, typeIndex, null);

        // writeContents(Object obj, out) / readContents(Object obj, in): every level, top-down.
        MethodVisitor wc = cw.visitMethod(0, "writeContents", "(Ljava/lang/Object;" + OUT_DESC + ")V", null, null);
        wc.visitCode();
        MethodVisitor rc = cw.visitMethod(0, "readContents", "(Ljava/lang/Object;" + IN_DESC + ")V", null, null);
        rc.visitCode();
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] != null) {
                plans.write(wc, l, 1, 2);
                plans.read(rc, l, 1, 2);
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
                    plans.write(mv, l, 2, 3);
                } else {
                    plans.read(mv, l, 2, 3);
                }
            });
        }
        cw.visitEnd();

        try {
            MethodHandles.Lookup hidden = LOOKUP.defineHiddenClassWithClassData(cw.toByteArray(), data, true);
            return (FieldCodec) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
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
                    || Class.forName(IbisSerializationInput.class.getName(), false, c.getClassLoader())
                            != IbisSerializationInput.class
                    || Class.forName(IbisSerializationOutput.class.getName(), false, c.getClassLoader())
                            != IbisSerializationOutput.class) {
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
        // Per level and field: how it is reached. access[l][f] bit 1: getfield, bit 2: putfield.
        int[][] access = new int[getters.length][];
        int[][] getterIndex = new int[getters.length][];
        int[][] setterIndex = new int[getters.length][];
        int[][] typeIndex = new int[getters.length][];
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
            for (int f = 0; f < n; f++) {
                int modifiers;
                try {
                    Field field = level.type.getDeclaredField(level.names[f]);
                    modifiers = field.getModifiers();
                } catch (NoSuchFieldException | RuntimeException e) {
                    return null;
                }
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
        Plans plans = new Plans(sc, getters, (l, f) -> access[l][f], getterIndex, setterIndex, typeIndex, fieldsName);
        for (int l = 0; l < getters.length; l++) {
            if (getters[l] != null) {
                plans.write(wc, l, 2, 1);
                plans.read(rc, l, 2, 1);
            }
        }
        for (MethodVisitor mv : new MethodVisitor[] {wc, rc}) {
            mv.visitInsn(Opcodes.RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
        }
        MethodVisitor wl = cw.visitMethod(Opcodes.ACC_STATIC, "writeLevel", "(ILjava/lang/Object;" + OUT_DESC + ")V",
                null, null);
        MethodVisitor rl = cw.visitMethod(Opcodes.ACC_STATIC, "readLevel", "(ILjava/lang/Object;" + IN_DESC + ")V",
                null, null);
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
                    plans.write(mv, l, 3, 2);
                } else {
                    plans.read(mv, l, 3, 2);
                }
            });
        }
        cw.visitEnd();

        MethodHandles.Lookup fields;
        List<Object> bridgeData = new ArrayList<>();
        try {
            fields = host.defineHiddenClassWithClassData(cw.toByteArray(), data, true,
                    MethodHandles.Lookup.ClassOption.NESTMATE);
            Class<?> f = fields.lookupClass();
            bridgeData.add(allocator);
            bridgeData.add(fields.findStatic(f, "writeContents",
                    MethodType.methodType(void.class, Object.class, IbisSerializationOutput.class)));
            bridgeData.add(fields.findStatic(f, "readContents",
                    MethodType.methodType(void.class, Object.class, IbisSerializationInput.class)));
            bridgeData.add(fields.findStatic(f, "writeLevel",
                    MethodType.methodType(void.class, int.class, Object.class, IbisSerializationOutput.class)));
            bridgeData.add(fields.findStatic(f, "readLevel",
                    MethodType.methodType(void.class, int.class, Object.class, IbisSerializationInput.class)));
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
            return (FieldCodec) bridge.findConstructor(bridge.lookupClass(), MethodType.methodType(void.class))
                    .invoke();
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

    private static ConstantDynamic constant(int index, String descriptor) {
        return new ConstantDynamic("_", descriptor, CLASS_DATA_AT, index); // classDataAt requires the name "_"
    }

    /** The plan's encoding of each of SerialClass's field encodings (F_BOOLEAN ... F_OBJECT). */
    private static final FieldEncoding[] ENCODINGS = new FieldEncoding[SerialClass.F_OBJECT + 1];

    static {
        ENCODINGS[SerialClass.F_BOOLEAN] = FieldEncoding.BOOLEAN;
        ENCODINGS[SerialClass.F_BYTE] = FieldEncoding.BYTE;
        ENCODINGS[SerialClass.F_CHAR] = FieldEncoding.CHAR;
        ENCODINGS[SerialClass.F_SHORT] = FieldEncoding.SHORT;
        ENCODINGS[SerialClass.F_INT] = FieldEncoding.INT;
        ENCODINGS[SerialClass.F_LONG] = FieldEncoding.LONG;
        ENCODINGS[SerialClass.F_FLOAT] = FieldEncoding.FLOAT;
        ENCODINGS[SerialClass.F_DOUBLE] = FieldEncoding.DOUBLE;
        ENCODINGS[SerialClass.F_STRING] = FieldEncoding.STRING;
        ENCODINGS[SerialClass.F_KNOWN] = FieldEncoding.KNOWN;
        ENCODINGS[SerialClass.F_OBJECT] = FieldEncoding.OBJECT;
    }

    /** The serial fields of a level as the field plan sees them (canonical order, from ObjectStreamClass). */
    static List<SerialField> serialFields(SerialClass.Level level) {
        List<SerialField> fields = new ArrayList<>(level.names.length);
        for (int f = 0; f < level.names.length; f++) {
            fields.add(
                    new SerialField(level.names[f], Type.getDescriptor(level.types[f]), ENCODINGS[level.encodings[f]]));
        }
        return fields;
    }

    /** How field f of level l is reached: bit 1 getfield, bit 2 putfield, else the getter or setter constant. */
    private interface AccessBits {
        int of(int level, int field);
    }

    /** The write and read plans of every covered level, and how the generated code reaches their fields. */
    private static final class Plans {
        private final FieldPlan[] writing;
        private final FieldPlan[] reading;
        private final LevelFields[] access;

        /**
         * @param fieldsName the nestmate class with the static writeContents/readContents (bodies of
         *        self-typed fields), or null when no field is reached directly
         */
        Plans(SerialClass sc, MethodHandle[][] covered, AccessBits bits, int[][] getterIndex, int[][] setterIndex,
                int[][] typeIndex, String fieldsName) {
            int levels = covered.length;
            writing = new FieldPlan[levels];
            reading = new FieldPlan[levels];
            access = new LevelFields[levels];
            for (int l = 0; l < levels; l++) {
                if (covered[l] == null) {
                    continue;
                }
                int level = l;
                String owner = Type.getInternalName(sc.levels[l].type);
                List<SerialField> fields = serialFields(sc.levels[l]);
                writing[l] = FieldPlan.forWriting(owner, fields, f -> (bits.of(level, f) & 1) != 0);
                reading[l] = FieldPlan.forReading(owner, fields, f -> (bits.of(level, f) & 2) != 0);
                int[] levelBits = new int[fields.size()];
                for (int f = 0; f < levelBits.length; f++) {
                    levelBits[f] = bits.of(l, f);
                }
                access[l] = new LevelFields(writing[l], levelBits, getterIndex[l], setterIndex[l], typeIndex[l],
                        fieldsName);
            }
        }

        void write(MethodVisitor mv, int level, int obj, int out) {
            FieldCodeEmitter.write(mv, writing[level], access[level], FieldCodeEmitter.Locals.after(obj, out));
        }

        void read(MethodVisitor mv, int level, int obj, int in) {
            FieldCodeEmitter.read(mv, reading[level], access[level], FieldCodeEmitter.Locals.after(obj, in));
        }
    }

    /**
     * The fields of one level as run-time generated code reaches them: {@code getfield}/{@code
     * putfield} where the access bits allow (nestmate field code of the class itself), else the
     * getter {@code (Object) X} or setter {@code (Object, X) void} constant of the class data;
     * known types and the allocator are class data constants too.
     */
    private static final class LevelFields implements FieldAccess {
        private final FieldPlan plan;
        private final int[] bits;
        private final int[] getters;
        private final int[] setters;
        private final int[] types;
        private final String fieldsName;

        LevelFields(FieldPlan plan, int[] bits, int[] getters, int[] setters, int[] types, String fieldsName) {
            this.plan = plan;
            this.bits = bits;
            this.getters = getters;
            this.setters = setters;
            this.types = types;
            this.fieldsName = fieldsName;
        }

        @Override
        public void load(MethodVisitor mv, int field, int object) {
            SerialField f = plan.field(field);
            if ((bits[field] & 1) != 0) {
                mv.visitVarInsn(Opcodes.ALOAD, object);
                mv.visitFieldInsn(Opcodes.GETFIELD, plan.owner(), f.name(), f.descriptor());
            } else {
                mv.visitLdcInsn(constant(getters[field], MH_DESC));
                mv.visitVarInsn(Opcodes.ALOAD, object);
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact",
                        "(Ljava/lang/Object;)" + f.encoding().carrier(), false);
            }
        }

        @Override
        public void beginStore(MethodVisitor mv, int field, int object) {
            if ((bits[field] & 2) == 0) {
                mv.visitLdcInsn(constant(setters[field], MH_DESC));
            }
            mv.visitVarInsn(Opcodes.ALOAD, object);
        }

        @Override
        public void endStore(MethodVisitor mv, int field) {
            SerialField f = plan.field(field);
            if ((bits[field] & 2) != 0) {
                FieldCodeEmitter.putField(mv, plan.owner(), f); // with the checkcast of rewritten code
            } else {
                mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact",
                        "(Ljava/lang/Object;" + f.encoding().carrier() + ")V", false);
            }
        }

        @Override
        public void pushKnownType(MethodVisitor mv, int field) {
            mv.visitLdcInsn(constant(types[field], "Ljava/lang/Class;"));
        }

        /** A new object of exactly this class is written here, by a direct call of writeContents. */
        @Override
        public void writeBody(MethodVisitor mv, int value, int out) {
            mv.visitVarInsn(Opcodes.ALOAD, value);
            mv.visitVarInsn(Opcodes.ALOAD, out);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, fieldsName, "writeContents",
                    "(Ljava/lang/Object;" + OUT_DESC + ")V", false);
        }

        /**
         * A new object of exactly this class is allocated and read here, by a direct call of
         * readContents, not through the codec.
         */
        @Override
        public void readNew(MethodVisitor mv, int in, int tmp) {
            mv.visitLdcInsn(constant(ALLOCATOR, MH_DESC));
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, MH, "invokeExact", "()Ljava/lang/Object;", false);
            mv.visitVarInsn(Opcodes.ASTORE, tmp);
            mv.visitVarInsn(Opcodes.ALOAD, in);
            mv.visitVarInsn(Opcodes.ALOAD, tmp);
            StreamMethod.REGISTER_OBJECT.invoke(mv);
            mv.visitVarInsn(Opcodes.ALOAD, tmp);
            mv.visitVarInsn(Opcodes.ALOAD, in);
            mv.visitMethodInsn(Opcodes.INVOKESTATIC, fieldsName, "readContents",
                    "(Ljava/lang/Object;" + IN_DESC + ")V", false);
            mv.visitVarInsn(Opcodes.ALOAD, tmp);
            mv.visitTypeInsn(Opcodes.CHECKCAST, plan.owner());
        }
    }
}
