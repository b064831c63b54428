package ibis.gmi.impl;

import ibis.gmi.ParameterVector;
import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.io.IOException;

/**
 * The base of the parameter vector classes generated per group method
 * ({@link ParameterVectorGenerator}): a generated subclass has one field per parameter, of the
 * parameter's own type (primitives unboxed), and overrides exactly the {@code write}/{@code read}
 * overloads of its parameter types; anything else reaches {@link ParameterVector}'s, which throw.
 * The helpers here are what the generated code calls.
 */
public abstract class GeneratedParameterVector extends ParameterVector {

    MethodTable table;
    int method;
    private final boolean[] set;

    /**
     * A new, empty vector like {@code template} (null only for the prototype, which the generator
     * completes).
     *
     * @param template a vector of the same method, or null
     */
    protected GeneratedParameterVector(GeneratedParameterVector template) {
        if (template != null) {
            table = template.table;
            method = template.method;
            set = new boolean[table.parameterTypes[method].length];
        } else {
            set = new boolean[PROTOTYPE_SIZE.get()];
        }
    }

    /** The parameter count of the prototype being made (generated constructors take no count). */
    static final ThreadLocal<Integer> PROTOTYPE_SIZE = ThreadLocal.withInitial(() -> 0);

    /** @return a new, empty vector of the same class */
    protected abstract GeneratedParameterVector fresh();

    /**
     * @param k a parameter number
     * @return parameter {@code k}, boxed
     */
    protected abstract Object get(int k);

    /**
     * Sets parameter {@code k} from a boxed value.
     *
     * @param k a parameter number
     * @param value the boxed value
     */
    protected abstract void put(int k, Object value);

    @Override
    public ParameterVector getVector() {
        return fresh();
    }

    /**
     * Marks parameter {@code k} as written.
     *
     * @param k the parameter
     */
    protected final void mark(int k) {
        set[k] = true;
    }

    /** Marks every parameter as written (after reading them from a message). */
    protected final void markAll() {
        java.util.Arrays.fill(set, true);
    }

    /**
     * Fails unless parameter {@code k} was written.
     *
     * @param k the parameter
     */
    protected final void need(int k) {
        if (!set[k]) {
            throw new IllegalStateException("parameter " + k + " of " + table.signature(method) + " is not set");
        }
    }

    /**
     * Checks a reference for parameter {@code k}.
     *
     * @param k the parameter
     * @param value the value
     * @return the value
     */
    protected final Object checkRef(int k, Object value) {
        Class<?> t = table.parameterTypes[method][k];
        if (value != null && !t.isInstance(value)) {
            throw new IllegalArgumentException("parameter " + k + " of " + table.signature(method) + " is a "
                    + t.getName() + ", not a " + value.getClass().getName());
        }
        return value;
    }

    /**
     * A sub-array for parameter {@code k}: kept by reference, only the part is sent.
     *
     * @param k the parameter
     * @param array the array
     * @param offset the first element
     * @param size the number of elements
     * @return the holder to store
     */
    protected final Object sub(int k, Object array, int offset, int size) {
        checkRef(k, array);
        return new ValueKind.SubArray(array, offset, size);
    }

    /**
     * @param v a stored reference
     * @return the value as the application sees it (a sub-array copied out)
     */
    protected static Object copyOut(Object v) {
        return v instanceof ValueKind.SubArray s ? s.copy() : v;
    }

    /**
     * Writes a reference parameter.
     *
     * @param w the message
     * @param v the stored reference
     * @throws IOException when writing fails
     */
    protected static void writeRef(WriteMessage w, Object v) throws IOException {
        ValueKind.OBJECT.write(w, v);
    }

    /**
     * Reads reference parameter {@code k}.
     *
     * @param r the message
     * @param k the parameter
     * @return the value
     * @throws IOException when reading fails
     */
    protected final Object readRef(ReadMessage r, int k) throws IOException {
        return ValueKind.OBJECT.read(r, table.parameterTypes[method][k]);
    }

    /**
     * @param k a parameter number that does not exist
     * @return the exception to throw
     */
    protected final RuntimeException noSlot(int k) {
        return new IllegalArgumentException(table.signature(method) + " has no parameter " + k);
    }

    /** @return the parameters as arguments for the method (sub-arrays copied out) */
    Object[] arguments() {
        Object[] a = new Object[set.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = copyOut(get(i));
        }
        return a;
    }

    /**
     * The parameters as serialization would deliver them, for a call within this process without
     * serializing ({@link ValueKind#localCopy}).
     *
     * @return the arguments, or null when one of them needs serialization to be copied, or when two
     *     parameters are the same array (serialization keeps them one object, copies would not)
     */
    Object[] argumentsByValue() {
        Object[] a = new Object[set.length];
        for (int i = 0; i < a.length; i++) {
            Object v = get(i);
            if (v != null && v.getClass().isArray()) {
                for (int j = 0; j < i; j++) {
                    if (get(j) == v) {
                        return null;
                    }
                }
            }
            a[i] = ValueKind.localCopy(v);
            if (a[i] == ValueKind.NO_LOCAL_COPY) {
                return null;
            }
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
}
