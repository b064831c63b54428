package ibis.io;

import java.io.IOException;
import java.io.InvalidClassException;

/** A class the rewriter handled: its own ibisWrite and reading constructor. */
final class RewrittenCodec extends ObjectCodec {
    private final SerialClass sc;
    private final Generator generator;
    private volatile ObjectCodec deferredReader; // run-time code, only for objects read deferred

    RewrittenCodec(SerialClass sc, Generator generator) {
        this.sc = sc;
        this.generator = generator;
    }

    @Override
    void writeContents(Object obj, IbisSerializationOutput out) throws IOException {
        ((Serializable) obj).ibisWrite(out);
    }

    @Override
    Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException {
        return generator.newInstance(in);
    }

    private ObjectCodec deferredReader() throws InvalidClassException {
        ObjectCodec c = deferredReader;
        if (c == null) {
            c = Codecs.runtimeCodec(sc);
            deferredReader = c;
        }
        return c;
    }

    @Override
    Object allocate() throws IOException {
        return deferredReader().allocate();
    }

    @Override
    void readContents(Object obj, IbisSerializationInput in) throws IOException, ClassNotFoundException {
        deferredReader().readContents(obj, in);
    }
}
