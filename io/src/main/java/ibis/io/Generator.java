package ibis.io;

import java.io.IOException;

/**
 * Creates objects of one rewritten class from an ibis serialization stream, without reflection:
 * the rewriter generates a subclass {@code C_ibis_io_Generator} per rewritten class {@code C}
 * whose {@link #newInstance} is {@code return new C(in);} (the reading constructor). The stream
 * creates one generator per class, once, and then calls it for every object of that class.
 */
public abstract class Generator {

    /** For subclasses (generated code). */
    protected Generator() {
    }

    /**
     * Creates a new object and reads its serial fields from {@code in} (by calling the class's
     * reading constructor, which registers the object with the stream before reading fields).
     */
    public abstract Object newInstance(IbisSerializationInput in) throws IOException, ClassNotFoundException;
}
