package ibis.gmi.impl;

import ibis.gmi.ParameterVector;
import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.io.IOException;

/**
 * The parameter vector of one method: typed slots checked against the method's parameter types.
 * A sub-array is kept as a reference to the caller's array and only its part is serialized.
 */
final class MethodParameterVector extends ParameterVector {

    private final MethodTable table;
    private final int method;
    private final Object[] values;
    private final boolean[] set;

    MethodParameterVector(MethodTable table, int method) {
        this.table = table;
        this.method = method;
        int n = table.parameterTypes[method].length;
        values = new Object[n];
        set = new boolean[n];
    }

    /** A vector holding the parameters a stub was called with. */
    static MethodParameterVector of(MethodTable table, int method, Object[] args) {
        MethodParameterVector v = new MethodParameterVector(table, method);
        for (int i = 0; i < args.length; i++) {
            v.values[i] = args[i];
            v.set[i] = true;
        }
        return v;
    }

    /** The parameters as the method's arguments (sub-arrays copied out). */
    Object[] arguments() {
        Object[] a = new Object[values.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = values[i] instanceof ValueKind.SubArray s ? s.copy() : values[i];
        }
        return a;
    }

    /** Fails when a parameter was never written. */
    void checkComplete(String who) {
        for (int i = 0; i < set.length; i++) {
            if (!set[i]) {
                throw new IllegalStateException(who + " did not write parameter " + i + " of "
                        + table.type.getName() + "." + table.signature(method));
            }
        }
    }

    @Override
    public ParameterVector readParameters(ReadMessage r) throws IOException {
        MethodParameterVector v = new MethodParameterVector(table, method);
        for (int i = 0; i < values.length; i++) {
            v.values[i] = table.parameterKinds[method][i].read(r, table.parameterTypes[method][i]);
            v.set[i] = true;
        }
        return v;
    }

    @Override
    public void writeParameters(WriteMessage w) throws IOException {
        for (int i = 0; i < values.length; i++) {
            if (!set[i]) {
                throw new IOException("parameter " + i + " of " + table.signature(method) + " was never written");
            }
            table.parameterKinds[method][i].write(w, values[i]);
        }
    }

    @Override
    public ParameterVector getVector() {
        return new MethodParameterVector(table, method);
    }

    private void put(int num, Object value, Class<?> primitive) {
        Class<?> t = slot(num);
        if (primitive != null ? t != primitive : t.isPrimitive() || (value != null && !t.isInstance(value))) {
            throw wrongType(num, primitive != null ? primitive.getName()
                    : value == null ? "null" : value.getClass().getName());
        }
        values[num] = value;
        set[num] = true;
    }

    private Object get(int num, Class<?> primitive) {
        Class<?> t = slot(num);
        if (primitive != null ? t != primitive : t.isPrimitive()) {
            throw wrongType(num, primitive != null ? primitive.getName() : "Object");
        }
        if (!set[num]) {
            throw new IllegalStateException("parameter " + num + " of " + table.signature(method) + " is not set");
        }
        return values[num] instanceof ValueKind.SubArray s ? s.copy() : values[num];
    }

    private Class<?> slot(int num) {
        if (num < 0 || num >= values.length) {
            throw new IllegalArgumentException(table.signature(method) + " has no parameter " + num);
        }
        return table.parameterTypes[method][num];
    }

    private IllegalArgumentException wrongType(int num, String given) {
        return new IllegalArgumentException("parameter " + num + " of " + table.signature(method) + " is a "
                + table.parameterTypes[method][num].getName() + ", not a " + given);
    }

    private void putSub(int num, Object array, int offset, int size) {
        Class<?> t = slot(num);
        if (!t.isAssignableFrom(array.getClass())) {
            throw wrongType(num, array.getClass().getName());
        }
        values[num] = new ValueKind.SubArray(array, offset, size);
        set[num] = true;
    }

    @Override
    public void write(int num, boolean value) {
        put(num, value, boolean.class);
    }

    @Override
    public void write(int num, byte value) {
        put(num, value, byte.class);
    }

    @Override
    public void write(int num, short value) {
        put(num, value, short.class);
    }

    @Override
    public void write(int num, char value) {
        put(num, value, char.class);
    }

    @Override
    public void write(int num, int value) {
        put(num, value, int.class);
    }

    @Override
    public void write(int num, long value) {
        put(num, value, long.class);
    }

    @Override
    public void write(int num, float value) {
        put(num, value, float.class);
    }

    @Override
    public void write(int num, double value) {
        put(num, value, double.class);
    }

    @Override
    public void write(int num, Object value) {
        put(num, value, null);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, boolean[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, byte[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, short[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, char[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, int[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, long[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, float[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, double[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public void writeSubArray(int num, int offset, int size, Object[] value) {
        putSub(num, value, offset, size);
    }

    @Override
    public boolean readBoolean(int num) {
        return (Boolean) get(num, boolean.class);
    }

    @Override
    public byte readByte(int num) {
        return (Byte) get(num, byte.class);
    }

    @Override
    public short readShort(int num) {
        return (Short) get(num, short.class);
    }

    @Override
    public char readChar(int num) {
        return (Character) get(num, char.class);
    }

    @Override
    public int readInt(int num) {
        return (Integer) get(num, int.class);
    }

    @Override
    public long readLong(int num) {
        return (Long) get(num, long.class);
    }

    @Override
    public float readFloat(int num) {
        return (Float) get(num, float.class);
    }

    @Override
    public double readDouble(int num) {
        return (Double) get(num, double.class);
    }

    @Override
    public Object readObject(int num) {
        return get(num, null);
    }
}
