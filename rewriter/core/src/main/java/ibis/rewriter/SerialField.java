package ibis.rewriter;

/**
 * One serial field of a class to rewrite, with the way the generated code writes and reads it
 * (io/README.md, "Generated serializers": the table of calls by declared type).
 */
final class SerialField {

    /** How the field travels. */
    enum Encoding {
        /** A primitive: writeInt/readInt etc. */
        PRIMITIVE,
        /** Declared type java.lang.String: writeString/readString. */
        STRING,
        /** A known type: writeKnownObject/readKnownObject with the class constant. */
        KNOWN,
        /** Anything else: writeObject/readObject and a checkcast. */
        OBJECT
    }

    final String name;
    final String descriptor;
    final Encoding encoding;

    SerialField(String name, String descriptor, Encoding encoding) {
        this.name = name;
        this.descriptor = descriptor;
        this.encoding = encoding;
    }

    boolean isPrimitive() {
        return encoding == Encoding.PRIMITIVE;
    }

    @Override
    public String toString() {
        return name + ":" + descriptor + ":" + encoding;
    }
}
