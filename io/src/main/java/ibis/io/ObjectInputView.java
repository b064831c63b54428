package ibis.io;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.NotActiveException;
import java.io.ObjectInputStream;
import java.io.ObjectInputValidation;
import java.io.ObjectStreamClass;

/**
 * The {@link ObjectInputStream} that {@code readObject} hooks and {@code readExternal} see: made
 * with the protected no-arg constructor, its methods read from the ibis stream.
 * {@code defaultReadObject} and {@code readFields} read the current level's serial fields in
 * canonical order, as written by {@link ObjectOutputView}. The class filter of the ibis input is
 * installed, so JDK classes that check array sizes through the stream (HashMap, ArrayList) are
 * bounded by it too.
 */
final class ObjectInputView extends ObjectInputStream {

    private final IbisSerializationInput in;

    private Object currentObject;
    private HookCodec currentCodec;
    private int currentLevel;
    private boolean internal;
    private boolean fieldsRead;

    ObjectInputView(IbisSerializationInput in, java.io.ObjectInputFilter filter) throws IOException {
        super();
        this.in = in;
        if (filter != null) {
            try {
                setObjectInputFilter(filter);
            } catch (IllegalStateException e) {
                // A JVM-wide filter is already installed here; the ibis input applies ours itself.
            }
        }
    }

    Object[] enter(Object obj, HookCodec codec, int level) {
        Object[] saved = {currentObject, currentCodec, currentLevel, internal, fieldsRead};
        currentObject = obj;
        currentCodec = codec;
        currentLevel = level;
        internal = false;
        fieldsRead = false;
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
        internal = (Boolean) saved[3];
        fieldsRead = (Boolean) saved[4];
    }

    void clearContext() {
        currentObject = null;
        currentCodec = null;
        internal = false;
    }

    @Override
    protected Object readObjectOverride() throws IOException, ClassNotFoundException {
        return in.readObjectFromHook();
    }

    @Override
    public Object readUnshared() throws IOException, ClassNotFoundException {
        return in.readObjectFromHook();
    }

    @Override
    public void defaultReadObject() throws IOException, ClassNotFoundException {
        if (currentCodec == null) {
            throw new NotActiveException("defaultReadObject outside a readObject hook");
        }
        if (fieldsRead) {
            throw new NotActiveException(
                    "the fields of " + currentCodec.level(currentLevel).type.getName() + " were read already");
        }
        fieldsRead = true;
        int mark = in.deferMark();
        currentCodec.readDefault(currentLevel, currentObject, in);
        in.drain(mark);
    }

    @Override
    public GetField readFields() throws IOException, ClassNotFoundException {
        if (currentCodec == null) {
            throw new NotActiveException("readFields outside a readObject hook");
        }
        if (fieldsRead && !internal) {
            throw new NotActiveException(
                    "the fields of " + currentCodec.level(currentLevel).type.getName() + " were read already");
        }
        fieldsRead = true;
        int mark = in.deferMark();
        GetFieldImpl fields = new GetFieldImpl(currentCodec.level(currentLevel));
        fields.readFrom(in);
        if (!internal) {
            in.drain(mark);
        }
        return fields;
    }

    @Override
    public void registerValidation(ObjectInputValidation obj, int prio)
            throws NotActiveException, InvalidObjectException {
        if (in.depth() == 0) {
            throw new NotActiveException("registerValidation outside readObject");
        }
        in.addValidation(obj, prio);
    }

    @Override
    public int read() throws IOException {
        try {
            return in.readByte() & 0xff;
        } catch (EndOfMessageException e) {
            return -1;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        in.readArrayBytes(b, off, len);
        return len;
    }

    @Override
    public int available() {
        return 0;
    }

    @Override public void readFully(byte[] b) throws IOException { in.readArrayBytes(b, 0, b.length); }
    @Override public void readFully(byte[] b, int off, int len) throws IOException {
        java.util.Objects.checkFromIndexSize(off, len, b.length);
        in.readArrayBytes(b, off, len);
    }
    @Override public int skipBytes(int len) throws IOException {
        for (int i = 0; i < len; i++) {
            in.readByte();
        }
        return Math.max(len, 0);
    }
    @Override public boolean readBoolean() throws IOException { return in.readBoolean(); }
    @Override public byte readByte() throws IOException { return in.readByte(); }
    @Override public int readUnsignedByte() throws IOException { return in.readByte() & 0xff; }
    @Override public char readChar() throws IOException { return in.readChar(); }
    @Override public short readShort() throws IOException { return in.readShort(); }
    @Override public int readUnsignedShort() throws IOException { return in.readShort() & 0xffff; }
    @Override public int readInt() throws IOException { return in.readInt(); }
    @Override public long readLong() throws IOException { return in.readLong(); }
    @Override public float readFloat() throws IOException { return in.readFloat(); }
    @Override public double readDouble() throws IOException { return in.readDouble(); }

    @Override
    public String readUTF() throws IOException {
        String s = in.readStringField();
        if (s == null) {
            throw new java.io.StreamCorruptedException("readUTF: null string");
        }
        return s;
    }

    @Override
    @Deprecated
    public String readLine() throws IOException {
        StringBuilder b = new StringBuilder();
        for (;;) {
            int c = read();
            if (c < 0) {
                if (b.length() == 0) {
                    return null;
                }
                break;
            }
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.append((char) c);
            }
        }
        return b.toString();
    }

