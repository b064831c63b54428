package ibis.gmi.impl;

import ibis.gmi.BinomialCombiner;
import ibis.gmi.FlatCombiner;
import ibis.gmi.Forwarder;
import ibis.gmi.ReplyPersonalizer;

/**
 * Calls the overload of a user's combiner, forwarder or reply personalizer that fits a method's
 * result type, with unboxed values (results travel boxed inside the runtime; a missing result, of
 * a member that threw, is the type's default).
 */
final class UserCalls {

    private UserCalls() {
    }

    /** An exception as the user classes see it: Errors and other throwables are wrapped. */
    static Exception asException(Throwable t) {
        return t == null ? null : t instanceof Exception e ? e : new Exception(t.toString(), t);
    }

    static Object flatCombine(FlatCombiner c, ValueKind kind, Object[] results, Exception[] ex) {
        switch (kind) {
        case VOID:
            c.combine(ex);
            return null;
        case BOOLEAN: {
            boolean[] a = new boolean[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Boolean) results[i];
            }
            return c.combine(a, ex);
        }
        case BYTE: {
            byte[] a = new byte[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Byte) results[i];
            }
            return c.combine(a, ex);
        }
        case CHAR: {
            char[] a = new char[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Character) results[i];
            }
            return c.combine(a, ex);
        }
        case SHORT: {
            short[] a = new short[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Short) results[i];
            }
            return c.combine(a, ex);
        }
        case INT: {
            int[] a = new int[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Integer) results[i];
            }
            return c.combine(a, ex);
        }
        case LONG: {
            long[] a = new long[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Long) results[i];
            }
            return c.combine(a, ex);
        }
        case FLOAT: {
            float[] a = new float[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Float) results[i];
            }
            return c.combine(a, ex);
        }
        case DOUBLE: {
            double[] a = new double[results.length];
            for (int i = 0; i < a.length; i++) {
                a[i] = results[i] == null ? a[i] : (Double) results[i];
            }
            return c.combine(a, ex);
        }
        default:
            return c.combine(results, ex);
        }
    }

    /** Combines two outcomes; the combiner's own exception becomes the outcome. */
    static Outcome binomialCombine(BinomialCombiner c, ValueKind kind, int r1, Outcome o1, int r2, Outcome o2,
            int size) {
        try {
            return new Outcome(binomial(c, kind, r1, o1.valueOr(kind), asException(o1.error), r2, o2.valueOr(kind),
                    asException(o2.error), size), null);
        } catch (RuntimeException | Error e) {
            return new Outcome(null, e);
        }
    }

    private static Object binomial(BinomialCombiner c, ValueKind kind, int r1, Object v1, Exception e1, int r2,
            Object v2, Exception e2, int size) {
        switch (kind) {
        case VOID:
            c.combine(r1, e1, r2, e2, size);
            return null;
        case BOOLEAN:
            return c.combine(r1, ((Boolean) v1).booleanValue(), e1, r2, ((Boolean) v2).booleanValue(), e2, size);
        case BYTE:
            return c.combine(r1, ((Byte) v1).byteValue(), e1, r2, ((Byte) v2).byteValue(), e2, size);
        case CHAR:
            return c.combine(r1, ((Character) v1).charValue(), e1, r2, ((Character) v2).charValue(), e2, size);
        case SHORT:
            return c.combine(r1, ((Short) v1).shortValue(), e1, r2, ((Short) v2).shortValue(), e2, size);
        case INT:
            return c.combine(r1, ((Integer) v1).intValue(), e1, r2, ((Integer) v2).intValue(), e2, size);
        case LONG:
            return c.combine(r1, ((Long) v1).longValue(), e1, r2, ((Long) v2).longValue(), e2, size);
        case FLOAT:
            return c.combine(r1, ((Float) v1).floatValue(), e1, r2, ((Float) v2).floatValue(), e2, size);
        case DOUBLE:
            return c.combine(r1, ((Double) v1).doubleValue(), e1, r2, ((Double) v2).doubleValue(), e2, size);
        default:
            return c.combine(r1, v1, e1, r2, v2, e2, size);
        }
    }

    static void forward(Forwarder f, ValueKind kind, int rank, int size, Outcome o) {
        if (o.error != null) {
            f.forward(rank, size, asException(o.error));
            return;
        }
        Object value = o.value;
        switch (kind) {
        case VOID:
            f.forward(rank, size);
            return;
        case BOOLEAN:
            f.forward(rank, size, ((Boolean) value).booleanValue());
            return;
        case BYTE:
            f.forward(rank, size, ((Byte) value).byteValue());
            return;
        case CHAR:
            f.forward(rank, size, ((Character) value).charValue());
            return;
        case SHORT:
            f.forward(rank, size, ((Short) value).shortValue());
            return;
        case INT:
            f.forward(rank, size, ((Integer) value).intValue());
            return;
        case LONG:
            f.forward(rank, size, ((Long) value).longValue());
            return;
        case FLOAT:
            f.forward(rank, size, ((Float) value).floatValue());
            return;
        case DOUBLE:
            f.forward(rank, size, ((Double) value).doubleValue());
            return;
        default:
            f.forward(rank, size, value);
        }
    }

    /** Splits one outcome into {@code n}, one per invoker. */
    static Outcome[] personalize(ReplyPersonalizer p, ValueKind kind, Outcome o, int n) {
        Outcome[] result = new Outcome[n];
        try {
            if (o.error != null) {
                Exception[] out = new Exception[n];
                p.personalize(asException(o.error), out);
                for (int i = 0; i < n; i++) {
                    result[i] = new Outcome(null, out[i]);
                }
                return result;
            }
            Object[] values = values(p, kind, o.value, n);
            for (int i = 0; i < n; i++) {
                result[i] = new Outcome(values[i], null);
            }
        } catch (RuntimeException | Error e) {
            for (int i = 0; i < n; i++) {
                result[i] = new Outcome(null, e);
            }
        }
        return result;
    }

    private static Object[] values(ReplyPersonalizer p, ValueKind kind, Object value, int n) {
        Object[] out = new Object[n];
        switch (kind) {
        case VOID:
            return out;
        case BOOLEAN: {
            boolean[] a = new boolean[n];
            p.personalize(((Boolean) value).booleanValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case BYTE: {
            byte[] a = new byte[n];
            p.personalize(((Byte) value).byteValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case CHAR: {
            char[] a = new char[n];
            p.personalize(((Character) value).charValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case SHORT: {
            short[] a = new short[n];
            p.personalize(((Short) value).shortValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case INT: {
            int[] a = new int[n];
            p.personalize(((Integer) value).intValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case LONG: {
            long[] a = new long[n];
            p.personalize(((Long) value).longValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case FLOAT: {
            float[] a = new float[n];
            p.personalize(((Float) value).floatValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        case DOUBLE: {
            double[] a = new double[n];
            p.personalize(((Double) value).doubleValue(), a);
            for (int i = 0; i < n; i++) {
                out[i] = a[i];
            }
            return out;
        }
        default:
            p.personalize(value, out);
            return out;
        }
    }
}
