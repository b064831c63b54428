package ibis.gmi.impl;

import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Set;

/**
 * The wire form of one parameter or result, chosen once per declared type: primitives as
 * themselves, references through object serialization, and a sub-array (written by
 * {@code ParameterVector.writeSubArray}) as its elements only.
 */
enum ValueKind {
    VOID, BOOLEAN, BYTE, CHAR, SHORT, INT, LONG, FLOAT, DOUBLE, OBJECT;

    private static final byte WHOLE = 0;
    private static final byte SUB_ARRAY = 1;

    static ValueKind of(Class<?> type) {
        if (!type.isPrimitive()) {
            return OBJECT;
        }
        switch (type.getName()) {
        case "void": return VOID;
        case "boolean": return BOOLEAN;
        case "byte": return BYTE;
        case "char": return CHAR;
        case "short": return SHORT;
        case "int": return INT;
        case "long": return LONG;
        case "float": return FLOAT;
        case "double": return DOUBLE;
        default: throw new IllegalArgumentException("unknown primitive " + type);
        }
    }

    /** The default value of the type (what a discarded or forwarded call returns). */
    Object defaultValue() {
        switch (this) {
        case BOOLEAN: return Boolean.FALSE;
        case BYTE: return (byte) 0;
        case CHAR: return (char) 0;
        case SHORT: return (short) 0;
        case INT: return 0;
        case LONG: return 0L;
        case FLOAT: return 0f;
        case DOUBLE: return 0d;
        default: return null;
        }
    }

    void write(WriteMessage w, Object value) throws IOException {
        switch (this) {
        case VOID: return;
        case BOOLEAN: w.writeBoolean((Boolean) value); return;
        case BYTE: w.writeByte((Byte) value); return;
        case CHAR: w.writeChar((Character) value); return;
        case SHORT: w.writeShort((Short) value); return;
        case INT: w.writeInt((Integer) value); return;
        case LONG: w.writeLong((Long) value); return;
        case FLOAT: w.writeFloat((Float) value); return;
        case DOUBLE: w.writeDouble((Double) value); return;
        default:
            if (value instanceof SubArray s) {
                w.writeByte(SUB_ARRAY);
                w.writeInt(s.size);
                writeSubArray(w, s);
            } else {
                w.writeByte(WHOLE);
                w.writeObject(value);
            }
        }
    }

    Object read(ReadMessage r, Class<?> declared) throws IOException {
        switch (this) {
        case VOID: return null;
        case BOOLEAN: return r.readBoolean();
        case BYTE: return r.readByte();
        case CHAR: return r.readChar();
        case SHORT: return r.readShort();
        case INT: return r.readInt();
        case LONG: return r.readLong();
        case FLOAT: return r.readFloat();
        case DOUBLE: return r.readDouble();
        default:
            byte form = r.readByte();
            if (form == WHOLE) {
                try {
                    return r.readObject();
                } catch (ClassNotFoundException e) {
                    throw new IOException("cannot read a parameter or result of type " + declared.getName() + ": " + e,
                            e);
                }
            }
            if (form != SUB_ARRAY || !declared.isArray()) {
                throw new IOException("bad value form " + form + " for type " + declared.getName());
            }
            int size = r.readInt();
            int remaining = r.remaining();
            if (size < 0 || (remaining >= 0 && size > remaining)) {
                throw new IOException("bad sub-array length " + size + " for " + declared.getName());
            }
            return readSubArray(r, declared.getComponentType(), size);
        }
    }

    private static void writeSubArray(WriteMessage w, SubArray s) throws IOException {
        Object a = s.array;
        if (a instanceof boolean[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof byte[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof char[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof short[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof int[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof long[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof float[] v) {
            w.writeArray(v, s.offset, s.size);
        } else if (a instanceof double[] v) {
            w.writeArray(v, s.offset, s.size);
        } else {
            w.writeArray((Object[]) a, s.offset, s.size);
        }
    }

    private static Object readSubArray(ReadMessage r, Class<?> component, int size) throws IOException {
        Object a = Array.newInstance(component, size);
        if (a instanceof boolean[] v) {
            r.readArray(v);
        } else if (a instanceof byte[] v) {
            r.readArray(v);
        } else if (a instanceof char[] v) {
            r.readArray(v);
        } else if (a instanceof short[] v) {
            r.readArray(v);
        } else if (a instanceof int[] v) {
            r.readArray(v);
        } else if (a instanceof long[] v) {
            r.readArray(v);
        } else if (a instanceof float[] v) {
            r.readArray(v);
        } else if (a instanceof double[] v) {
            r.readArray(v);
        } else {
            try {
                r.readArray((Object[]) a);
            } catch (ClassNotFoundException | ArrayStoreException e) {
                throw new IOException("cannot read a sub-array of " + component.getName() + ": " + e, e);
            }
        }
        return a;
    }

    /** What {@link #localCopy} returns for a value it cannot copy without serializing it. */
    static final Object NO_LOCAL_COPY = new Object();

    /** Classes whose instances cannot change, so that a reference passes a value. */
    private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Boolean.class, Byte.class,
            Character.class, Short.class, Integer.class, Long.class, Float.class, Double.class);

    /**
     * A copy of {@code v} as serialization would give it, for a call within this process without
     * serializing: null, strings, boxed primitives and enum constants as they are (a copy would be
     * equal or, for an enum, the same constant), primitive arrays and sub-arrays copied; anything
     * else is {@link #NO_LOCAL_COPY}.
     *
     * @param v a parameter or result
     * @return the copy, or {@link #NO_LOCAL_COPY}
     */
    static Object localCopy(Object v) {
        if (v == null || IMMUTABLE.contains(v.getClass()) || v instanceof Enum<?>) {
            return v;
        }
        if (v instanceof SubArray s) {
            return s.array.getClass().getComponentType().isPrimitive() ? s.copy() : NO_LOCAL_COPY;
        }
        Class<?> component = v.getClass().getComponentType();
        if (component != null && component.isPrimitive()) {
            int n = Array.getLength(v);
            Object copy = Array.newInstance(component, n);
            System.arraycopy(v, 0, copy, 0, n);
            return copy;
        }
        return NO_LOCAL_COPY;
    }

    /**
     * @param declared a method's return type
     * @return whether every value of it has a {@link #localCopy}
     */
    static boolean copiedLocally(Class<?> declared) {
        return declared.isPrimitive() || IMMUTABLE.contains(declared) || declared.isEnum()
                || declared.isArray() && declared.getComponentType().isPrimitive();
    }

    /** A part of an array set as a parameter: only that part is sent. */
    static final class SubArray {
        final Object array;
        final int offset;
        final int size;

        SubArray(Object array, int offset, int size) {
            if (offset < 0 || size < 0 || offset + size > Array.getLength(array)) {
                throw new IndexOutOfBoundsException("sub-array " + offset + "+" + size + " of an array of length "
                        + Array.getLength(array));
            }
            this.array = array;
            this.offset = offset;
            this.size = size;
        }

        /** A copy of the part, for local use. */
        Object copy() {
            Object c = Array.newInstance(array.getClass().getComponentType(), size);
            System.arraycopy(array, offset, c, 0, size);
            return c;
        }
    }
}
