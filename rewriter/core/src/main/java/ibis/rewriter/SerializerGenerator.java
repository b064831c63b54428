package ibis.rewriter;

import static ibis.rewriter.SerialRules.GENERATOR_SUFFIX;
import static ibis.rewriter.SerialRules.IBIS_GENERATOR;
import static ibis.rewriter.SerialRules.IBIS_INPUT;
import static ibis.rewriter.SerialRules.IBIS_SERIALIZABLE;
import static ibis.rewriter.SerialRules.READ_CONSTRUCTOR_DESCRIPTOR;
import static ibis.rewriter.SerialRules.WRITE_DESCRIPTOR;
import static ibis.rewriter.SerialRules.WRITE_METHOD;

import ibis.io.codegen.FieldAccess;
import ibis.io.codegen.FieldCodeEmitter;
import ibis.io.codegen.FieldPlan;
import ibis.io.codegen.SerialField;
import ibis.io.codegen.StreamMethod;
import ibis.rewriter.ClassHierarchy.MissingClassException;

import java.util.Arrays;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
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
    /** this in local 0, the stream in 1, then the run position (2), a self-typed value (3) and its header (4). */
    private static final FieldCodeEmitter.Locals LOCALS = FieldCodeEmitter.Locals.after(0, 1);
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
            public void visit(int version, int access, String name, String signature, String superName,
                    String[] interfaces) {
                String[] extended = interfaces == null ? new String[1]
                        : Arrays.copyOf(interfaces, interfaces.length + 1);
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
        cw.visit(info.version, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, generatorName(info.name),
                null, IBIS_GENERATOR, null);
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
        MethodVisitor mv = cv.visitMethod(Opcodes.ACC_PUBLIC, WRITE_METHOD, WRITE_DESCRIPTOR, null,
                WRITE_EXCEPTIONS.clone());
        mv.visitCode();
        if (decision.superSerializable) {
            mv.visitVarInsn(Opcodes.ALOAD, 0);
            mv.visitVarInsn(Opcodes.ALOAD, 1);
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, info.superName, WRITE_METHOD, WRITE_DESCRIPTOR, false);
        }
        FieldPlan plan = FieldPlan.forWriting(info.name, decision.fields, f -> true);
        FieldCodeEmitter.write(mv, plan, new OwnFields(plan), LOCALS);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
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
            StreamMethod.REGISTER_OBJECT.invoke(mv);
        }
        // The reading constructor may set every field of its class, final ones included.
        FieldPlan plan = FieldPlan.forReading(info.name, decision.fields, f -> true);
        FieldCodeEmitter.read(mv, plan, new OwnFields(plan), LOCALS);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
    }

    /**
     * The fields of the rewritten class itself, in its own write method and reading constructor:
     * {@code getfield}/{@code putfield} on {@code this}, class constants by {@code ldc}, and a
     * self-typed field's object written by its {@code ibisWrite} and read by its reading constructor.
     */
    private static final class OwnFields implements FieldAccess {
        private final FieldPlan plan;

        OwnFields(FieldPlan plan) {
            this.plan = plan;
        }

        @Override
        public void load(MethodVisitor mv, int field, int object) {
            SerialField f = plan.field(field);
            mv.visitVarInsn(Opcodes.ALOAD, object);
            mv.visitFieldInsn(Opcodes.GETFIELD, plan.owner(), f.name(), f.descriptor());
        }

        @Override
        public void beginStore(MethodVisitor mv, int field, int object) {
            mv.visitVarInsn(Opcodes.ALOAD, object);
        }

        @Override
        public void endStore(MethodVisitor mv, int field) {
            FieldCodeEmitter.putField(mv, plan.owner(), plan.field(field));
        }

        @Override
        public void pushKnownType(MethodVisitor mv, int field) {
            mv.visitLdcInsn(Type.getType(plan.field(field).descriptor()));
        }

        @Override
        public void writeBody(MethodVisitor mv, int value, int out) {
            mv.visitVarInsn(Opcodes.ALOAD, value);
            mv.visitVarInsn(Opcodes.ALOAD, out);
            mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, plan.owner(), WRITE_METHOD, WRITE_DESCRIPTOR, false);
        }

        @Override
        public void readNew(MethodVisitor mv, int in, int tmp) {
            mv.visitTypeInsn(Opcodes.NEW, plan.owner());
            mv.visitInsn(Opcodes.DUP);
            mv.visitVarInsn(Opcodes.ALOAD, in);
            mv.visitMethodInsn(Opcodes.INVOKESPECIAL, plan.owner(), "<init>", READ_CONSTRUCTOR_DESCRIPTOR, false);
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
