package ibis.io;

import java.io.IOException;

/**
 * Writes and reads the contents of objects of one class (io/README.md, "Contents"). Built once
 * per class ({@link SerialClass#codec()}) and then called directly for every object: rewritten
 * code, a generated hidden class, or a driver for classes with JDK hooks.
 */
abstract class ObjectCodec {

    /** Writes the contents of {@code obj} (its header has been written). */
    abstract void writeContents(Object obj, IbisSerializationOutput out) throws IOException;

    /**
     * Creates a new object, registers it with {@code in} ({@link IbisSerializationInput#registerObject})
     * before reading anything that could refer to it, reads its contents, and returns it (or what its
     * readResolve returns).
     */
    abstract Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException;

    /** For deferrable (plain) classes: a new, empty object of the class (not registered). */
    Object allocate() throws IOException {
        throw new IllegalStateException("not a deferrable class");
    }

    /** For deferrable (plain) classes: reads the contents into an object from {@link #allocate()}. */
    void readContents(Object obj, IbisSerializationInput in) throws IOException, ClassNotFoundException {
        throw new IllegalStateException("not a deferrable class");
    }
}
