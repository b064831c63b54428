package ibis.io;

import java.io.IOException;

/**
 * Marks a class whose serialization code was added by the Ibis bytecode rewriter (and declares the
 * write method it added). A rewritten class lists this interface among its own interfaces, has a
 * public reading constructor {@code C(IbisSerializationInput)} and a companion
 * {@code C_ibis_io_Generator} (a {@link Generator}); the exact shape is specified in io/README.md,
 * "Generated serializers: the contract for the rewriter". Application code never implements this
 * interface by hand.
 */
public interface Serializable {

    /**
     * Writes the serial fields of this object, those of its serializable superclasses first (in
     * the canonical order of each class), through {@code out}.
     */
    void ibisWrite(IbisSerializationOutput out) throws IOException;
}
