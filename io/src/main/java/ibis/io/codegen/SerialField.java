package ibis.io.codegen;

import java.util.Objects;

/**
 * One serial field of a class level as the generators see it: its name, its descriptor (the
 * declared type, e.g. {@code I} or {@code Ljava/util/List;}) and how it travels.
 *
 * @param name the field's name
 * @param descriptor the field's type descriptor
 * @param encoding how the field travels
 */
public record SerialField(String name, String descriptor, FieldEncoding encoding) {

    /** Checks that the encoding fits the descriptor's kind (primitive or reference). */
    public SerialField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(encoding, "encoding");
        boolean primitive = descriptor.length() == 1;
        if (primitive != encoding.isPrimitive() || (primitive && FieldEncoding.primitive(descriptor) != encoding)) {
            throw new IllegalArgumentException(
                    "field " + name + ": encoding " + encoding + " does not fit " + descriptor);
        }
    }

    /** Whether the field is of a primitive type. */
    public boolean isPrimitive() {
        return encoding.isPrimitive();
    }

    @Override
    public String toString() {
        return name + ":" + descriptor + ":" + encoding;
    }
}
