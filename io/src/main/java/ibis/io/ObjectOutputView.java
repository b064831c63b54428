package ibis.io;

import java.io.IOException;
import java.io.NotActiveException;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;

/**
 * The {@link ObjectOutputStream} that {@code writeObject} hooks and {@code writeExternal} see: a
 * subclass made with the protected no-arg constructor (so none of the JDK's stream machinery is
 * active) whose methods write into the ibis stream. {@code defaultWriteObject} and
 * {@code putFields}/{@code writeFields} write the current class level's serial fields in canonical
 * order, exactly as the generated code does. One per output stream; the hook driver sets and
 * restores the current object and level around each hook call.
 */
final class ObjectOutputView extends ObjectOutputStream {

    private final IbisSerializationOutput out;

    // The object and level whose writeObject hook is running (null: none, e.g. writeExternal).
    private Object currentObject;
    private HookCodec currentCodec;
    private int currentLevel;
    private PutFieldImpl currentPut;
    private boolean internal; // our own default-field writing through the JDK's handles: no barrier

    ObjectOutputView(IbisSerializationOutput out) throws IOException {
        super();
        this.out = out;
    }

    /** Saved context, to restore after a nested hook. */
    Object[] enter(Object obj, HookCodec codec, int level) {
        Object[] saved = {currentObject, currentCodec, currentLevel, currentPut, internal};
        currentObject = obj;
        currentCodec = codec;
        currentLevel = level;
        currentPut = null;
        internal = false;
        return saved;
    }

    Object[] enterInternal(Object obj, HookCodec codec, int level) {
        Object[] saved = enter(obj, codec, level);
        internal = true;
        return saved;
    }

    void leave(Object[] saved) {
        currentObject = saved[0];
        currentCodec = (HookCodec) saved[1];
        currentLevel = (Integer) saved[2];
        currentPut = (PutFieldImpl) saved[3];
        internal = (Boolean) saved[4];
    }

    void clearContext() {
        currentObject = null;
        currentCodec = null;
        currentPut = null;
        internal = false;
    }

    @Override
    protected void writeObjectOverride(Object obj) throws IOException {
        out.writeObjectFromHook(obj);
    }

    @Override
    public void writeUnshared(Object obj) throws IOException {
        out.writeObjectFromHook(obj);
    }

    @Override
    public void defaultWriteObject() throws IOException {
        if (currentCodec == null) {
            throw new NotActiveException("defaultWriteObject outside a writeObject hook");
        }
        int mark = out.deferMark();
        currentCodec.writeDefault(currentLevel, currentObject, out);
        out.drain(mark);
    }

    @Override
    public PutField putFields() throws IOException {
        if (currentCodec == null) {
            throw new NotActiveException("putFields outside a writeObject hook");
        }
        if (currentPut == null) {
            currentPut = new PutFieldImpl(currentCodec.level(currentLevel));
        }
        return currentPut;
    }

    @Override
    public void writeFields() throws IOException {
        if (currentPut == null) {
            throw new NotActiveException("writeFields without putFields");
        }
        int mark = out.deferMark();
        currentPut.writeTo(out);
        if (!internal) {
            out.drain(mark);
        }
    }

    @Override
    public void reset() throws IOException {
        throw new IOException("reset() may not be called inside writeObject");
    }

    @Override public void write(int b) throws IOException { out.writeByte((byte) b); }
    @Override public void write(byte[] b) throws IOException { out.writeArrayBytes(b, 0, b.length); }
    @Override public void write(byte[] b, int off, int len) throws IOException { out.writeArrayBytes(b, off, len); }
    @Override public void writeBoolean(boolean v) throws IOException { out.writeBoolean(v); }
    @Override public void writeByte(int v) throws IOException { out.writeByte((byte) v); }
    @Override public void writeShort(int v) throws IOException { out.writeShort((short) v); }
    @Override public void writeChar(int v) throws IOException { out.writeChar((char) v); }
    @Override public void writeInt(int v) throws IOException { out.writeInt(v); }
    @Override public void writeLong(long v) throws IOException { out.writeLong(v); }
    @Override public void writeFloat(float v) throws IOException { out.writeFloat(v); }
    @Override public void writeDouble(double v) throws IOException { out.writeDouble(v); }