    @Override
    public void close() {
        // The ibis stream is closed by its owner.
    }

    /** The fields of one class level, read in canonical order and looked up by name. */
    static final class GetFieldImpl extends ObjectInputStream.GetField {
        private final SerialClass.Level level;
        private final long[] primitives;
        private final Object[] references;

        GetFieldImpl(SerialClass.Level level) {
            this.level = level;
            this.primitives = new long[level.names.length];
            this.references = new Object[level.names.length];
        }

        void readFrom(IbisSerializationInput in) throws IOException, ClassNotFoundException {
            for (int i = 0; i < primitives.length; i++) {
                switch (level.encodings[i]) {
                    case SerialClass.F_BOOLEAN: primitives[i] = in.readBoolean() ? 1 : 0; break;
                    case SerialClass.F_BYTE: primitives[i] = in.readByte(); break;
                    case SerialClass.F_CHAR: primitives[i] = in.readChar(); break;
                    case SerialClass.F_SHORT: primitives[i] = in.readShort(); break;
                    case SerialClass.F_INT: primitives[i] = in.readInt(); break;
                    case SerialClass.F_LONG: primitives[i] = in.readLong(); break;
                    case SerialClass.F_FLOAT: primitives[i] = Float.floatToRawIntBits(in.readFloat()); break;
                    case SerialClass.F_DOUBLE: primitives[i] = Double.doubleToRawLongBits(in.readDouble()); break;
                    case SerialClass.F_STRING: references[i] = in.readStringField(); break;
                    case SerialClass.F_KNOWN: references[i] = in.readKnownObject(level.types[i]); break;
                    default: references[i] = in.readObject(); break;
                }
            }
        }

        private int slot(String name, byte encoding) {
            int i = level.index(name);
            if (i < 0) {
                throw new IllegalArgumentException("no serializable field " + name + " in " + level.type.getName());
            }
            if (encoding >= 0 && level.encodings[i] != encoding) {
                throw new IllegalArgumentException("field " + name + " of " + level.type.getName() + " has type "
                        + level.types[i].getName());
            }
            return i;
        }

        @Override
        public ObjectStreamClass getObjectStreamClass() {
            return ObjectStreamClass.lookup(level.type);
        }

        @Override
        public boolean defaulted(String name) {
            slot(name, (byte) -1);
            return false;
        }

        @Override public boolean get(String name, boolean val) {
            return primitives[slot(name, SerialClass.F_BOOLEAN)] != 0;
        }
        @Override public byte get(String name, byte val) { return (byte) primitives[slot(name, SerialClass.F_BYTE)]; }
        @Override public char get(String name, char val) { return (char) primitives[slot(name, SerialClass.F_CHAR)]; }
        @Override public short get(String name, short val) {
            return (short) primitives[slot(name, SerialClass.F_SHORT)];
        }
        @Override public int get(String name, int val) { return (int) primitives[slot(name, SerialClass.F_INT)]; }
        @Override public long get(String name, long val) { return primitives[slot(name, SerialClass.F_LONG)]; }
        @Override public float get(String name, float val) {
            return Float.intBitsToFloat((int) primitives[slot(name, SerialClass.F_FLOAT)]);
        }
        @Override public double get(String name, double val) {
            return Double.longBitsToDouble(primitives[slot(name, SerialClass.F_DOUBLE)]);
        }

        @Override
        public Object get(String name, Object val) {
            int i = slot(name, (byte) -1);
            if (level.encodings[i] < SerialClass.F_STRING) {
                throw new IllegalArgumentException("field " + name + " of " + level.type.getName() + " is a primitive");
            }
            return references[i];
        }
    }
}
