package ibis.io.codegen;

/**
 * How a serial field travels (io/README.md, "Generated serializers": the table of calls by
 * declared type): one of the eight primitives, a {@code String}, a known type (no type id), or
 * any other reference.
 */
public enum FieldEncoding {
    /** {@code boolean}, one byte. */
    BOOLEAN("Z", 1),
    /** {@code byte}. */
    BYTE("B", 1),
    /** {@code char}. */
    CHAR("C", 2),
    /** {@code short}. */
    SHORT("S", 2),
    /** {@code int}. */
    INT("I", 4),
    /** {@code long}. */
    LONG("J", 8),
    /** {@code float}. */
    FLOAT("F", 4),
    /** {@code double}. */
    DOUBLE("D", 8),
    /** Declared type {@code java.lang.String}. */
    STRING("Ljava/lang/String;", 0),
    /** A known type: written with the class constant, without a type id. */
    KNOWN("Ljava/lang/Object;", 0),
    /** Any other reference. */
    OBJECT("Ljava/lang/Object;", 0);

    private final String carrier;
    private final int wireSize;

    FieldEncoding(String carrier, int wireSize) {
        this.carrier = carrier;
        this.wireSize = wireSize;
    }

    /** Whether this is one of the eight primitive encodings. */
    public boolean isPrimitive() {
        return wireSize > 0;
    }

    /** Bytes of a primitive on the wire ({@code boolean}: one); 0 for references. */
    public int wireSize() {
        return wireSize;
    }

    /**
     * The descriptor of the type in which the stream calls pass the value: the primitive itself,
     * {@code String}, or {@code Object}.
     */
    public String carrier() {
        return carrier;
    }

    /** The encoding of a primitive field descriptor ({@code "I"} etc.). */
    public static FieldEncoding primitive(String descriptor) {
        switch (descriptor) {
            case "Z": return BOOLEAN;
            case "B": return BYTE;
            case "C": return CHAR;
            case "S": return SHORT;
            case "I": return INT;
            case "J": return LONG;
            case "F": return FLOAT;
            case "D": return DOUBLE;
            default: throw new IllegalArgumentException("not a primitive descriptor: " + descriptor);
        }
    }
}
