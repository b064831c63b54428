package ibis.io;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * Driver for classes with JDK hooks, and for classes whose fields only the JDK can reach (JDK
 * 22+, closed packages): per level, the hook with the ObjectOutputStream/ObjectInputStream
 * views, or the level's default fields.
 */
final class HookCodec extends ObjectCodec {
    private final SerialClass sc;
    private final FieldCodec fields;          // generated code for the levels it covers
    private final boolean[] covered;
    private final MethodHandle[] jdkWrite;   // (Object, ObjectOutputStream) void for uncovered levels
    private final MethodHandle[] jdkRead;
    /** Uncovered levels whose serial fields are no fields of the class: read and dropped. */
    private final boolean[] virtualOnly;
    private final MethodHandle allocator;

    HookCodec(SerialClass sc, FieldCodec fields, MethodHandle[][] getters, MethodHandle allocator) {
        this.sc = sc;
        this.fields = fields;
        this.allocator = allocator;
        int n = sc.levels.length;
        covered = new boolean[n];
        jdkWrite = new MethodHandle[n];
        jdkRead = new MethodHandle[n];
        virtualOnly = new boolean[n];
        for (int i = 0; i < n; i++) {
            covered[i] = getters[i] != null;
            if (!covered[i]) {
                Class<?> t = sc.levels[i].type;
                MethodHandle w = JdkAccess.defaultWriteObject(t);
                MethodHandle r = JdkAccess.defaultReadObject(t);
                jdkWrite[i] = w == null ? null
                        : w.asType(MethodType.methodType(void.class, Object.class, ObjectOutputStream.class));
                jdkRead[i] = r == null ? null
                        : r.asType(MethodType.methodType(void.class, Object.class, ObjectInputStream.class));
                virtualOnly[i] = onlyVirtualFields(sc.levels[i]);
            }
        }
    }

    SerialClass.Level level(int i) {
        return sc.levels[i];
    }

    @Override
    void writeContents(Object obj, IbisSerializationOutput out) throws IOException {
        out.drainAll(); // the hooks see complete objects (io/README.md, "Deferred contents")
        int mark = out.deferMark();
        SerialClass.Level[] levels = sc.levels;
        for (int i = 0; i < levels.length; i++) {
            MethodHandle hook = levels[i].writeObject;
            if (hook != null) {
                ObjectOutputView view = out.view();
                Object[] saved = view.enter(obj, this, i);
                try {
                    Codecs.invokeHook(hook, obj, view);
                } catch (ClassNotFoundException e) {
                    throw new IOException(e);
                } finally {
                    view.leave(saved);
                }
            } else {
                writeDefault(i, obj, out);
            }
        }
        if (sc.kind == SerialClass.HOOKED) {
            out.drain(mark);
        }
    }

    /** Writes level i's serial fields (defaultWriteObject). */
    void writeDefault(int i, Object obj, IbisSerializationOutput out) throws IOException {
        if (covered[i]) {
            fields.writeLevel(i, obj, out);
            return;
        }
        if (jdkWrite[i] == null) {
            throw new InvalidClassException(sc.levels[i].type.getName(), "cannot reach its serial fields");
        }
        ObjectOutputView view = out.view();
        Object[] saved = view.enterInternal(obj, this, i);
        try {
            Codecs.invokeHook(jdkWrite[i], obj, view);
        } catch (ClassNotFoundException e) {
            throw new IOException(e);
        } finally {
            view.leave(saved);
        }
    }

    /** Whether none of the level's serial fields is a field the class declares (nothing to set). */
    private static boolean onlyVirtualFields(SerialClass.Level level) {
        for (String name : level.names) {
            for (java.lang.reflect.Field f : level.type.getDeclaredFields()) {
                if (f.getName().equals(name)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Reads level i's serial fields into obj (defaultReadObject). */
    void readDefault(int i, Object obj, IbisSerializationInput in) throws IOException, ClassNotFoundException {
        if (covered[i]) {
            fields.readLevel(i, obj, in);
            return;
        }
        if (jdkRead[i] == null) {
            if (virtualOnly[i]) {
                // serialPersistentFields that are no fields of the class (ConcurrentHashMap's
                // segments, kept for the old format): the JDK reads and drops them; so do we.
                new ObjectInputView.GetFieldImpl(sc.levels[i]).readFrom(in);
                return;
            }
            throw new InvalidClassException(sc.levels[i].type.getName(), "cannot reach its serial fields");
        }
        ObjectInputView view = in.view();
        Object[] saved = view.enterInternal(obj, this, i);
        try {
            Codecs.invokeHook(jdkRead[i], obj, view);
        } finally {
            view.leave(saved);
        }
    }

    @Override
    Object allocate() throws IOException {
        return Codecs.invokeAllocator(allocator);
    }

    @Override
    void readContents(Object obj, IbisSerializationInput in) throws IOException, ClassNotFoundException {
        in.drainAll(); // as the writer's writeContents: the hooks see complete objects
        SerialClass.Level[] levels = sc.levels;
        for (int i = 0; i < levels.length; i++) {
            MethodHandle hook = levels[i].readObject;
            if (hook != null) {
                ObjectInputView view = in.view();
                Object[] saved = view.enter(obj, this, i);
                try {
                    Codecs.invokeHook(hook, obj, view);
                } finally {
                    view.leave(saved);
                }
            } else {
                readDefault(i, obj, in);
            }
        }
    }

    @Override
    Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException {
        Object obj = allocate();
        in.registerObject(obj);
        int handle = in.lastHandle();
        int mark = in.deferMark();
        readContents(obj, in);
        if (sc.kind == SerialClass.HOOKED) {
            in.drain(mark);
        }
        return Codecs.resolve(sc, obj, in, handle);
    }
}
