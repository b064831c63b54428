package ibis.io;

import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputValidation;
import java.io.StreamCorruptedException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * The "ibis" object serialization, read side (io/README.md, "ibis"). Reads what an
 * {@link IbisSerializationOutput} wrote; data arrive in the sender's byte order and the
 * {@link BlockInputStream} converts only when that differs from ours.
 *
 * <p>Safety: every count read from the wire is checked before anything is allocated from it (type
 * ids, handles, string and array lengths against {@code ibis.io.string.max} and
 * {@code ibis.io.object.array.max}, nesting against {@code ibis.io.object.depth.max}); classes are
 * loaded without initialisation and must pass the class filter before any object is created;
 * long arrays and strings grow as their bytes arrive. Malformed input gives a
 * {@link StreamCorruptedException} (or {@link InvalidClassException}, {@link InvalidObjectException})
 * naming the stream offset and what was expected, and leaves this input unusable; a
 * {@link ClassNotFoundException} only abandons the rest of the current message.
 *
 * <p>Rewritten classes call {@link #readInt()} etc., {@link #readString()}, {@link #readObject()},
 * {@link #readKnownObject(Class)} and {@link #registerObject(Object)} from their reading
 * constructors. Not thread-safe.
 */
public final class IbisSerializationInput implements SerializationInput {

    private static final int NULL = IbisSerializationOutput.NULL;
    private static final int RESET = IbisSerializationOutput.RESET;
    private static final int TYPE_DEFINITION = IbisSerializationOutput.TYPE_DEFINITION;
    private static final int KNOWN = IbisSerializationOutput.KNOWN;
    private static final int TYPE_BASE = IbisSerializationOutput.TYPE_BASE;
    private static final int DEFER_DEPTH = IbisSerializationOutput.DEFER_DEPTH;
    private static final int MAX_TYPES = IbisSerializationOutput.MAX_TYPES;
    private static final int CHUNK = IbisSerializationOutput.CHUNK;

    /** Longest class or enum constant name accepted. */
    private static final int MAX_NAME = 65535;

    private static final Map<String, Class<?>> PRIMITIVE_CLASSES = Map.of(
            "boolean", boolean.class, "byte", byte.class, "char", char.class, "short", short.class,
            "int", int.class, "long", long.class, "float", float.class, "double", double.class, "void", void.class);

    private final DataInput in;
    private final BlockInputStream blocks; // in, when it is one (remaining-bytes checks, offsets)
    private final ObjectInputFilter filter;     // class pattern(s) and limits: always given to the hook view
    private final boolean filterClasses;        // consult the filter for our own classes and arrays too
    private final int maxString;
    private final int maxArray;
    private final int maxDepth;
    private final int plainDepthLimit; // min(DEFER_DEPTH, maxDepth): below it a plain object is read at once
    private final ClassLoader loader;
    private final PrimitiveArrayReader arrays;

    /**
     * The handle table of the stream, kept for every message: the first {@value #BASE_HANDLES} - 1
     * objects of a message. A message with more objects moves to a table of its own, dropped at the
     * end of the message: that table is new, so storing the message's (new) objects into it needs no
     * card marking by the garbage collector (G1 fences every store of a young object into an old
     * array, about 1.7 ns per object measured on the 1023-node tree), and it costs 4 bytes per object
     * of a message that allocates at least 16 per object anyway.
     */
    private static final int BASE_HANDLES = 64;
    private final Object[] baseHandles = new Object[BASE_HANDLES];
    private Object[] handles = baseHandles; // handles[1 .. handleCount]
    private int handleCount;
    private boolean expectRegistration;

    private final InputTypeTable types = new InputTypeTable(); // the types defined on this stream
    private boolean[] approved = new boolean[64];               // by SerialClass.index: the filter accepted it

    private int depth;
    private Object[] deferred = new Object[16];
    private SerialClass[] deferredClasses = new SerialClass[16];
    private int deferredCount;
    /** Every deferred entry below this index is done (drainAll starts here, so it stays linear). */
    private int firstPending;
    private List<Object[]> validations; // {ObjectInputValidation, Integer priority}

    private IOException broken;                 // the input is unusable after this
    private ClassNotFoundException abandoned;   // the rest of the current message is unreadable
    private boolean trouble;                    // broken != null || abandoned != null
    // The application's primitive reads (and the fields read by rewritten and generated code) go to
    // `primitives`: `in` while all is well, a FailedInput that throws when in trouble, so the hot
    // path has no check of its own.
    private DataInput primitives;
    private FailedInput failed;
    // Runs of primitive fields (claimPrimitives, intAt, ...) go to `runs`: the block stream while all
    // is well, else null: then claimPrimitives checks the state and the values are read one by one.
    private BlockInputStream runs;

    private Class<?> lastKnownType;
    private SerialClass lastKnown;
    // One-entry cache of the last plain class read as a new object with a type id: its reference
    // header, serial class and codec (the type was defined and approved on this stream).
    // Integer.MIN_VALUE, no header at all: nothing cached yet. (It was NULL, which beginPlain, which
    // does not test NULL first, took for the cached class: a self-typed null field of a hook class
    // read before any plain class was cached failed with a NullPointerException.)
    private int plainHeader = Integer.MIN_VALUE;
    private SerialClass plainSerial;
    private int pendingHeader; // the header beginPlain read and did not take
    private ObjectCodec plainCodec;
    private ObjectInputView view;
    private final byte[] bytes = new byte[CHUNK];
    private final char[] chars = new char[CHUNK];

    IbisSerializationInput(DataInput in, Properties properties, ObjectInputFilter filter, boolean filterClasses) {
        this.in = Objects.requireNonNull(in, "in");
        this.blocks = in instanceof BlockInputStream b ? b : null;
        this.primitives = in;
        this.runs = blocks;
        this.arrays = new PrimitiveArrayReader(in, blocks);
        this.filter = filter;
        this.filterClasses = filterClasses && filter != null;
        this.maxString = IoProperties.stringMax(properties);
        this.maxArray = IoProperties.objectArrayMax(properties);
        this.maxDepth = IoProperties.objectDepthMax(properties);
        this.plainDepthLimit = Math.min(DEFER_DEPTH, maxDepth);
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        this.loader = l != null ? l : IbisSerializationInput.class.getClassLoader();
    }

    @Override
    public String serializationName() {
        return "ibis";
    }

    // ---- state and errors

    private void setTrouble(boolean t) {
        trouble = t;
        if (t && failed == null) {
            failed = new FailedInput();
        }
        primitives = t ? failed : in;
        runs = t ? null : blocks;
    }

    private void checkUsable() throws IOException {
        if (broken != null) {
            throw new IOException("ibis serialization stream is unusable after an earlier error: " + broken, broken);
        }
        if (abandoned != null) {
            throw new IOException(
                    "ibis serialization: the rest of this message cannot be read after " + abandoned, abandoned);
        }
    }

    private String where() {
        return blocks != null ? "stream offset " + blocks.streamOffset() : "payload offset " + in.bytesRead();
    }

    /** A StreamCorruptedException saying what was expected, what was found, and where. */
    StreamCorruptedException corrupt(String expected, Object found) {
        return new StreamCorruptedException(
                "ibis serialization: expected " + expected + " but found " + found + " at " + where());
    }

    private InvalidClassException invalidClass(String name, String reason) {
        return new InvalidClassException(name, reason + " (at " + where() + ")");
    }

    private void resetGraphState() {
        for (int i = 0; i < deferredCount; i++) {
            deferred[i] = null;
            deferredClasses[i] = null;
        }
        deferredCount = 0;
        firstPending = 0;
        depth = 0;
        expectRegistration = false;
        validations = null;
        if (view != null) {
            view.clearContext();
        }
    }

    /** Turns a failure of a top-level read into what the caller sees, and records its effect on the stream. */
    private Exception failure(Throwable t, long start) {
        resetGraphState();
        if (t instanceof EndOfMessageException && in.bytesRead() == start) {
            return (EndOfMessageException) t; // read past the end of the message: harmless
        }
        if (t instanceof ClassNotFoundException e) {
            abandoned = e;
            setTrouble(true);
            return e;
        }
        IOException e;
        if (t instanceof EOFException eof && !(t instanceof EndOfMessageException)) {
            e = eof; // the connection ended
        } else if (t instanceof EndOfMessageException) {
            e = corrupt("the rest of an object", "the end of the message");
            e.initCause(t);
        } else if (t instanceof IOException io) {
            e = io;
        } else if (t instanceof StackOverflowError) {
            e = corrupt("an object graph of limited nesting", "a graph too deep for the stack");
            e.initCause(t);
        } else {
            e = new StreamCorruptedException("ibis serialization: malformed object at " + where() + ": " + t);
            e.initCause(t);
        }
        broken = e;
        setTrouble(true);
        return e;
    }

    private static void rethrow(Exception e) throws IOException, ClassNotFoundException {
        if (e instanceof IOException io) {
            throw io;
        }
        throw (ClassNotFoundException) e;
    }

    // ---- objects

    /** Reads an object graph written by {@code writeObject} (or a primitive array written by {@code writeArray}). */
    @Override
    public Object readObject() throws IOException, ClassNotFoundException {
        if (depth > 0) {
            // A field of an object being read. Kept small so that the JIT inlines it into the
            // reading code, with null (half the references of a tree or list) read right there at
            // no call. Measured on the 1023-node tree (JMH forks, which differ in the order the JIT
            // compiled the methods of the recursion in): 11.2 to 16.2 µs per tree, most forks
            // 11.2 to 11.8; with null read one call deeper, 14.7 to 16.6.
            int h = in.readInt();
            if (h == NULL) {
                return null;
            }
            return readReference(h);
        }
        return readTopObject();
    }

    /**
     * For rewritten and generated code, a reference field declared as {@code type}, the class of
     * the code itself: reads the header and returns {@code true} when it announces a new object of
     * exactly {@code type} that is to be read now; the caller then reads it with its own code (a
     * reading constructor, or allocation, {@link #registerObject} and the generated field code)
     * and calls {@link #endPlain()}. Otherwise returns {@code false} and the caller takes the
     * reference from {@link #readAfterHeader()}. (Code of a class runs only when the stream uses
     * it for that class, so the caller's code is the right one for {@code type}.)
     */
    public boolean beginPlain(Class<?> type) throws IOException {
        return beginPlain(in.readInt(), type);
    }

    /**
     * {@link #beginPlain(Class)} for a header claimed with the run before it
     * ({@link #claimWithHeader}): {@code p} is the run's offset plus its length.
     */
    public boolean beginPlainAt(int p, Class<?> type) throws IOException {
        return beginPlain(intAt(p), type);
    }

    private boolean beginPlain(int h, Class<?> type) {
        if (h == plainHeader && depth > 0 && depth < plainDepthLimit && plainSerial.type == type) {
            depth++;
            expectRegistration = true;
            return true;
        }
        pendingHeader = h;
        return false;
    }

    /** Ends an object read after {@link #beginPlain} returned {@code true}. */
    public void endPlain() throws IOException {
        depth--;
        if (expectRegistration) {
            expectRegistration = false;
            throw invalidClass(plainSerial.name, "its reading code did not call registerObject");
        }
    }

    /** The reference whose header {@link #beginPlain} read and did not take. */
    public Object readAfterHeader() throws IOException, ClassNotFoundException {
        int h = pendingHeader;
        if (h == NULL) {
            return null;
        }
        if (depth == 0) {
            throw corrupt("a reference", "a field read outside an object");
        }
        return readReference(h);
    }

    /** readObject of the application (a barrier: the graph is complete on return). */
    private Object readTopObject() throws IOException, ClassNotFoundException {
        if (trouble) {
            checkUsable();
        }
        long start = in.bytesRead();
        try {
            startBlock();
            Object result = readReference();
            drain(0);
            runValidations();
            return result;
        } catch (Throwable t) {
            if (t instanceof Error && !(t instanceof StackOverflowError)) {
                resetGraphState();
                throw (Error) t;
            }
            rethrow(failure(t, start));
            return null;
        }
    }

    /**
     * Reads a reference of a field whose declared type is the known type {@code type} (written by
     * {@link IbisSerializationOutput#writeKnownObject}). Called by rewritten and generated code only.
     */
    public Object readKnownObject(Class<?> type) throws IOException, ClassNotFoundException {
        if (depth > 0) {
            return readKnown(type);
        }
        return readTopKnownObject(type);
    }

    private Object readTopKnownObject(Class<?> type) throws IOException, ClassNotFoundException {
        if (trouble) {
            checkUsable();
        }
        long start = in.bytesRead();
        try {
            startBlock();
            Object result = readKnown(type);
            drain(0);
            runValidations();
            return result;
        } catch (Throwable t) {
            if (t instanceof Error && !(t instanceof StackOverflowError)) {
                resetGraphState();
                throw (Error) t;
            }
            rethrow(failure(t, start));
            return null;
        }
    }

    /**
     * Reads the next block header now when the current block is exhausted (at the start of a
     * message, typically), so that the primitive reads of the graph find their bytes in the
     * current block: their slow path then stays cold and the JIT keeps them small enough to inline.
     */
    private void startBlock() throws IOException {
        if (blocks != null) {
            blocks.hasRemaining();
        }
    }

    /**
     * Gives a new object its handle before its fields are read, so references back to it (cycles)
     * resolve. A rewritten reading constructor of the topmost serializable class calls this right
     * after its superclass's no-arg constructor; the stream's own readers call it too. Exactly one
     * call per new object.
     */
    public void registerObject(Object obj) throws IOException {
        if (!expectRegistration) {
            throw new InvalidObjectException(
                    "ibis serialization: registerObject called when no new object is being read"
                    + (obj == null ? "" : " (" + obj.getClass().getName() + ")"));
        }
        expectRegistration = false;
        addHandle(obj);
    }

    /** The handle number given to the object registered last. */
    int lastHandle() {
        return handleCount;
    }

    /** Replaces a handle's object (readResolve, or a record created after its fields). */
    void setHandle(int handle, Object obj) {
        handles[handle] = obj;
    }

    private int addHandle(Object obj) {
        int h = ++handleCount;
        if (h == handles.length) {
            handles = Arrays.copyOf(handles, handles == baseHandles ? 16 * BASE_HANDLES : 2 * h);
        }
        handles[h] = obj;
        return h;
    }

    private void clearHandles() {
        Arrays.fill(baseHandles, 1, Math.min(handleCount + 1, BASE_HANDLES), null);
        handles = baseHandles; // a message's own larger table is dropped
        handleCount = 0;
    }

    /** A reference read from an readObject/readExternal hook: a barrier (the graph is complete on return). */
    Object readObjectFromHook() throws IOException, ClassNotFoundException {
        int mark = deferredCount;
        Object result = readReference();
        drain(mark);
        return result;
    }

    /** Reads the next header, applying RESET markers and type definitions on the way. */
    private int readHeader() throws IOException, ClassNotFoundException {
        for (;;) {
            int h = in.readInt();
            if (h == RESET) {
                if (depth != 0 || deferredCount != 0) {
                    throw corrupt("a reference header", "a reset marker inside an object");
                }
                clearHandles();
            } else if (h == TYPE_DEFINITION) {
                readTypeDefinition();
            } else {
                return h;
            }
        }
    }

    private Object readReference() throws IOException, ClassNotFoundException {
        int h = in.readInt();
        if (h == NULL) {
            return null;
        }
        return readReference(h);
    }

    /** Reads a reference whose header {@code h} (not null) has been read. */
    private Object readReference(int h) throws IOException, ClassNotFoundException {
        // Kept small so that it inlines into reading constructors: the common header first.
        if (h == plainHeader) {
            return readPlain();
        }
        return readOtherReference(h);
    }

    /** readReference for a header that is neither null nor a new object of the cached plain class. */
    private Object readOtherReference(int h) throws IOException, ClassNotFoundException {
        if (h > 0) {
            return handle(h);
        }
        if (h == RESET || h == TYPE_DEFINITION) {
            return fromHeader(readHeaderAfter(h));
        }
        return fromHeader(h);
    }

    /** readHeader when the first int {@code h} has been read already. */
    private int readHeaderAfter(int h) throws IOException, ClassNotFoundException {
        if (h == RESET) {
            if (depth != 0 || deferredCount != 0) {
                throw corrupt("a reference header", "a reset marker inside an object");
            }
            clearHandles();
        } else if (h == TYPE_DEFINITION) {
            readTypeDefinition();
        } else {
            return h;
        }
        return readHeader();
    }

    /** A new object of the cached plain class: read now, or allocated and deferred when deep. */
    private Object readPlain() throws IOException, ClassNotFoundException {
        if (depth >= plainDepthLimit) {
            return readPlainDeep(plainSerial, plainCodec);
        }
        depth++;
        return readNewEntered(plainSerial, plainCodec);
    }

    /** readPlain at or below the deferral depth or the depth limit. */
    private Object readPlainDeep(SerialClass sc, ObjectCodec codec) throws IOException, ClassNotFoundException {
        if (depth >= DEFER_DEPTH) {
            Object obj = codec.allocate();
            addHandle(obj);
            defer(obj, sc);
            return obj;
        }
        throw invalidClass(sc.name,
                "object graph nested deeper than " + IoProperties.OBJECT_DEPTH_MAX + " (" + maxDepth + ")");
    }

    /** Runs the reading code of a new object one level deeper (depth already raised; lowered here). */
    private Object readNewEntered(SerialClass sc, ObjectCodec codec) throws IOException, ClassNotFoundException {
        try {
            expectRegistration = true;
            Object obj = codec.readNew(this);
            if (expectRegistration) {
                expectRegistration = false;
                throw invalidClass(sc.name, "its reading code did not call registerObject");
            }
            return obj;
        } finally {
            depth--;
        }
    }

    private Object fromHeader(int h) throws IOException, ClassNotFoundException {
        if (h > 0) {
            return handle(h);
        }
        if (h == NULL) {
            return null;
        }
        if (h == KNOWN) {
            throw corrupt("a reference with a type", "the known-type marker");
        }
        int t = TYPE_BASE - h;
        SerialClass sc = type(t);
        if (sc.kind == SerialClass.ENUM) {
            return readEnum(t, sc);
        }
        if (sc.kind == SerialClass.PLAIN) {
            ObjectCodec codec = sc.codec();
            plainSerial = sc;
            plainCodec = codec;
            plainHeader = h;
            return readPlain();
        }
        return readNew(sc);
    }

    private Object handle(int h) throws StreamCorruptedException {
        if (h > handleCount) {
            throw corrupt("a handle in [1, " + handleCount + "]", "handle " + h);
        }
        return handles[h];
    }

    private Object readKnown(Class<?> type) throws IOException, ClassNotFoundException {
        int h = readHeader();
        if (h > 0) {
            return handle(h);
        }
        if (h == NULL) {
            return null;
        }
        if (h != KNOWN) {
            throw corrupt("null, a handle or the known-type marker for a " + type.getName(), "header " + h);
        }
        SerialClass sc;
        if (type == lastKnownType) {
            sc = lastKnown;
        } else {
            sc = SerialClass.of(type);
            approve(sc);
            lastKnownType = type;
            lastKnown = sc;
        }
        if (sc.kind == SerialClass.NOT_SERIALIZABLE) {
            throw invalidClass(sc.name, "not serializable");
        }
        return readNew(sc);
    }

    /** The class of type id {@code t} as defined on this stream. */
    private SerialClass type(int t) throws IOException, ClassNotFoundException {
        if (t < SerialClass.predefinedCount()) {
            SerialClass sc = SerialClass.predefined(t);
            if (sc.kind >= SerialClass.BOOLEAN && sc.kind <= SerialClass.DOUBLE || sc.kind == SerialClass.CLASS) {
                approve(sc); // boxed values and Class objects pass the filter once per stream; arrays per array
            }
            return sc;
        }
        SerialClass sc = types.get(t);
        if (sc == null) {
            String missing = types.missing(t);
            if (missing != null) {
                throw new ClassNotFoundException(missing);
            }
            throw corrupt("a type id defined on this stream", "type id " + t
                    + " (never defined, or defined in a message whose objects were not read)");
        }
        return sc;
    }

    /** Asks the filter about a class once per stream. */
    private void approve(SerialClass sc) throws InvalidClassException {
        int i = sc.index;
        if (i < approved.length && approved[i]) {
            return;
        }
        filterCheck(sc.type, -1);
        if (i >= approved.length) {
            approved = Arrays.copyOf(approved, Math.max(2 * approved.length, i + 1));
        }
        approved[i] = true;
    }

    private void filterCheck(Class<?> type, long arrayLength) throws InvalidClassException {
        if (!filterClasses) {
            return;
        }
        ObjectInputFilter.Status status;
        try {
            status = filter.checkInput(new FilterInfo(type, arrayLength, depth, handleCount, in.bytesRead()));
        } catch (RuntimeException e) {
            InvalidClassException x = invalidClass(type == null ? null : type.getName(), "filter failed: " + e);
            x.initCause(e);
            throw x;
        }
        if (status == ObjectInputFilter.Status.REJECTED) {
            throw invalidClass(type == null ? null : type.getName(), "filter status: REJECTED"
                    + (arrayLength >= 0 ? " (array length " + arrayLength + ")" : ""));
        }
    }

    private void readTypeDefinition() throws IOException, ClassNotFoundException {
        int id = in.readInt();
        if (id < SerialClass.FIRST_USER_TYPE || id >= MAX_TYPES) {
            throw corrupt("a type id in [" + SerialClass.FIRST_USER_TYPE + ", " + MAX_TYPES + ")", "type id " + id);
        }
        String name = readStringBody(MAX_NAME);
        if (name == null || name.isEmpty()) {
            throw corrupt("a class name", name == null ? "null" : "an empty name");
        }
        long fingerprint = in.readLong();
        byte flags = in.readByte();
        String[] names = null;
        if (flags == 1) {
            int n = in.readInt();
            if (n < 0 || n > MAX_TYPES) {
                throw corrupt("an enum constant count in [0, " + MAX_TYPES + "]", n);
            }
            List<String> list = new ArrayList<>(Math.min(n, 64));
            for (int i = 0; i < n; i++) {
                String constant = readStringBody(MAX_NAME);
                if (constant == null) {
                    throw corrupt("an enum constant name", "null");
                }
                list.add(constant);
            }
            names = list.toArray(new String[0]);
        } else if (flags != 0) {
            throw corrupt("type definition flags 0 or 1", flags);
        }
        SerialClass known = types.get(id);
        if (known != null) {
            if (!known.name.equals(name) || known.fingerprint != fingerprint) {
                throw corrupt("the same definition of type id " + id + " (" + known.name + ")", name);
            }
            return;
        }
        Class<?> c;
        try {
            c = Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            types.markMissing(id, name);
            throw e;
        } catch (LinkageError e) {
            InvalidClassException x = invalidClass(name, "cannot load: " + e);
            x.initCause(e);
            throw x;
        }
        filterCheck(c, -1);
        SerialClass sc = SerialClass.of(c);
        if (sc.kind == SerialClass.NOT_SERIALIZABLE) {
            throw invalidClass(name, "not serializable" + (sc.problem.equals(name) ? "" : ": " + sc.problem));
        }
        if (sc.predefinedId >= 0) {
            throw corrupt("a class without a predefined id", name);
        }
        if (sc.type != c) {
            throw corrupt("a class name", name + " (an enum constant's body class)");
        }
        if (sc.fingerprint != fingerprint) {
            throw invalidClass(name,
                    "local class incompatible: serialized layout fingerprint " + Long.toHexString(fingerprint)
                    + ", local " + Long.toHexString(sc.fingerprint));
        }
        if ((sc.kind == SerialClass.ENUM) != (names != null)) {
            throw invalidClass(name, "local class incompatible: enum on one side only");
        }
        types.define(id, sc, names);
    }

    private Object readEnum(int t, SerialClass sc) throws IOException {
        int ordinal = in.readInt();
        Object[] map = types.enumMap(t);
        if (ordinal < 0 || ordinal >= map.length) {
            throw corrupt("an ordinal of " + sc.name + " in [0, " + map.length + ")", ordinal);
        }
        Object constant = map[ordinal];
        if (constant == null) {
            throw new InvalidObjectException("ibis serialization: enum constant #" + ordinal + " of " + sc.name
                    + " does not exist in the local class");
        }
        return constant;
    }

    /** Reads the contents of a new object of class {@code sc} (its header has been read). */
    private Object readNew(SerialClass sc) throws IOException, ClassNotFoundException {
        switch (sc.kind) {
            case SerialClass.STRING:
                return readStringBody(maxString);
            case SerialClass.BOOLEAN:
                return in.readBoolean();
            case SerialClass.BYTE:
                return in.readByte();
            case SerialClass.CHAR:
                return in.readChar();
            case SerialClass.SHORT:
                return in.readShort();
            case SerialClass.INT:
                return in.readInt();
            case SerialClass.LONG:
                return in.readLong();
            case SerialClass.FLOAT:
                return in.readFloat();
            case SerialClass.DOUBLE:
                return in.readDouble();
            case SerialClass.CLASS:
                return readClassValue();
            case SerialClass.BOOLEAN_ARRAY:
            case SerialClass.BYTE_ARRAY:
            case SerialClass.CHAR_ARRAY:
            case SerialClass.SHORT_ARRAY:
            case SerialClass.INT_ARRAY:
            case SerialClass.LONG_ARRAY:
            case SerialClass.FLOAT_ARRAY:
            case SerialClass.DOUBLE_ARRAY: {
                int n = arrayLength(sc, 1);
                int slot = addHandle(null);
                Object array = arrays.read(sc.kind, n);
                handles[slot] = array;
                return array;
            }
            case SerialClass.REFERENCE_ARRAY:
                return readReferenceArray(sc);
            case SerialClass.ENUM:
                throw corrupt("a type with contents", "enum " + sc.name + " without its type id");
            default:
                return readObjectContents(sc);
        }
    }

    private Object readObjectContents(SerialClass sc) throws IOException, ClassNotFoundException {
        ObjectCodec codec = sc.codec();
        if (sc.deferrable && depth >= DEFER_DEPTH) {
            Object obj = codec.allocate();
            addHandle(obj);
            defer(obj, sc);
            return obj;
        }
        enter(sc);
        return readNewEntered(sc, codec);
    }

    private void enter(SerialClass sc) throws InvalidClassException {
        if (++depth > maxDepth) {
            depth--;
            throw invalidClass(sc.name,
                    "object graph nested deeper than " + IoProperties.OBJECT_DEPTH_MAX + " (" + maxDepth + ")");
        }
    }

    /**
     * Reads and checks an array length; {@code minElementBytes} bounds it by what is left of the
     * message when that is known.
     */
    private int arrayLength(SerialClass sc, int minElementBytes) throws IOException {
        return checkedArrayLength(sc, in.readInt(), minElementBytes);
    }

    /** An array length read from the stream, checked before an array of it is made. */
    private int checkedArrayLength(SerialClass sc, int n, int minElementBytes) throws IOException {
        if (n < 0 || n > maxArray) {
            throw corrupt("an array length in [0, " + maxArray + "] (" + IoProperties.OBJECT_ARRAY_MAX + ")",
                    n + " for a " + sc.type.getTypeName());
        }
        if (blocks != null) {
            long left = blocks.knownRemaining();
            if (left >= 0 && (long) n * minElementBytes > left) {
                throw corrupt("an array that fits in the rest of the message (" + left + " bytes)",
                        "length " + n + " for a " + sc.type.getTypeName());
            }
        }
        filterCheck(sc.type, n);
        return n;
    }

    private Object readReferenceArray(SerialClass sc) throws IOException, ClassNotFoundException {
        int n = arrayLength(sc, 4);
        Class<?> component = sc.componentType();
        Object[] array = component == Object.class ? new Object[n] : (Object[]) Array.newInstance(component, n);
        addHandle(array);
        if (depth >= DEFER_DEPTH) {
            defer(array, sc);
            return array;
        }
        enter(sc);
        try {
            readElements(array);
        } finally {
            depth--;
        }
        return array;
    }

    private void readElements(Object[] array) throws IOException, ClassNotFoundException {
        for (int i = 0; i < array.length; i++) {
            array[i] = readReference(); // ArrayStoreException for a wrong type: corrupt stream
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

    int deferMark() {
        return deferredCount;
    }

    /**
     * Ends a barrier: fills the objects deferred since {@code mark}, first in first out (entries an
     * inner {@link #drainAll()} filled already are skipped).
     */
    void drain(int mark) throws IOException, ClassNotFoundException {
        for (int i = mark; i < deferredCount; i++) {
            fillDeferred(i);
        }
        deferredCount = mark;
        firstPending = Math.min(firstPending, mark);
    }

    /**
     * Before the contents of an object whose code will look at the objects it references (hooks,
     * records, Externalizable): fills every deferred object still pending, of every barrier, first
     * in first out, as the writer wrote them at the same point.
     */
    void drainAll() throws IOException, ClassNotFoundException {
        for (int i = firstPending; i < deferredCount; i++) {
            firstPending = i + 1; // (a nested drainAll starts after this entry, which fillDeferred empties)
            fillDeferred(i);
        }
        firstPending = deferredCount; // everything below is done
    }

    private void fillDeferred(int i) throws IOException, ClassNotFoundException {
        Object obj = deferred[i];
        if (obj == null) {
            return;
        }
        SerialClass sc = deferredClasses[i];
        deferred[i] = null;
        deferredClasses[i] = null;
        enter(sc);
        try {
            if (sc.kind == SerialClass.REFERENCE_ARRAY) {
                readElements((Object[]) obj);
            } else {
                sc.codec().readContents(obj, this);
            }
        } finally {
            depth--;
        }
    }

    void addValidation(ObjectInputValidation validation, int priority) throws InvalidObjectException {
        if (validation == null) {
            throw new InvalidObjectException("null validation");
        }
        if (validations == null) {
            validations = new ArrayList<>();
        }
        validations.add(new Object[] {validation, priority});
    }

    private void runValidations() throws InvalidObjectException {
        if (validations == null) {
            return;
        }
        List<Object[]> list = validations;
        validations = null;
        list.sort((a, b) -> Integer.compare((Integer) b[1], (Integer) a[1]));
        for (Object[] v : list) {
            ((ObjectInputValidation) v[0]).validateObject();
        }
    }

    private Object readClassValue() throws IOException, ClassNotFoundException {
        String name = readStringBody(MAX_NAME);
        if (name == null) {
            throw corrupt("a class name", "null");
        }
        Class<?> primitive = PRIMITIVE_CLASSES.get(name);
        if (primitive != null) {
            return primitive;
        }
        Class<?> c;
        try {
            c = Class.forName(name, false, loader);
        } catch (LinkageError e) {
            InvalidClassException x = invalidClass(name, "cannot load: " + e);
            x.initCause(e);
            throw x;
        }
        approve(SerialClass.of(c));
        return c;
    }

    /** The ObjectInputStream view passed to readObject hooks and readExternal. */
    ObjectInputView view() throws IOException {
        if (view == null) {
            view = new ObjectInputView(this, filter);
        }
        return view;
    }

    int depth() {
        return depth;
    }

    // ---- strings and primitive arrays, growing as their data arrive

    @Override
    public String readString() throws IOException {
        if (depth > 0) {
            return readStringBody(maxString); // a String field of an object being read
        }
        if (trouble) {
            checkUsable();
        }
        long start = in.bytesRead();
        try {
            return readStringBody(maxString);
        } catch (IOException | RuntimeException e) {
            Exception f = failure(e, start);
            throw f instanceof IOException io ? io : new IOException(f);
        }
    }

    /** A String field read by the stream's own field readers. */
    String readStringField() throws IOException {
        return readStringBody(maxString);
    }

    /** Raw bytes for the hook views (no array header). */
    void readArrayBytes(byte[] b, int off, int len) throws IOException {
        in.readArray(b, off, len);
    }

    /** A string by value: length (-1 = null), coder, bytes or chars. */
    String readStringBody(int max) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < -1 || n > max) {
            throw corrupt("a string length in [-1, " + max + "] (" + IoProperties.STRING_MAX + ")", n);
        }
        if (n == 0) {
            return "";
        }
        byte coder = in.readByte();
        if (coder == IbisSerializationOutput.LATIN1) {
            if (n <= CHUNK) {
                in.readArray(bytes, 0, n);
                return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
            }
            return new String(arrays.readBytes(n), StandardCharsets.ISO_8859_1);
        }
        if (coder == IbisSerializationOutput.UTF16) {
            if (n <= CHUNK) {
                in.readArray(chars, 0, n);
                return new String(chars, 0, n);
            }
            return new String(arrays.readChars(n));
        }
        throw corrupt("a string coder 0 or 1", coder);
    }

    // ---- arrays of the application

    @Override
    public void readArray(Object[] destination, int offset, int length) throws IOException, ClassNotFoundException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        for (int i = offset; i < offset + length; i++) {
            destination[i] = readObject();
        }
    }

    /**
     * Reads the header of an array written by writeArray into a caller's array: returns true when
     * it is a {@code kind} array of exactly {@code length} elements (then its elements come next and
     * it has taken its handle number); otherwise reads whatever object it is and throws an
     * IOException naming it (the stream stays in step).
     */
    private boolean arrayHeader(int kind, int length) throws IOException, ClassNotFoundException {
        if (trouble) {
            checkUsable();
        }
        long start = in.bytesRead();
        String expected = "a " + SerialClass.predefined(kind).type.getComponentType().getName() + "[" + length + "]";
        Object found;
        try {
            int h = readHeader();
            if (h == TYPE_BASE - kind) {
                SerialClass sc = SerialClass.predefined(kind);
                int n = in.readInt();
                if (n == length) {
                    // Read into the caller's array: nothing is made from the stream's length, so
                    // the array limit (ibis.io.object.array.max) does not apply.
                    addHandle(null);
                    return true;
                }
                n = checkedArrayLength(sc, n, 0);
                addHandle(null);
                found = arrays.read(kind, n);
            } else {
                found = fromHeader(h);
                drain(0);
            }
        } catch (Throwable t) {
            if (t instanceof Error && !(t instanceof StackOverflowError)) {
                resetGraphState();
                throw (Error) t;
            }
            rethrow(failure(t, start));
            return false;
        }
        throw new IOException("ibis serialization: expected " + expected + " but read "
                + (found == null ? "null" : "a " + found.getClass().getTypeName()
                        + (found.getClass().isArray() ? " of length " + Array.getLength(found) : "")));
    }

    private IOException elementsFailed(IOException e, long start) {
        Exception f = failure(e, start);
        return f instanceof IOException io ? io : new IOException(f);
    }

    @Override
    public void readArray(boolean[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.BOOLEAN_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(byte[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.BYTE_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(char[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.CHAR_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(short[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.SHORT_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(int[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.INT_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(long[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.LONG_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(float[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.FLOAT_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    @Override
    public void readArray(double[] destination, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, destination.length);
        if (arrayHeaderUnchecked(SerialClass.DOUBLE_ARRAY, length)) {
            long start = in.bytesRead();
            try {
                in.readArray(destination, offset, length);
            } catch (IOException e) {
                throw elementsFailed(e, start - 1);
            }
        }
    }

    /**
     * readArray(primitive[]) declares only IOException: a ClassNotFoundException of a mismatching
     * object becomes one.
     */
    private boolean arrayHeaderUnchecked(int kind, int length) throws IOException {
        try {
            return arrayHeader(kind, length);
        } catch (ClassNotFoundException e) {
            throw new IOException("ibis serialization: expected a primitive array but read an object of unknown class "
                    + e.getMessage(), e);
        }
    }

    // ---- message and stream

    @Override
    public IOException failure() {
        return broken;
    }

    /**
     * Ends the message: object identities end here (as on the writer); a ClassNotFoundException of
     * this message stops mattering. Type definitions stay.
     */
    @Override
    public void endMessage() {
        resetGraphState();
        clearHandles();
        abandoned = null;
        setTrouble(broken != null);
    }

    // ---- runs of primitive fields (rewritten and generated reading code; see io/README.md)

    /**
     * Starts reading a run of primitive fields of {@code n} bytes in all (at most
     * {@link BlockInputStream#RUN_MAX}): returns the offset {@code p} to pass to {@link #intAt}
     * and its siblings, each value at {@code p} plus the sizes of the values before it. The values
     * must then be read in order, each once, before anything else is read. The bytes are those of
     * the same values written one by one.
     */
    public int claimPrimitives(int n) throws IOException {
        BlockInputStream b = runs;
        if (b != null) {
            return b.claim(n);
        }
        if (trouble) {
            checkUsable();
        }
        return 0; // not a block stream: the values are read one by one
    }

    /**
     * {@link #claimPrimitives} of a run of {@code n} bytes (at most {@link BlockInputStream#RUN_MAX})
     * and the 4-byte header of the field declared as the reading class itself that follows it: the
     * fields are read with {@link #intAt} and its siblings, then the header with
     * {@link #beginPlainAt}{@code (p + n, C.class)}. The bytes are the same as those of the run
     * followed by {@link #beginPlain(Class)}, whether or not the writer folded the header into its
     * reservation.
     */
    public int claimWithHeader(int n) throws IOException {
        return claimPrimitives(n + 4); // not a block stream: 0, the values and the header are read one by one
    }

    /** A boolean of a claimed run. */
    public boolean booleanAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.booleanAt(p) : primitives.readBoolean();
    }

    /** A byte of a claimed run. */
    public byte byteAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.byteAt(p) : primitives.readByte();
    }

    /** A char of a claimed run. */
    public char charAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.charAt(p) : primitives.readChar();
    }

    /** A short of a claimed run. */
    public short shortAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.shortAt(p) : primitives.readShort();
    }

    /** An int of a claimed run. */
    public int intAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.intAt(p) : primitives.readInt();
    }

    /** A long of a claimed run. */
    public long longAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.longAt(p) : primitives.readLong();
    }

    /** A float of a claimed run. */
    public float floatAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.floatAt(p) : primitives.readFloat();
    }

    /** A double of a claimed run. */
    public double doubleAt(int p) throws IOException {
        BlockInputStream b = runs;
        return b != null ? b.doubleAt(p) : primitives.readDouble();
    }

    @Override
    public boolean readBoolean() throws IOException {
        return primitives.readBoolean();
    }

    @Override
    public byte readByte() throws IOException {
        return primitives.readByte();
    }

    @Override
    public char readChar() throws IOException {
        return primitives.readChar();
    }

    @Override
    public short readShort() throws IOException {
        return primitives.readShort();
    }

    @Override
    public int readInt() throws IOException {
        return primitives.readInt();
    }

    @Override
    public long readLong() throws IOException {
        return primitives.readLong();
    }

    @Override
    public float readFloat() throws IOException {
        return primitives.readFloat();
    }

    @Override
    public double readDouble() throws IOException {
        return primitives.readDouble();
    }

    @Override
    public void readByteBuffer(ByteBuffer value) throws IOException {
        if (trouble) {
            checkUsable();
        }
        in.readByteBuffer(value);
    }

    @Override public long bytesRead() { return in.bytesRead(); }
    @Override public void resetBytesRead() { in.resetBytesRead(); }
    @Override public void close() throws IOException { in.close(); }

    /** The primitive reads of an input in trouble: each throws what {@link #checkUsable} throws. */
    private final class FailedInput implements DataInput {
        private <T> T fail() throws IOException {
            checkUsable();
            throw new IllegalStateException("input not in trouble"); // setTrouble keeps them in step
        }

        @Override public boolean readBoolean() throws IOException { return fail(); }
        @Override public byte readByte() throws IOException { return fail(); }
        @Override public char readChar() throws IOException { return fail(); }
        @Override public short readShort() throws IOException { return fail(); }
        @Override public int readInt() throws IOException { return fail(); }
        @Override public long readLong() throws IOException { return fail(); }
        @Override public float readFloat() throws IOException { return fail(); }
        @Override public double readDouble() throws IOException { return fail(); }
        @Override public void readArray(boolean[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(byte[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(char[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(short[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(int[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(long[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(float[] d, int o, int l) throws IOException { fail(); }
        @Override public void readArray(double[] d, int o, int l) throws IOException { fail(); }
        @Override public void readByteBuffer(ByteBuffer value) throws IOException { fail(); }
        @Override public long bytesRead() { return in.bytesRead(); }
        @Override public void resetBytesRead() { in.resetBytesRead(); }
        @Override public void close() throws IOException { in.close(); }
    }

    /** What the class filter is asked. */
    private record FilterInfo(Class<?> serialClass, long arrayLength, long depth, long references, long streamBytes)
            implements ObjectInputFilter.FilterInfo {
    }
}
