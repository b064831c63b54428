package ibis.gmi;

import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.io.IOException;

/**
 * The parameters of one group method as a value: what a {@link Personalizer} reads and writes, and
 * what invocation combiners combine. The runtime provides a subclass per method whose parameter
 * types it knows; a parameter is set with the {@code write} overload of its type and read with the
 * {@code read} method of its type (an {@code Object} overload serves every reference type). Using
 * the wrong type or number throws {@link IllegalArgumentException}. Before a vector is sent, every
 * parameter must have been written.
 */
public abstract class ParameterVector {

    /** For subclasses. */
    protected ParameterVector() {
    }

    /**
     * Reads a vector of this method's parameters from a message.
     *
     * @param r the message
     * @return a new vector
     * @throws IOException when the message cannot be read
     */
    public abstract ParameterVector readParameters(ReadMessage r) throws IOException;

    /**
     * Writes this vector to a message.
     *
     * @param w the message
     * @throws IOException when the message cannot be written, or a parameter was never set
     */
    public abstract void writeParameters(WriteMessage w) throws IOException;

    /**
     * Returns a new, empty vector for the same method.
     *
     * @return the vector
     */
    public ParameterVector getVector() {
        throw new IllegalStateException(getClass().getName() + " does not make new vectors");
    }

    private IllegalArgumentException noSuchParameter(int num, String type) {
        return new IllegalArgumentException(getClass().getName() + " has no parameter " + num + " of type " + type);
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a boolean value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, boolean value) {
        throw noSuchParameter(num, "boolean");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a byte value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, byte value) {
        throw noSuchParameter(num, "byte");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a char value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, char value) {
        throw noSuchParameter(num, "char");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a short value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, short value) {
        throw noSuchParameter(num, "short");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a int value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, int value) {
        throw noSuchParameter(num, "int");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a long value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, long value) {
        throw noSuchParameter(num, "long");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a float value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, float value) {
        throw noSuchParameter(num, "float");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a double value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, double value) {
        throw noSuchParameter(num, "double");
    }

    /**
     * Sets parameter {@code num} (counted from 0) to a Object value.
     *
     * @param num the parameter number
     * @param value the value
     */
    public void write(int num, Object value) {
        throw noSuchParameter(num, "Object");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, boolean[] value) {
        throw noSuchParameter(num, "boolean[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, byte[] value) {
        throw noSuchParameter(num, "byte[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, char[] value) {
        throw noSuchParameter(num, "char[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, short[] value) {
        throw noSuchParameter(num, "short[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, int[] value) {
        throw noSuchParameter(num, "int[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, long[] value) {
        throw noSuchParameter(num, "long[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, float[] value) {
        throw noSuchParameter(num, "float[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, double[] value) {
        throw noSuchParameter(num, "double[]");
    }

    /**
     * Sets parameter {@code num} (an array) to the {@code size} elements of {@code value} from
     * {@code offset}; only that part is sent, and the receiver gets an array of length {@code size}.
     *
     * @param num the parameter number
     * @param offset the first element
     * @param size the number of elements
     * @param value the array
     */
    public void writeSubArray(int num, int offset, int size, Object[] value) {
        throw noSuchParameter(num, "Object[]");
    }

    /**
     * Returns parameter {@code num} as a boolean.
     *
     * @param num the parameter number
     * @return the value
     */
    public boolean readBoolean(int num) {
        throw noSuchParameter(num, "boolean");
    }

    /**
     * Returns parameter {@code num} as a byte.
     *
     * @param num the parameter number
     * @return the value
     */
    public byte readByte(int num) {
        throw noSuchParameter(num, "byte");
    }

    /**
     * Returns parameter {@code num} as a char.
     *
     * @param num the parameter number
     * @return the value
     */
    public char readChar(int num) {
        throw noSuchParameter(num, "char");
    }

    /**
     * Returns parameter {@code num} as a short.
     *
     * @param num the parameter number
     * @return the value
     */
    public short readShort(int num) {
        throw noSuchParameter(num, "short");
    }

    /**
     * Returns parameter {@code num} as a int.
     *
     * @param num the parameter number
     * @return the value
     */
    public int readInt(int num) {
        throw noSuchParameter(num, "int");
    }

    /**
     * Returns parameter {@code num} as a long.
     *
     * @param num the parameter number
     * @return the value
     */
    public long readLong(int num) {
        throw noSuchParameter(num, "long");
    }

    /**
     * Returns parameter {@code num} as a float.
     *
     * @param num the parameter number
     * @return the value
     */
    public float readFloat(int num) {
        throw noSuchParameter(num, "float");
    }

    /**
     * Returns parameter {@code num} as a double.
     *
     * @param num the parameter number
     * @return the value
     */
    public double readDouble(int num) {
        throw noSuchParameter(num, "double");
    }

    /**
     * Returns parameter {@code num} as a Object.
     *
     * @param num the parameter number
     * @return the value
     */
    public Object readObject(int num) {
        throw noSuchParameter(num, "Object");
    }
}
