package ibis.io.codegen;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Emits the code that writes or reads the serial fields of one class level, step by step as a
 * {@link FieldPlan} says, making the stream calls of the rewriter contract (io/README.md,
 * "Generated serializers"); how each field is reached is the {@link FieldAccess}'s business.
 */
public final class FieldCodeEmitter {

    /**
     * The local variables the emitted code uses.
     *
     * @param object the object whose fields are written or read
     * @param stream the {@code IbisSerializationOutput} or {@code IbisSerializationInput}
     * @param run free: the position of the current run ({@code int})
     * @param value free: the value of a self-typed field (a reference)
     * @param header free: the header decided for a self-typed field after a run ({@code int})
     */
    public record Locals(int object, int stream, int run, int value, int header) {

        /** {@code object} and {@code stream} given, the free ones right after the larger of them. */
        public static Locals after(int object, int stream) {
            int run = Math.max(object, stream) + 1;
            return new Locals(object, stream, run, run + 1, run + 2);
        }
    }

    private FieldCodeEmitter() {
    }

    /** The write code of the level of {@code plan} (a {@link FieldPlan#forWriting} plan). */
    public static void write(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals) {
        for (FieldPlan.Step step : plan.steps()) {
            switch (step.kind()) {
                case FIELD:
                    writeField(mv, plan, access, locals, step.first());
                    break;
                case SELF_TYPED:
                    selfTypedCall(mv, plan, access, locals, step.first(), StreamMethod.BEGIN_PLAIN_WRITE);
                    writeBodyIfNew(mv, access, locals);
                    break;
                case RUN:
                    mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
                    pushInt(mv, step.runBytes());
                    StreamMethod.RESERVE_PRIMITIVES.invoke(mv);
                    mv.visitVarInsn(Opcodes.ISTORE, locals.run());
                    putRun(mv, plan, access, locals, step);
                    break;
                case RUN_THEN_SELF_TYPED:
                    writeRunThenSelfTyped(mv, plan, access, locals, step);
                    break;
                default:
                    throw new IllegalStateException(step.toString());
            }
        }
    }

    /** The reading code of the level of {@code plan} (a {@link FieldPlan#forReading} plan). */
    public static void read(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals) {
        for (FieldPlan.Step step : plan.steps()) {
            switch (step.kind()) {
                case FIELD:
                    readField(mv, plan, access, locals, step.first());
                    break;
                case SELF_TYPED:
                    mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
                    mv.visitLdcInsn(Type.getObjectType(plan.owner()));
                    StreamMethod.BEGIN_PLAIN_READ.invoke(mv);
                    readBodyIfNew(mv, plan, access, locals, step.first());
                    break;
                case RUN:
                    readRun(mv, plan, access, locals, step, StreamMethod.CLAIM_PRIMITIVES);
                    break;
                case RUN_THEN_SELF_TYPED:
                    // The header was claimed with the run: the same bytes as the run and then beginPlain.
                    readRun(mv, plan, access, locals, step, StreamMethod.CLAIM_WITH_HEADER);
                    mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
                    pushOffset(mv, locals, step.runBytes());
                    mv.visitLdcInsn(Type.getObjectType(plan.owner()));
                    StreamMethod.BEGIN_PLAIN_AT.invoke(mv);
                    readBodyIfNew(mv, plan, access, locals, step.selfTyped());
                    break;
                default:
                    throw new IllegalStateException(step.toString());
            }
        }
    }

    /** {@code out.writeX(obj.f)}. */
    private static void writeField(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals, int f) {
        FieldEncoding e = plan.field(f).encoding();
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        access.load(mv, f, locals.object());
        if (e == FieldEncoding.KNOWN) {
            access.pushKnownType(mv, f);
        }
        StreamMethod.write(e).invoke(mv);
    }

    /**
     * A run followed by a field of the owner's own type, its header in the same reservation:
     * {@code int h = out.selfHeader(v, C.class); int p = out.reserveWithHeader(n, h);
     * out.putX(p + offset, obj.f); ...; if (out.putSelfHeader(p + n, h, v)) <body of v>}. The same
     * bytes as the run followed by beginPlain.
     */
    private static void writeRunThenSelfTyped(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals,
            FieldPlan.Step step) {
        selfTypedCall(mv, plan, access, locals, step.selfTyped(), StreamMethod.SELF_HEADER);
        mv.visitVarInsn(Opcodes.ISTORE, locals.header());
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        pushInt(mv, step.runBytes());
        mv.visitVarInsn(Opcodes.ILOAD, locals.header());
        StreamMethod.RESERVE_WITH_HEADER.invoke(mv);
        mv.visitVarInsn(Opcodes.ISTORE, locals.run());
        putRun(mv, plan, access, locals, step);
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        pushOffset(mv, locals, step.runBytes());
        mv.visitVarInsn(Opcodes.ILOAD, locals.header());
        mv.visitVarInsn(Opcodes.ALOAD, locals.value());
        StreamMethod.PUT_SELF_HEADER.invoke(mv);
        writeBodyIfNew(mv, access, locals);
    }

