package ibis.io;

import java.io.IOException;

/**
 * Base of the hidden classes that {@link FieldCodecGenerator} generates per class: straight-line
 * code that reads and writes the serial fields of every level through method-handle constants
 * (io/README.md, "Classes that were not rewritten"). The methods below are implemented by the
 * generated subclass.
 */
abstract class FieldCodec extends ObjectCodec {

    /** Writes the serial fields of level {@code level} (0 = topmost serializable class). */
    abstract void writeLevel(int level, Object obj, IbisSerializationOutput out) throws IOException;

    /** Reads the serial fields of level {@code level} into {@code obj}. */
    abstract void readLevel(int level, Object obj, IbisSerializationInput in)
            throws IOException, ClassNotFoundException;

    @Override
    Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException {
        Object obj = allocate();
        in.registerObject(obj);
        readContents(obj, in);
        return obj;
    }
}
