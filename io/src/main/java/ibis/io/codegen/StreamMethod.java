package ibis.io.codegen;

import ibis.io.IbisSerializationInput;
import ibis.io.IbisSerializationOutput;

import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Every method of {@link IbisSerializationOutput} and {@link IbisSerializationInput} that generated
 * serializers call, with its name and descriptor, in one place: the stream classes are named by
 * class literal (a rename breaks compilation) and a test checks each constant against the public
 * methods of its class (a renamed or changed method breaks the test, not the wire).
 */
public enum StreamMethod {
    /** {@code writeBoolean(boolean)}. */
    WRITE_BOOLEAN(true, "writeBoolean", "(Z)V"),
    /** {@code writeByte(byte)}. */
    WRITE_BYTE(true, "writeByte", "(B)V"),
    /** {@code writeChar(char)}. */
    WRITE_CHAR(true, "writeChar", "(C)V"),
    /** {@code writeShort(short)}. */
    WRITE_SHORT(true, "writeShort", "(S)V"),
    /** {@code writeInt(int)}. */
    WRITE_INT(true, "writeInt", "(I)V"),
    /** {@code writeLong(long)}. */
    WRITE_LONG(true, "writeLong", "(J)V"),
    /** {@code writeFloat(float)}. */
    WRITE_FLOAT(true, "writeFloat", "(F)V"),
    /** {@code writeDouble(double)}. */
    WRITE_DOUBLE(true, "writeDouble", "(D)V"),
    /** {@code writeString(String)}. */
    WRITE_STRING(true, "writeString", "(Ljava/lang/String;)V"),
    /** {@code writeKnownObject(Object, Class)}. */
    WRITE_KNOWN_OBJECT(true, "writeKnownObject", "(Ljava/lang/Object;Ljava/lang/Class;)V"),
    /** {@code writeObject(Object)}. */
    WRITE_OBJECT(true, "writeObject", "(Ljava/lang/Object;)V"),
    /** {@code reservePrimitives(int)}: the start of a run. */
    RESERVE_PRIMITIVES(true, "reservePrimitives", "(I)I"),
    /** {@code reserveWithHeader(int, int)}: a run and the header of a self-typed field. */
    RESERVE_WITH_HEADER(true, "reserveWithHeader", "(II)I"),
    /** {@code putBoolean(int, boolean)}. */
    PUT_BOOLEAN(true, "putBoolean", "(IZ)V"),
    /** {@code putByte(int, byte)}. */
    PUT_BYTE(true, "putByte", "(IB)V"),
    /** {@code putChar(int, char)}. */
    PUT_CHAR(true, "putChar", "(IC)V"),
    /** {@code putShort(int, short)}. */
    PUT_SHORT(true, "putShort", "(IS)V"),
    /** {@code putInt(int, int)}. */
    PUT_INT(true, "putInt", "(II)V"),
    /** {@code putLong(int, long)}. */
    PUT_LONG(true, "putLong", "(IJ)V"),
    /** {@code putFloat(int, float)}. */
    PUT_FLOAT(true, "putFloat", "(IF)V"),
    /** {@code putDouble(int, double)}. */
    PUT_DOUBLE(true, "putDouble", "(ID)V"),
    /** {@code selfHeader(Object, Class)}: the header of a self-typed field after a run, decided first. */
    SELF_HEADER(true, "selfHeader", "(Ljava/lang/Object;Ljava/lang/Class;)I"),
    /** {@code putSelfHeader(int, int, Object)}. */
    PUT_SELF_HEADER(true, "putSelfHeader", "(IILjava/lang/Object;)Z"),
    /** {@code beginPlain(Object, Class)} of the output. */
    BEGIN_PLAIN_WRITE(true, "beginPlain", "(Ljava/lang/Object;Ljava/lang/Class;)Z"),
    /** {@code endPlain()} of the output. */
    END_PLAIN_WRITE(true, "endPlain", "()V"),