    @Override
    public void writeBytes(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            out.writeByte((byte) s.charAt(i));
        }
    }

    @Override
    public void writeChars(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            out.writeChar(s.charAt(i));
        }
    }

    /** Written in the ibis string encoding (readUTF reads it back); null is not allowed, as in the JDK. */
    @Override
    public void writeUTF(String s) throws IOException {
        out.writeString(java.util.Objects.requireNonNull(s));
    }

    @Override
    public void flush() {
        // The port decides when data leaves.
    }

    @Override
    public void close() {
        // The ibis stream is closed by its owner.
    }

    @Override
    public void useProtocolVersion(int version) {
        // One protocol only.
    }

    /** The put-fields of one class level: values by name, written in canonical order. */
    static final class PutFieldImpl extends ObjectOutputStream.PutField {
        private final SerialClass.Level level;
        private final long[] primitives;
        private final Object[] references;

        PutFieldImpl(SerialClass.Level level) {
            this.level = level;
            this.primitives = new long[level.names.length];
            this.references = new Object[level.names.length];
        }

        private int slot(String name, byte... encodings) {
            int i = level.index(name);
            if (i < 0) {
                throw new IllegalArgumentException("no serializable field " + name + " in " + level.type.getName());
            }
            for (byte e : encodings) {
                if (level.encodings[i] == e) {
                    return i;
                }
            }
            throw new IllegalArgumentException("field " + name + " of " + level.type.getName() + " has type "
                    + level.types[i].getName());
        }

        @Override public void put(String name, boolean val) {
            primitives[slot(name, SerialClass.F_BOOLEAN)] = val ? 1 : 0;
        }
        @Override public void put(String name, byte val) { primitives[slot(name, SerialClass.F_BYTE)] = val; }
        @Override public void put(String name, char val) { primitives[slot(name, SerialClass.F_CHAR)] = val; }
        @Override public void put(String name, short val) { primitives[slot(name, SerialClass.F_SHORT)] = val; }
        @Override public void put(String name, int val) { primitives[slot(name, SerialClass.F_INT)] = val; }
        @Override public void put(String name, long val) { primitives[slot(name, SerialClass.F_LONG)] = val; }
        @Override public void put(String name, float val) {
            primitives[slot(name, SerialClass.F_FLOAT)] = Float.floatToRawIntBits(val);
        }
        @Override public void put(String name, double val) {
            primitives[slot(name, SerialClass.F_DOUBLE)] = Double.doubleToRawLongBits(val);
        }

        @Override
        public void put(String name, Object val) {
            int i = slot(name, SerialClass.F_STRING, SerialClass.F_KNOWN, SerialClass.F_OBJECT);
            if (val != null && !level.types[i].isInstance(val)) {
                throw new IllegalArgumentException("field " + name + " of " + level.type.getName() + " has type "
                        + level.types[i].getName() + ", not " + val.getClass().getName());
            }
            references[i] = val;
        }

        @Override
        @Deprecated
        public void write(ObjectOutput out) throws IOException {
            if (!(out instanceof ObjectOutputView)) {
                throw new IOException("PutField.write needs the stream that created it");
            }
            ((ObjectOutputView) out).writeFields();
        }

        void writeTo(IbisSerializationOutput out) throws IOException {
            for (int i = 0; i < primitives.length; i++) {
                long v = primitives[i];
                switch (level.encodings[i]) {
                    case SerialClass.F_BOOLEAN: out.writeBoolean(v != 0); break;
                    case SerialClass.F_BYTE: out.writeByte((byte) v); break;
                    case SerialClass.F_CHAR: out.writeChar((char) v); break;
                    case SerialClass.F_SHORT: out.writeShort((short) v); break;
                    case SerialClass.F_INT: out.writeInt((int) v); break;
                    case SerialClass.F_LONG: out.writeLong(v); break;
                    case SerialClass.F_FLOAT: out.writeFloat(Float.intBitsToFloat((int) v)); break;
                    case SerialClass.F_DOUBLE: out.writeDouble(Double.longBitsToDouble(v)); break;
                    case SerialClass.F_STRING: out.writeString((String) references[i]); break;
                    case SerialClass.F_KNOWN: out.writeKnownObject(references[i], level.types[i]); break;
                    default: out.writeObject(references[i]); break;
                }
            }
        }
    }
}
