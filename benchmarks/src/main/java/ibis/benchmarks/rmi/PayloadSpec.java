package ibis.benchmarks.rmi;

import java.util.Locale;

/**
 * What one figure of the rmi suite sends: {@code null}, a filled array, one of the small objects
 * or a tree, named by a short spec that travels on the driver's command line to the client JVMs:
 * {@code null}, {@code byte:N}, {@code int:N}, {@code float:N}, {@code double:N}, {@code ints4},
 * {@code ints32}, {@code ints4null2}, {@code tree:N}. Knows its display name, its user payload
 * (for MB/s) and a checksum that both ends compute to check that what arrived is what was sent.
 */
public final class PayloadSpec {

    /** The kinds of payload. */
    enum Kind { NULL, BYTES, INTS, FLOATS, DOUBLES, INTS4, INTS32, INTS4NULL2, TREE }

    private final Kind kind;
    private final int n;

    private PayloadSpec(Kind kind, int n) {
        this.kind = kind;
        this.n = n;
    }

    /**
     * Parses a spec.
     *
     * @param spec e.g. {@code int:500} or {@code ints4}
     * @return the payload
     * @throws IllegalArgumentException for an unknown spec
     */
    public static PayloadSpec parse(String spec) {
        String[] parts = spec.split(":", 2);
        String name = parts[0].toLowerCase(Locale.ROOT);
        int n = 0;
        if (parts.length == 2) {
            n = Integer.parseInt(parts[1]);
            if (n < 0) {
                throw new IllegalArgumentException("negative size in payload spec " + spec);
            }
        }
        Kind kind = switch (name) {
            case "null" -> Kind.NULL;
            case "byte" -> Kind.BYTES;
            case "int" -> Kind.INTS;
            case "float" -> Kind.FLOATS;
            case "double" -> Kind.DOUBLES;
            case "ints4" -> Kind.INTS4;
            case "ints32" -> Kind.INTS32;
            case "ints4null2" -> Kind.INTS4NULL2;
            case "tree" -> Kind.TREE;
            default -> throw new IllegalArgumentException("unknown payload spec " + spec);
        };
        boolean sized = kind == Kind.BYTES || kind == Kind.INTS || kind == Kind.FLOATS || kind == Kind.DOUBLES
                || kind == Kind.TREE;
        if (sized != (parts.length == 2)) {
            throw new IllegalArgumentException("payload spec " + spec + (sized ? " needs" : " takes no") + " a size");
        }
        return new PayloadSpec(kind, n);
    }

    /** @return the kind of payload */
    Kind kind() {
        return kind;
    }

    /** @return the number of elements (arrays) or nodes (trees); 0 for the others */
    int size() {
        return n;
    }

    /** @return for an array payload its element type ({@code byte}, {@code int}, ...); else null */
    String elementType() {
        return switch (kind) {
            case BYTES -> "byte";
            case INTS -> "int";
            case FLOATS -> "float";
            case DOUBLES -> "double";
            default -> null;
        };
    }

    /** @return the spec string, as parsed */
    public String spec() {
        return switch (kind) {
            case NULL -> "null";
            case BYTES -> "byte:" + n;
            case INTS -> "int:" + n;
            case FLOATS -> "float:" + n;
            case DOUBLES -> "double:" + n;
            case INTS4 -> "ints4";
            case INTS32 -> "ints32";
            case INTS4NULL2 -> "ints4null2";
            case TREE -> "tree:" + n;
        };
    }

    /** @return the name in the report, e.g. {@code int[500]}, {@code 4 ints + 2 null}, {@code tree(15)} */
    public String displayName() {
        return switch (kind) {
            case NULL -> "null";
            case BYTES -> "byte[" + n + "]";
            case INTS -> "int[" + n + "]";
            case FLOATS -> "float[" + n + "]";
            case DOUBLES -> "double[" + n + "]";
            case INTS4 -> "object, 4 ints";
            case INTS32 -> "object, 32 ints";
            case INTS4NULL2 -> "object, 4 ints + 2 null";
            case TREE -> "tree(" + n + ")";
        };
    }

    /** @return the bytes of user data of one value (4 ints per tree node), for MB/s */
    public long userBytes() {
        return switch (kind) {
            case NULL -> 0;
            case BYTES -> n;
            case INTS, FLOATS -> 4L * n;
            case DOUBLES -> 8L * n;
            case INTS4, INTS4NULL2 -> 16;
            case INTS32 -> 128;
            case TREE -> 16L * n;
        };
    }

    /** @return a new value of this payload, filled with data that is not all zeros */
    public Object newValue() {
        switch (kind) {
            case NULL:
                return null;
            case BYTES: {
                byte[] a = new byte[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (byte) (i * 7);
                }
                return a;
            }
            case INTS: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = i * 31;
                }
                return a;
            }
            case FLOATS: {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = i * 0.25f;
                }
                return a;
            }
            case DOUBLES: {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = i * 0.5;
                }
                return a;
            }
            case INTS4:
                return new Ints4(17);
            case INTS32:
                return new Ints32(17);
            case INTS4NULL2:
                return new Ints4Null2(17);
            default:
                return Tree.of(n);
        }
    }

    /**
     * A checksum of any value the suite sends (null, the arrays, the small objects, trees):
     * equal values have equal checksums, and a changed element or node changes it.
     *
     * @param value the value
     * @return the checksum
     * @throws IllegalArgumentException for a value of another type
     */
    public static long checksum(Object value) {
        if (value == null) {
            return 0x5eed;
        }
        long sum = 1;
        if (value instanceof byte[] a) {
            for (byte b : a) {
                sum = sum * 31 + b;
            }
            return sum * 7 + a.length;
        }
        if (value instanceof int[] a) {
            for (int x : a) {
                sum = sum * 31 + x;
            }
            return sum * 11 + a.length;
        }
        if (value instanceof float[] a) {
            for (float x : a) {
                sum = sum * 31 + Float.floatToRawIntBits(x);
            }
            return sum * 13 + a.length;
        }
        if (value instanceof double[] a) {
            for (double x : a) {
                sum = sum * 31 + Double.doubleToRawLongBits(x);
            }
            return sum * 17 + a.length;
        }
        if (value instanceof Ints4 o) {
            return o.checksum() * 19;
        }
        if (value instanceof Ints32 o) {
            return o.checksum() * 23;
        }
        if (value instanceof Ints4Null2 o) {
            return o.checksum() * 29;
        }
        if (value instanceof Tree t) {
            return t.checksum() * 37;
        }
        throw new IllegalArgumentException("not a payload of the rmi suite: " + value.getClass().getName());
    }

    @Override
    public String toString() {
        return spec();
    }
}
