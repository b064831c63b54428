package ibis.gmi.impl;

import ibis.ipl.ReadMessage;
import ibis.ipl.WriteMessage;

import java.io.IOException;

/** The outcome of a method at one member, or of a combination: a (boxed) value, or what was thrown. */
final class Outcome {

    private static final byte VALUE = 0;
    private static final byte THROWN = 1;

    final Object value;
    final Throwable error;

    Outcome(Object value, Throwable error) {
        this.value = value;
        this.error = error;
    }

    /** The value, or the type's default when there is none. */
    Object valueOr(ValueKind kind) {
        return error != null || value == null ? kind.defaultValue() : value;
    }

    void write(WriteMessage w, ValueKind kind) throws IOException {
        if (error != null) {
            w.writeByte(THROWN);
            w.writeObject(error);
        } else {
            w.writeByte(VALUE);
            kind.write(w, kind == ValueKind.VOID ? null : valueOr(kind));
        }
    }

    static Outcome read(ReadMessage r, ValueKind kind, Class<?> type) throws IOException {
        byte form = r.readByte();
        if (form == THROWN) {
            try {
                Object t = r.readObject();
                if (!(t instanceof Throwable)) {
                    throw new IOException("an exception reply holds a "
                            + (t == null ? "null" : t.getClass().getName()));
                }
                return new Outcome(null, (Throwable) t);
            } catch (ClassNotFoundException e) {
                return new Outcome(null, new IOException("cannot read the exception of a member: " + e, e));
            }
        }
        if (form != VALUE) {
            throw new IOException("bad reply form " + form);
        }
        return new Outcome(kind.read(r, type), null);
    }
}
