package ibis.io;

import java.io.IOException;
import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The "ibis" object serialization, write side (wire format and the contract with rewritten code:
 * io/README.md, "ibis" and "Generated serializers"). Writes straight into the {@link DataOutput}
 * (normally a {@link BlockOutputStream}: the sender's native byte order, one buffer), keeps object
 * identity within a message, sends each class's type descriptor once per stream, and writes
 * strings without per-char overhead. The code that writes an object's fields is found once per
 * class and then called directly: the rewriter's {@code ibisWrite}, or a generated hidden class.
 *
 * <p>Rewritten classes call {@link #writeInt} etc., {@link #writeString}, {@link #writeObject} and
 * {@link #writeKnownObject} from their generated {@code ibisWrite} method. Not thread-safe (one
 * writer at a time, as the port guarantees).
 */
public final class IbisSerializationOutput implements SerializationOutput {

    // Reference headers (io/README.md, "Reference header").
    static final int NULL = 0;
    static final int RESET = -1;
    static final int TYPE_DEFINITION = -2;
    static final int KNOWN = -3;
    static final int TYPE_BASE = -4; // header of a new object of type id t: TYPE_BASE - t

    /** Objects whose header is written at this depth or deeper have their contents deferred (wire constant). */
    static final int DEFER_DEPTH = 64;

    /** Type ids are below this per stream (wire constant). */
    static final int MAX_TYPES = 65536;

    static final byte LATIN1 = 0;
    static final byte UTF16 = 1;

    /** Strings up to this length go through the reused scratch arrays. */
    static final int CHUNK = 4096;

    /** Swaps remote objects for what travels instead (their stubs); set by the RMI runtime. */
    private static volatile java.util.function.UnaryOperator<Object> remoteReplacer;

    private final DataOutput out;
    // out copies arrays before returning (BlockOutputStream), so scratch arrays may be reused
    private final boolean copies;
    private final BlockOutputStream blocks; // out, when it is one (runs of primitive fields)
    private final int maxDepth;
    private final int plainDepthLimit; // min(DEFER_DEPTH, maxDepth): beginPlain writes a plain object at once below it
    // the same for selfHeader; 0 when the block stream cannot take a run and a header in one block
    private final int foldDepthLimit;
    private final IdentityTable handles = new IdentityTable();
    private boolean resetPending;
    private int[] typeIds = new int[64]; // by SerialClass.index: type id + 1; 0 = not defined on this stream
    private int nextTypeId = SerialClass.FIRST_USER_TYPE;
    private int depth;
    private Object[] deferred = new Object[16];
    private SerialClass[] deferredClasses = new SerialClass[16];
    private int deferredCount;
    /** Every deferred entry below this index is done (drainAll starts here, so it stays linear). */
    private int firstPending;
    private Class<?> lastClass;     // one-entry cache in front of the ClassValue
    private SerialClass lastSerial;
    // One-entry cache of the last plain class written as a new object on this stream: its header
    // (type id already defined), serial class and codec, so that the common case (many objects of
    // one class, as in a list or tree) costs one class comparison before the handle table.
    private Class<?> plainClass;
    private SerialClass plainSerial;
    private ObjectCodec plainCodec;
    private int plainHeader;
    private ObjectOutputView view;
    private final char[] chars = new char[CHUNK];
    private final byte[] bytes = new byte[CHUNK];

    IbisSerializationOutput(DataOutput out) {
        this.out = Objects.requireNonNull(out, "out");
        this.copies = out instanceof BlockOutputStream;
        this.blocks = out instanceof BlockOutputStream b ? b : null;
        this.maxDepth = IoProperties.objectDepthMax(null);
        this.plainDepthLimit = Math.min(DEFER_DEPTH, maxDepth);
        // The largest reservation of generated code, a run and a folded header, is what a reader claims at most.
        this.foldDepthLimit = blocks == null || blocks.runMax() >= BlockInputStream.CLAIM_MAX ? plainDepthLimit : 0;
    }

    @Override
    public String serializationName() {
        return "ibis";
    }

    // ---- objects

    /**
     * Writes an object graph (for rewritten code: a reference field of a type that is not a known
     * type). Identity is kept within the message. Throws {@link NotSerializableException} for an
     * object whose class is not serializable.
     */
    @Override
    public void writeObject(Object value) throws IOException {
        if (depth > 0) {
            // A field of an object being written. Kept small so that the JIT inlines it into the
            // generated code, with null (half the references of a tree or list) written right
            // there at no call (measured on the 1023-node tree over JMH forks, which differ in the
            // order the JIT compiled the recursion in: 9.3 to 9.8 µs per tree, 9.9 to 10.4 when
            // null went through writeReference too).
            if (value == null) {
                out.writeInt(NULL); // no RESET is pending below the top level (see writeTopObject)
            } else {
                writeReference(value);
            }
            return;
        }
        writeTopObject(value);
    }

    /**
     * For rewritten code, a reference field declared as {@code type}, the rewritten class itself:
     * writes what {@link #writeObject} would, except that when {@code value} is a new object of
     * exactly the class this stream last wrote a plain object of (and no deferral or depth limit
     * applies), only its header is written and {@code true} returned. The caller then writes the
     * body itself (the class's write method) and calls {@link #endPlain()}: the recursion of a tree
     * or list is one call per level. (Rewritten code of a class runs only when the stream uses it
     * for that class, so the caller's write method is the right one.) The few lines of the
     * plain-object path of writeReference are repeated here so that this stays small enough to be
     * inlined into the caller.
     */
    public boolean beginPlain(Object value, Class<?> type) throws IOException {
        if (value != null && value.getClass() == type && type == plainClass && depth > 0 && depth < plainDepthLimit) {
            int h = handles.putIfAbsent(value);
            if (h != 0) {
                out.writeInt(h);
                return false;
            }
            out.writeInt(plainHeader);
            depth++;
            return true;
        }
        writeObject(value);
        return false;
    }

    /** Ends an object whose body was written after {@link #beginPlain} returned {@code true}. */
    public void endPlain() {
        depth--;
    }

    /**
     * {@link #selfHeader}'s answer when it did nothing: the reference is written by
     * {@link #putSelfHeader} as by writeObject.
     */
    public static final int NOT_FOLDED = Integer.MIN_VALUE;

    /**
     * For rewritten code, a reference field declared as the class itself that directly follows a
     * run of primitive fields: decides its header before the run is reserved, so that the header
     * joins the run (one reservation instead of two writes; the bytes are those of
     * {@link #beginPlain} after the run). Returns 0 for null, a handle for an object
     * already written, the header of a new object of exactly the class this stream last wrote a
     * plain object of (entered in the handle table; the caller writes its body and calls
     * {@link #endPlain()}), or {@link #NOT_FOLDED} when none of these applies (another class, the
     * top level, deferral or the depth limit, a block stream whose first blocks are smaller than
     * 20 bytes), having done nothing. Then
     * {@link #reserveWithHeader} and {@link #putSelfHeader}.
     */
    public int selfHeader(Object value, Class<?> type) {
        int d = depth;
        if (d > 0 && d < foldDepthLimit) {
            if (value == null) {
                return NULL;
            }
            if (value.getClass() == type && type == plainClass) {
                int h = handles.putIfAbsent(value);
                if (h != 0) {
                    return h;
                }
                depth = d + 1;
                return plainHeader;
            }
        }
        return NOT_FOLDED;
    }

    /**
     * Reserves a run of {@code n} bytes of primitives followed by {@code header} when it is folded
     * (see {@link #selfHeader}).
     */
    public int reserveWithHeader(int n, int header) throws IOException {
        return reservePrimitives(header == NOT_FOLDED ? n : n + 4);
    }

    /**
     * Writes {@code header} (from {@link #selfHeader}) at {@code p}, the end of the run reserved by
     * {@link #reserveWithHeader}, or, when it was not folded, writes {@code value} as
     * {@link #writeObject} would. True when the caller writes the body of a new object now and then
     * calls {@link #endPlain()}.
     */
    public boolean putSelfHeader(int p, int header, Object value) throws IOException {
        if (header == NOT_FOLDED) {
            writeObject(value);
            return false;
        }
        putInt(p, header);
        return header < 0;
    }

    /** writeObject of the application (a barrier: the whole graph is written on return). */
    private void writeTopObject(Object value) throws IOException {
        try {
            if (resetPending) {
                resetPending = false;
                out.writeInt(RESET); // writeReference's headers do not check (it runs at the top level only from here)
            }
            writeReference(value);
            drain(0);
        } catch (StackOverflowError e) {
            abort();
            throw new IOException("ibis serialization: object graph too deep to write (nested through classes with"
                    + " writeObject hooks, Externalizable or records)", e);
        } catch (IOException | RuntimeException | Error e) {
            abort();
            throw e;
        }
    }

    /**
     * Writes a reference of a field whose declared type is the known type {@code type}
     * (io/README.md, "Known type"): no type id, only a null/back-reference/new-object header.
     * Called by rewritten and generated code only.
     */
    public void writeKnownObject(Object value, Class<?> type) throws IOException {
        if (depth == 0) {
            // Not a field of an object being written: treat as a top-level write.
            try {
                writeKnown(value, type);
                drain(0);
            } catch (IOException | RuntimeException | Error e) {
                abort();
                throw e;
            }
            return;
        }
        writeKnown(value, type);
    }

    private void writeKnown(Object value, Class<?> type) throws IOException {
        if (value == null) {
            header(NULL);
            return;
        }
        if (value.getClass() != type) {
            throw new IOException("ibis serialization: a field declared as final type " + type.getName() + " holds a "
                    + value.getClass().getName());
        }
        SerialClass sc = serial(type);
        if (sc.kind == SerialClass.NOT_SERIALIZABLE) {
            throw new NotSerializableException(sc.problem);
        }
        if (sc.valueType) {
            header(KNOWN);
            writeValueBody(sc, value);
            return;
        }
        int h = handles.putIfAbsent(value);
        if (h != 0) {
            header(h);
            return;
        }
        header(KNOWN);
        writeContents(sc, value);
    }

    /**
     * A reference written from a writeObject/writeExternal hook: a barrier (its graph is complete
     * before returning).
     */
    void writeObjectFromHook(Object value) throws IOException {
        int mark = deferredCount;
        writeReference(value);
        drain(mark);
    }

    private SerialClass serial(Class<?> c) {
        if (c == lastClass) {
            return lastSerial;
        }
        SerialClass sc = SerialClass.of(c);
        lastClass = c;
        lastSerial = sc;
        return sc;
    }

    private void writeReference(Object obj) throws IOException {
        if (obj == null) {
            out.writeInt(NULL);
            return;
        }
        Class<?> c = obj.getClass();
        if (c == plainClass) {
            int h = handles.putIfAbsent(obj);
            if (h != 0) {
                out.writeInt(h);
                return;
            }
            out.writeInt(plainHeader);
            if (depth >= DEFER_DEPTH) {
                defer(obj, plainSerial);
                return;
            }
            if (depth >= maxDepth) {
                throw new IOException(
                        "ibis serialization: object graph nested deeper than " + IoProperties.OBJECT_DEPTH_MAX
                        + " (" + maxDepth + ") at a " + plainSerial.name);
            }
            depth++;
            try {
                plainCodec.writeContents(obj, this);
            } finally {
                depth--;
            }
            return;
        }
        writeOther(obj, serial(c));
    }

    /**
     * Makes every writer of this JVM write, for an object that implements {@code java.rmi.Remote},
     * what {@code replacer} returns for it instead, wherever it sits in the graph: the RMI
     * runtime passes exported objects as their stubs this way, as {@code java.rmi}'s marshal
     * streams replace them ({@code ObjectOutputStream.replaceObject}). The replacer returns its
     * argument for objects it leaves alone; it must be cheap and must not write to the stream.
     *
     * @param replacer the replacement, or null for none
     */
    public static void replaceRemoteObjects(java.util.function.UnaryOperator<Object> replacer) {
        remoteReplacer = replacer;
    }

    /** writeReference for an object that is not of the cached plain class. */
    private void writeOther(Object obj, SerialClass sc) throws IOException {
        if (sc.remote) {
            java.util.function.UnaryOperator<Object> r = remoteReplacer;
            Object rep = r == null ? obj : r.apply(obj);
            if (rep != obj) {
                writeReference(rep); // (a stub: the replacer leaves it as it is)
                return;
            }
        }
        if (sc.valueType) {
            writeValue(sc, obj);
            return;
        }
        if (sc.writeReplace != null || sc.kind == SerialClass.NOT_SERIALIZABLE) {
            int h = handles.get(obj);
            if (h != 0) {
                header(h);
            } else if (sc.writeReplace != null) {
                writeReplaced(obj, sc);
            } else {
                throw new NotSerializableException(sc.problem);
            }
            return;
        }
        int h = handles.putIfAbsent(obj); // one probe: found, or entered as new
        if (h != 0) {
            header(h);
            return;
        }
        int typeHeader = TYPE_BASE - typeId(sc);
        header(typeHeader);
        if (sc.kind == SerialClass.PLAIN && !sc.remote) { // (a remote object is offered to the replacer each time)
            plainCodec = sc.codec();
            plainSerial = sc;
            plainHeader = typeHeader;
            plainClass = sc.type;
        }
        writeContents(sc, obj);
    }

    private void writeReplaced(Object original, SerialClass sc) throws IOException {
        Object rep = original;
        for (;;) {
            Object next = invoke(sc.writeReplace, rep);
            if (next == null || next.getClass() == rep.getClass()) {
                rep = next;
                break;
            }
            rep = next;
            sc = serial(rep.getClass());
            if (sc.writeReplace == null) {
                break;
            }
        }
        if (rep == null) {
            header(NULL);
            return;
        }
        sc = serial(rep.getClass());
        if (sc.valueType) {
            writeValue(sc, rep);
            return;
        }
        int h = handles.get(rep);
        if (h != 0) {
            handles.alias(original, h);
            header(h);
            return;
        }
        if (sc.kind == SerialClass.NOT_SERIALIZABLE) {
            throw new NotSerializableException(sc.problem);
        }
        int t = typeId(sc);
        header(TYPE_BASE - t);
        int handle = handles.size() + 1;
        handles.putIfAbsent(rep); // absent (get above): enters it with that handle
        if (rep != original) {
            handles.alias(original, handle);
        }
        writeContents(sc, rep);
    }

    private static Object invoke(java.lang.invoke.MethodHandle replace, Object obj) throws IOException {
        try {
            return (Object) replace.invokeExact(obj);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("writeReplace of " + obj.getClass().getName() + " failed: " + t, t);
        }
    }

    /** Contents of a new object whose header was written; deferred when deep and deferrable. */
    private void writeContents(SerialClass sc, Object obj) throws IOException {
        switch (sc.kind) {
            case SerialClass.BOOLEAN_ARRAY: {
                boolean[] a = (boolean[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.BYTE_ARRAY: {
                byte[] a = (byte[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.CHAR_ARRAY: {
                char[] a = (char[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.SHORT_ARRAY: {
                short[] a = (short[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.INT_ARRAY: {
                int[] a = (int[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.LONG_ARRAY: {
                long[] a = (long[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.FLOAT_ARRAY: {
                float[] a = (float[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.DOUBLE_ARRAY: {
                double[] a = (double[]) obj;
                out.writeInt(a.length);
                out.writeArray(a, 0, a.length);
                return;
            }
            case SerialClass.REFERENCE_ARRAY:
                out.writeInt(((Object[]) obj).length);
                break;
            default:
                break;
        }
        if (sc.deferrable && depth >= DEFER_DEPTH) {
            defer(obj, sc);
            return;
        }
        writeBody(sc, obj);
    }

    /** The part of an object's contents that may be deferred: elements of a reference array, or fields. */
    private void writeBody(SerialClass sc, Object obj) throws IOException {
        if (++depth > maxDepth) {
            depth--;
            throw new IOException("ibis serialization: object graph nested deeper than " + IoProperties.OBJECT_DEPTH_MAX
                    + " (" + maxDepth + ") at a " + sc.name);
        }
        try {
            if (sc.kind == SerialClass.REFERENCE_ARRAY) {
                for (Object element : (Object[]) obj) {
                    writeReference(element);
                }
            } else {
                sc.codec().writeContents(obj, this);
            }
        } finally {
            depth--;
        }
    }

    private void defer(Object obj, SerialClass sc) {
        if (deferredCount == deferred.length) {
            deferred = Arrays.copyOf(deferred, 2 * deferredCount);
            deferredClasses = Arrays.copyOf(deferredClasses, 2 * deferredCount);
        }
        deferred[deferredCount] = obj;
        deferredClasses[deferredCount++] = sc;
    }

    /** Position in the deferred queue, taken at the start of a barrier. */
    int deferMark() {
        return deferredCount;
    }

    /**
     * Ends a barrier: writes the contents deferred since {@code mark}, first in first out (entries
     * an inner {@link #drainAll()} wrote already are skipped).
     */
    void drain(int mark) throws IOException {
        for (int i = mark; i < deferredCount; i++) {
            writeDeferred(i);
        }
        deferredCount = mark;
        firstPending = Math.min(firstPending, mark);
    }

    /**
     * Before the contents of an object whose code will look at the objects it references (hooks,
     * records, Externalizable): writes every deferred content still pending, of every barrier, first
     * in first out, so that the reader fills them before that code runs (the reader does the same at
     * the same point).
     */
    void drainAll() throws IOException {
        for (int i = firstPending; i < deferredCount; i++) {
            firstPending = i + 1; // (a nested drainAll starts after this entry, which writeDeferred empties)
            writeDeferred(i);
        }
        firstPending = deferredCount; // everything below is done
    }

    /** Writes deferred entry {@code i} unless a drain wrote it already. */
    private void writeDeferred(int i) throws IOException {
        Object obj = deferred[i];
        if (obj == null) {
            return;
        }
        SerialClass sc = deferredClasses[i];
        deferred[i] = null;
        deferredClasses[i] = null;
        writeBody(sc, obj);
    }

    private void abort() {
        for (int i = 0; i < deferredCount; i++) {
            deferred[i] = null;
            deferredClasses[i] = null;
        }
        deferredCount = 0;
        firstPending = 0;
        depth = 0;
        if (view != null) {
            view.clearContext();
        }
    }

    private void writeValue(SerialClass sc, Object obj) throws IOException {
        int t = sc.kind == SerialClass.ENUM ? typeId(sc) : sc.predefinedId;
        header(TYPE_BASE - t);
        writeValueBody(sc, obj);
    }

    private void writeValueBody(SerialClass sc, Object obj) throws IOException {
        switch (sc.kind) {
            case SerialClass.STRING:
                writeStringBody((String) obj);
                break;
            case SerialClass.BOOLEAN:
                out.writeBoolean((Boolean) obj);
                break;
            case SerialClass.BYTE:
                out.writeByte((Byte) obj);
                break;
            case SerialClass.CHAR:
                out.writeChar((Character) obj);
                break;
            case SerialClass.SHORT:
                out.writeShort((Short) obj);
                break;
            case SerialClass.INT:
                out.writeInt((Integer) obj);
                break;
            case SerialClass.LONG:
                out.writeLong((Long) obj);
                break;
            case SerialClass.FLOAT:
                out.writeFloat((Float) obj);
                break;
            case SerialClass.DOUBLE:
                out.writeDouble((Double) obj);
                break;
            case SerialClass.CLASS:
                writeStringBody(((Class<?>) obj).getName());
                break;
            case SerialClass.ENUM:
                out.writeInt(((Enum<?>) obj).ordinal());
                break;
            default:
                throw new IllegalStateException(sc.name);
        }
    }

    /** Writes a reference header, preceded by a pending RESET marker. */
    private void header(int h) throws IOException {
        if (resetPending) {
            resetPending = false;
            out.writeInt(RESET);
        }
        out.writeInt(h);
    }

    /** The type id of {@code sc} on this stream, writing its definition first when it has none yet. */
    private int typeId(SerialClass sc) throws IOException {
        if (sc.predefinedId >= 0) {
            return sc.predefinedId;
        }
        int i = sc.index;
        if (i < typeIds.length && typeIds[i] != 0) {
            return typeIds[i] - 1;
        }
        int id = nextTypeId;
        if (id >= MAX_TYPES) {
            throw new IOException("ibis serialization: more than " + (MAX_TYPES - SerialClass.FIRST_USER_TYPE)
                    + " classes on one stream (" + sc.name + "); the port must create a new stream");
        }
        nextTypeId++;
        header(TYPE_DEFINITION);
        out.writeInt(id);
        writeStringBody(sc.name);
        out.writeLong(sc.fingerprint);
        if (sc.kind == SerialClass.ENUM) {
            out.writeByte((byte) 1);
            Object[] constants = sc.enumConstants;
            out.writeInt(constants.length);
            for (Object constant : constants) {
                writeStringBody(((Enum<?>) constant).name());
            }
        } else {
            out.writeByte((byte) 0);
        }
        if (i >= typeIds.length) {
            typeIds = Arrays.copyOf(typeIds, Math.max(2 * typeIds.length, i + 1));
        }
        typeIds[i] = id + 1;
        return id;
    }

    /** Raw bytes for the hook views (no array header). */
    void writeArrayBytes(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        out.writeArray(copies ? b : Arrays.copyOfRange(b, off, off + len), copies ? off : 0, len);
    }

    /** The ObjectOutputStream view passed to writeObject hooks and writeExternal. */
    ObjectOutputView view() throws IOException {
        if (view == null) {
            view = new ObjectOutputView(this);
        }
        return view;
    }

    int depth() {
        return depth;
    }

    // ---- strings

    /** Writes a string by value (no identity; null allowed): length, coder, then bytes or chars. */
    @Override
    public void writeString(String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
        } else {
            writeStringBody(value);
        }
    }

    // String.getBytes(int, int, byte[], int): the low bytes, a plain copy for Latin-1 strings
    @SuppressWarnings("deprecation")
    private void writeStringBody(String s) throws IOException {
        int n = s.length();
        out.writeInt(n);
        if (n == 0) {
            return;
        }
        if (n <= CHUNK && copies) {
            char[] c = chars;
            s.getChars(0, n, c, 0);
            int any = 0;
            for (int i = 0; i < n; i++) {
                any |= c[i];
            }
            if (any < 0x100) {
                out.writeByte(LATIN1);
                s.getBytes(0, n, bytes, 0);
                out.writeArray(bytes, 0, n);
            } else {
                out.writeByte(UTF16);
                out.writeArray(c, 0, n);
            }
            return;
        }
        boolean latin1 = true;
        for (int i = 0; i < n && latin1; i += CHUNK) {
            int k = Math.min(CHUNK, n - i);
            s.getChars(i, i + k, chars, 0);
            for (int j = 0; j < k; j++) {
                if (chars[j] >= 0x100) {
                    latin1 = false;
                    break;
                }
            }
        }
        out.writeByte(latin1 ? LATIN1 : UTF16);
        if (!copies) {
            // A DataOutput that may keep the array until flush(): hand it a fresh one.
            if (latin1) {
                byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
                out.writeArray(b, 0, b.length);
            } else {
                out.writeArray(s.toCharArray(), 0, n);
            }
            return;
        }
        for (int i = 0; i < n; i += CHUNK) {
            int k = Math.min(CHUNK, n - i);
            if (latin1) {
                s.getBytes(i, i + k, bytes, 0);
                out.writeArray(bytes, 0, k);
            } else {
                s.getChars(i, i + k, chars, 0);
                out.writeArray(chars, 0, k);
            }
        }
    }

    // ---- object and primitive arrays of the application

    @Override
    public void writeArray(Object[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        for (int i = offset; i < offset + length; i++) {
            writeObject(source[i]);
        }
    }

    /**
     * Header of a primitive array written by writeArray: a new array object that takes a handle
     * number but no table entry.
     */
    private void arrayHeader(int kind, int length) throws IOException {
        if (depth != 0) {
            throw new IOException("ibis serialization: writeArray inside writeObject");
        }
        header(TYPE_BASE - kind);
        handles.skip();
        out.writeInt(length);
    }

    @Override
    public void writeArray(boolean[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.BOOLEAN_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(byte[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.BYTE_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(char[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.CHAR_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(short[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.SHORT_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(int[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.INT_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(long[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.LONG_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(float[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.FLOAT_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    @Override
    public void writeArray(double[] source, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, source.length);
        arrayHeader(SerialClass.DOUBLE_ARRAY, length);
        out.writeArray(source, offset, length);
    }

    // ---- message and stream

    /**
     * Forgets the objects written so far (the next write of one sends it again); type ids are kept.
     * The reader learns it from a RESET marker before the next reference header.
     */
    @Override
    public void reset() throws IOException {
        if (depth != 0) {
            throw new IOException("ibis serialization: reset() while an object is being written");
        }
        if (handles.size() > 0) {
            handles.clear();
            resetPending = true;
        }
    }

    /** Ends the message: object identities end here on both sides (nothing is written). */
    @Override
    public void endMessage() throws IOException {
        if (depth != 0 || deferredCount != 0) {
            abort();
        }
        handles.clear();
        resetPending = false;
    }

    // ---- runs of primitive fields (rewritten and generated writing code; see io/README.md)

    /**
     * Starts writing a run of primitive fields of {@code n} bytes in all (at most
     * {@link BlockInputStream#RUN_MAX}): returns the offset {@code p} to pass to
     * {@link #putInt} and its siblings, each value at {@code p} plus the sizes of the values before
     * it. The values must then be written in order, each once, before anything else is written.
     */
    public int reservePrimitives(int n) throws IOException {
        BlockOutputStream b = blocks;
        return b != null ? b.reserve(n) : 0; // not a block stream: the values are written one by one
    }

    /** Writes a boolean of a reserved run. */
    public void putBoolean(int p, boolean value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putBoolean(p, value);
        } else {
            out.writeBoolean(value);
        }
    }

    /** Writes a byte of a reserved run. */
    public void putByte(int p, byte value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putByte(p, value);
        } else {
            out.writeByte(value);
        }
    }

    /** Writes a char of a reserved run. */
    public void putChar(int p, char value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putChar(p, value);
        } else {
            out.writeChar(value);
        }
    }

    /** Writes a short of a reserved run. */
    public void putShort(int p, short value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putShort(p, value);
        } else {
            out.writeShort(value);
        }
    }

    /** Writes an int of a reserved run. */
    public void putInt(int p, int value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putInt(p, value);
        } else {
            out.writeInt(value);
        }
    }

    /** Writes a long of a reserved run. */
    public void putLong(int p, long value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putLong(p, value);
        } else {
            out.writeLong(value);
        }
    }

    /** Writes a float of a reserved run. */
    public void putFloat(int p, float value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putFloat(p, value);
        } else {
            out.writeFloat(value);
        }
    }

    /** Writes a double of a reserved run. */
    public void putDouble(int p, double value) throws IOException {
        BlockOutputStream b = blocks;
        if (b != null) {
            b.putDouble(p, value);
        } else {
            out.writeDouble(value);
        }
    }

    @Override public void writeBoolean(boolean value) throws IOException { out.writeBoolean(value); }
    @Override public void writeByte(byte value) throws IOException { out.writeByte(value); }
    @Override public void writeChar(char value) throws IOException { out.writeChar(value); }
    @Override public void writeShort(short value) throws IOException { out.writeShort(value); }
    @Override public void writeInt(int value) throws IOException { out.writeInt(value); }
    @Override public void writeLong(long value) throws IOException { out.writeLong(value); }
    @Override public void writeFloat(float value) throws IOException { out.writeFloat(value); }
    @Override public void writeDouble(double value) throws IOException { out.writeDouble(value); }
    @Override public void writeByteBuffer(ByteBuffer value) throws IOException { out.writeByteBuffer(value); }
    @Override public void flush() throws IOException { out.flush(); }
    @Override public long bytesWritten() { return out.bytesWritten(); }
    @Override public void resetBytesWritten() { out.resetBytesWritten(); }
    @Override public void close() throws IOException { out.close(); }
}
