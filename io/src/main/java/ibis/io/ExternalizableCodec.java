package ibis.io;

import java.io.Externalizable;
import java.io.IOException;
import java.io.InvalidClassException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;

/** Externalizable classes: public no-arg constructor, writeExternal/readExternal with the views. */
final class ExternalizableCodec extends ObjectCodec {
    private final SerialClass sc;
    private final Constructor<?> constructor;

    ExternalizableCodec(SerialClass sc) {
        this.sc = sc;
        Constructor<?> c = null;
        if (!Modifier.isAbstract(sc.type.getModifiers())) {
            c = JdkAccess.externalizationConstructor(sc.type);
        }
        this.constructor = c;
    }

    @Override
    void writeContents(Object obj, IbisSerializationOutput out) throws IOException {
        out.drainAll(); // readExternal sees complete objects
        int mark = out.deferMark();
        ObjectOutputView view = out.view();
        Object[] saved = view.enter(null, null, 0);
        try {
            ((Externalizable) obj).writeExternal(view);
        } finally {
            view.leave(saved);
        }
        out.drain(mark);
    }

    @Override
    Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException {
        if (constructor == null) {
            throw new InvalidClassException(sc.name, "no public no-arg constructor");
        }
        Object obj = Codecs.newInstance(constructor);
        in.registerObject(obj);
        int handle = in.lastHandle();
        in.drainAll(); // as the writer
        int mark = in.deferMark();
        ObjectInputView view = in.view();
        Object[] saved = view.enter(null, null, 0);
        try {
            ((Externalizable) obj).readExternal(view);
        } finally {
            view.leave(saved);
        }
        in.drain(mark);
        return Codecs.resolve(sc, obj, in, handle);
    }
}
