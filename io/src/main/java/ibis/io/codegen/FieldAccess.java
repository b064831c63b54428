package ibis.io.codegen;

import org.objectweb.asm.MethodVisitor;

/**
 * How the code emitted by {@link FieldCodeEmitter} reaches the fields of one class level and the
 * owner's own serializer: the only thing in which the rewriter (direct field access in the class
 * itself) and the run-time generator (a nestmate hidden class, or method-handle constants)
 * differ. Field arguments are indices into the level's {@link FieldPlan#fields()}.
 */
public interface FieldAccess {

    /**
     * Pushes the value of field {@code field} of the object in local {@code object}: the field's
     * own type, or the encoding's {@link FieldEncoding#carrier() carrier}.
     */
    void load(MethodVisitor mv, int field, int object);

    /**
     * Emitted before the value to store in field {@code field} of the object in local {@code object}
     * is pushed (the object, or a setter and the object).
     */
    void beginStore(MethodVisitor mv, int field, int object);

    /**
     * Stores the value on the stack (as the stream call returned it: the encoding's carrier) into
     * the field opened by {@link #beginStore}.
     */
    void endStore(MethodVisitor mv, int field);

    /** Pushes the {@code Class} of known-type field {@code field}. */
    void pushKnownType(MethodVisitor mv, int field);

    /**
     * Writes the fields of the new object of exactly the owner class in local {@code value} to the
     * output in local {@code out} (the body of a self-typed field). Only called for fields the
     * plan wrote self-typed.
     */
    void writeBody(MethodVisitor mv, int value, int out);

    /**
     * Pushes a new object of exactly the owner class, its handle registered and its fields read
     * from the input in local {@code in}, typed as the owner; local {@code tmp} is free. Only
     * called for fields the plan read self-typed.
     */
    void readNew(MethodVisitor mv, int in, int tmp);
}