    /** {@code readBoolean()}. */
    READ_BOOLEAN(false, "readBoolean", "()Z"),
    /** {@code readByte()}. */
    READ_BYTE(false, "readByte", "()B"),
    /** {@code readChar()}. */
    READ_CHAR(false, "readChar", "()C"),
    /** {@code readShort()}. */
    READ_SHORT(false, "readShort", "()S"),
    /** {@code readInt()}. */
    READ_INT(false, "readInt", "()I"),
    /** {@code readLong()}. */
    READ_LONG(false, "readLong", "()J"),
    /** {@code readFloat()}. */
    READ_FLOAT(false, "readFloat", "()F"),
    /** {@code readDouble()}. */
    READ_DOUBLE(false, "readDouble", "()D"),
    /** {@code readString()}. */
    READ_STRING(false, "readString", "()Ljava/lang/String;"),
    /** {@code readKnownObject(Class)}. */
    READ_KNOWN_OBJECT(false, "readKnownObject", "(Ljava/lang/Class;)Ljava/lang/Object;"),
    /** {@code readObject()}. */
    READ_OBJECT(false, "readObject", "()Ljava/lang/Object;"),
    /** {@code claimPrimitives(int)}: the start of a run. */
    CLAIM_PRIMITIVES(false, "claimPrimitives", "(I)I"),
    /** {@code claimWithHeader(int)}: a run and the header of a self-typed field. */
    CLAIM_WITH_HEADER(false, "claimWithHeader", "(I)I"),
    /** {@code booleanAt(int)}. */
    BOOLEAN_AT(false, "booleanAt", "(I)Z"),
    /** {@code byteAt(int)}. */
    BYTE_AT(false, "byteAt", "(I)B"),
    /** {@code charAt(int)}. */
    CHAR_AT(false, "charAt", "(I)C"),
    /** {@code shortAt(int)}. */
    SHORT_AT(false, "shortAt", "(I)S"),
    /** {@code intAt(int)}. */
    INT_AT(false, "intAt", "(I)I"),
    /** {@code longAt(int)}. */
    LONG_AT(false, "longAt", "(I)J"),
    /** {@code floatAt(int)}. */
    FLOAT_AT(false, "floatAt", "(I)F"),
    /** {@code doubleAt(int)}. */
    DOUBLE_AT(false, "doubleAt", "(I)D"),
    /** {@code beginPlain(Class)} of the input. */
    BEGIN_PLAIN_READ(false, "beginPlain", "(Ljava/lang/Class;)Z"),
    /** {@code beginPlainAt(int, Class)}: the header claimed with a run. */
    BEGIN_PLAIN_AT(false, "beginPlainAt", "(ILjava/lang/Class;)Z"),
    /** {@code readAfterHeader()}. */
    READ_AFTER_HEADER(false, "readAfterHeader", "()Ljava/lang/Object;"),
    /** {@code endPlain()} of the input. */
    END_PLAIN_READ(false, "endPlain", "()V"),
    /** {@code registerObject(Object)}. */
    REGISTER_OBJECT(false, "registerObject", "(Ljava/lang/Object;)V");

    /** Internal name of {@link IbisSerializationOutput}. */
    public static final String OUTPUT = Type.getInternalName(IbisSerializationOutput.class);
    /** Internal name of {@link IbisSerializationInput}. */
    public static final String INPUT = Type.getInternalName(IbisSerializationInput.class);
    /** Descriptor of {@link IbisSerializationOutput}. */
    public static final String OUTPUT_DESCRIPTOR = "L" + OUTPUT + ";";
    /** Descriptor of {@link IbisSerializationInput}. */
    public static final String INPUT_DESCRIPTOR = "L" + INPUT + ";";

    private static final StreamMethod[] WRITE = {WRITE_BOOLEAN, WRITE_BYTE, WRITE_CHAR, WRITE_SHORT, WRITE_INT,
        WRITE_LONG, WRITE_FLOAT, WRITE_DOUBLE, WRITE_STRING, WRITE_KNOWN_OBJECT, WRITE_OBJECT};
    private static final StreamMethod[] READ = {READ_BOOLEAN, READ_BYTE, READ_CHAR, READ_SHORT, READ_INT, READ_LONG,
        READ_FLOAT, READ_DOUBLE, READ_STRING, READ_KNOWN_OBJECT, READ_OBJECT};
    private static final StreamMethod[] PUT = {PUT_BOOLEAN, PUT_BYTE, PUT_CHAR, PUT_SHORT, PUT_INT, PUT_LONG, PUT_FLOAT,
        PUT_DOUBLE};
    private static final StreamMethod[] AT = {BOOLEAN_AT, BYTE_AT, CHAR_AT, SHORT_AT, INT_AT, LONG_AT, FLOAT_AT,
        DOUBLE_AT};

    private final boolean output;
    private final String methodName;
    private final String descriptor;

    StreamMethod(boolean output, String methodName, String descriptor) {
        this.output = output;
        this.methodName = methodName;
        this.descriptor = descriptor;
    }

    /** Whether this is a method of the output (else of the input). */
    public boolean ofOutput() {
        return output;
    }

    /** The internal name of the stream class that declares the method. */
    public String owner() {
        return output ? OUTPUT : INPUT;
    }

    /** The method's name. */
    public String methodName() {
        return methodName;
    }

    /** The method's descriptor. */
    public String descriptor() {
        return descriptor;
    }

    /** Emits {@code invokevirtual} of this method (the stream and the arguments on the stack). */
    public void invoke(MethodVisitor mv) {
        mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, owner(), methodName, descriptor, false);
    }

    /** The call that writes a field of this encoding on its own. */
    public static StreamMethod write(FieldEncoding e) {
        return WRITE[e.ordinal()];
    }

    /** The call that reads a field of this encoding on its own. */
    public static StreamMethod read(FieldEncoding e) {
        return READ[e.ordinal()];
    }

    /** The call that puts a primitive field of this encoding into a reserved run. */
    public static StreamMethod put(FieldEncoding e) {
        return PUT[e.ordinal()];
    }

    /** The call that takes a primitive field of this encoding from a claimed run. */
    public static StreamMethod at(FieldEncoding e) {
        return AT[e.ordinal()];
    }
}