    /** {@code out.putX(p + offset, obj.f); ...} for a reserved run. */
    private static void putRun(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals,
            FieldPlan.Step step) {
        int offset = 0;
        for (int f = step.first(); f < step.end(); f++) {
            FieldEncoding e = plan.field(f).encoding();
            mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
            pushOffset(mv, locals, offset);
            access.load(mv, f, locals.object());
            StreamMethod.put(e).invoke(mv);
            offset += e.wireSize();
        }
    }

    /** {@code v = obj.f; out.call(v, C.class)}, the call's result left on the stack. */
    private static void selfTypedCall(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals, int f,
            StreamMethod call) {
        access.load(mv, f, locals.object());
        mv.visitVarInsn(Opcodes.ASTORE, locals.value());
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        mv.visitVarInsn(Opcodes.ALOAD, locals.value());
        mv.visitLdcInsn(Type.getObjectType(plan.owner()));
        call.invoke(mv);
    }

    /** {@code if (<the boolean on the stack>) { <body of v>; out.endPlain(); }}. */
    private static void writeBodyIfNew(MethodVisitor mv, FieldAccess access, Locals locals) {
        Label done = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, done);
        access.writeBody(mv, locals.value(), locals.stream());
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        StreamMethod.END_PLAIN_WRITE.invoke(mv);
        mv.visitLabel(done);
    }

    /** {@code obj.f = in.readX()}. */
    private static void readField(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals, int f) {
        FieldEncoding e = plan.field(f).encoding();
        access.beginStore(mv, f, locals.object());
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        if (e == FieldEncoding.KNOWN) {
            access.pushKnownType(mv, f);
        }
        StreamMethod.read(e).invoke(mv);
        access.endStore(mv, f);
    }

    /** {@code int p = in.claim(n); obj.f = in.xAt(p + offset); ...}. */
    private static void readRun(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals,
            FieldPlan.Step step, StreamMethod claim) {
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        pushInt(mv, step.runBytes());
        claim.invoke(mv);
        mv.visitVarInsn(Opcodes.ISTORE, locals.run());
        int offset = 0;
        for (int f = step.first(); f < step.end(); f++) {
            FieldEncoding e = plan.field(f).encoding();
            access.beginStore(mv, f, locals.object());
            mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
            pushOffset(mv, locals, offset);
            StreamMethod.at(e).invoke(mv);
            access.endStore(mv, f);
            offset += e.wireSize();
        }
    }

    /**
     * A field of the owner's own type, once beginPlain's or beginPlainAt's answer is on the stack:
     * {@code obj.f = <answer> ? <new object read here>, in.endPlain() : (C) in.readAfterHeader()}.
     */
    private static void readBodyIfNew(MethodVisitor mv, FieldPlan plan, FieldAccess access, Locals locals, int f) {
        Label other = new Label();
        Label store = new Label();
        mv.visitJumpInsn(Opcodes.IFEQ, other);
        access.readNew(mv, locals.stream(), locals.value());
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        StreamMethod.END_PLAIN_READ.invoke(mv);
        mv.visitJumpInsn(Opcodes.GOTO, store);
        mv.visitLabel(other);
        mv.visitVarInsn(Opcodes.ALOAD, locals.stream());
        StreamMethod.READ_AFTER_HEADER.invoke(mv);
        mv.visitTypeInsn(Opcodes.CHECKCAST, plan.owner());
        mv.visitLabel(store);
        mv.visitVarInsn(Opcodes.ASTORE, locals.value());
        mv.visitVarInsn(Opcodes.ALOAD, locals.object());
        mv.visitVarInsn(Opcodes.ALOAD, locals.value());
        SerialField field = plan.field(f);
        mv.visitFieldInsn(Opcodes.PUTFIELD, plan.owner(), field.name(), field.descriptor());
    }

    /**
     * {@code putfield} of field {@code field} of {@code owner} after a stream call left its value
     * on the stack (the object below it), with the {@code checkcast} a reference needs first (none
     * for {@code Object} or {@code String}). For {@link FieldAccess#endStore} of direct access.
     */
    public static void putField(MethodVisitor mv, String owner, SerialField field) {
        FieldEncoding e = field.encoding();
        if ((e == FieldEncoding.KNOWN || e == FieldEncoding.OBJECT)
                && !field.descriptor().equals("Ljava/lang/Object;")) {
            mv.visitTypeInsn(Opcodes.CHECKCAST, Type.getType(field.descriptor()).getInternalName());
        }
        mv.visitFieldInsn(Opcodes.PUTFIELD, owner, field.name(), field.descriptor());
    }

    /** Pushes {@code p + offset} (p in the run local). */
    private static void pushOffset(MethodVisitor mv, Locals locals, int offset) {
        mv.visitVarInsn(Opcodes.ILOAD, locals.run());
        if (offset != 0) {
            pushInt(mv, offset);
            mv.visitInsn(Opcodes.IADD);
        }
    }

    /** Pushes an int constant with the shortest instruction. */
    private static void pushInt(MethodVisitor mv, int value) {
        if (value >= -1 && value <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + value);
        } else if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, value);
        } else if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.SIPUSH, value);
        } else {
            mv.visitLdcInsn(value);
        }
    }
}
