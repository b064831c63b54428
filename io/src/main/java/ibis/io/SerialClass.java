package ibis.io;

import java.io.Externalizable;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the ibis serialization knows about one class: its kind, the serializable class levels with
 * their serial fields in canonical order, the JDK hooks, the layout fingerprint, and (built on
 * first use) the {@link ObjectCodec} that writes and reads its objects. One per class, found once
 * through a {@link ClassValue} and cached for the life of the class.
 */
final class SerialClass {

    // Kinds. 0..18 are also the predefined type ids (io/README.md, "Type ids").
    static final int STRING = 0;
    static final int BOOLEAN = 1;
    static final int BYTE = 2;
    static final int CHAR = 3;
    static final int SHORT = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int BOOLEAN_ARRAY = 9;
    static final int BYTE_ARRAY = 10;
    static final int CHAR_ARRAY = 11;
    static final int SHORT_ARRAY = 12;
    static final int INT_ARRAY = 13;
    static final int LONG_ARRAY = 14;
    static final int FLOAT_ARRAY = 15;
    static final int DOUBLE_ARRAY = 16;
    static final int REFERENCE_ARRAY = 17;
    static final int CLASS = 18;
    static final int ENUM = 19;
    static final int PLAIN = 20;
    static final int HOOKED = 21;
    static final int EXTERNALIZABLE = 22;
    static final int RECORD = 23;
    static final int NOT_SERIALIZABLE = 24;

    /** The first type id the writer assigns to a class of its own. */
    static final int FIRST_USER_TYPE = 32;

    // How a serial field is encoded.
    static final byte F_BOOLEAN = 0;
    static final byte F_BYTE = 1;
    static final byte F_CHAR = 2;
    static final byte F_SHORT = 3;
    static final byte F_INT = 4;
    static final byte F_LONG = 5;
    static final byte F_FLOAT = 6;
    static final byte F_DOUBLE = 7;
    static final byte F_STRING = 8;
    static final byte F_KNOWN = 9;
    static final byte F_OBJECT = 10;

    private static final Class<?>[] PREDEFINED = {
        String.class, Boolean.class, Byte.class, Character.class, Short.class, Integer.class, Long.class,
        Float.class, Double.class, boolean[].class, byte[].class, char[].class, short[].class, int[].class,
        long[].class, float[].class, double[].class, Object[].class, Class.class,
    };

    private static final AtomicInteger INDICES = new AtomicInteger();

    private static final ClassValue<SerialClass> CACHE = new ClassValue<>() {
        @Override
        protected SerialClass computeValue(Class<?> type) {
            if (Enum.class.isAssignableFrom(type) && !type.isEnum() && type != Enum.class) {
                return of(type.getSuperclass()); // an enum constant with a body: its enum's class
            }
            return new SerialClass(type);
        }
    };

    private static final ClassValue<Boolean> KNOWN = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return computeKnown(type);
        }
    };

    /** The serial class of {@code type}. */
    static SerialClass of(Class<?> type) {
        return CACHE.get(type);
    }

    /** The predefined serial class of type id {@code id} (0..18). */
    static SerialClass predefined(int id) {
        return of(PREDEFINED[id]);
    }

    static int predefinedCount() {
        return PREDEFINED.length;
    }

    /**
     * Whether a field declared with type {@code type} is written without a type id (io/README.md,
     * "Known type"): a primitive array, or a final non-enum class other than String without a
     * writeReplace method.
     */
    static boolean isKnownType(Class<?> type) {
        return KNOWN.get(type);
    }

    private static boolean computeKnown(Class<?> d) {
        if (d.isArray()) {
            return d.getComponentType().isPrimitive();
        }
        if (d.isPrimitive() || d.isInterface() || d == String.class || d.isEnum()
                || !Modifier.isFinal(d.getModifiers())) {
            return false;
        }
        return JdkAccess.writeReplace(d) == null;
    }

    /** One serializable class of an object's class chain, with its serial fields. */
    static final class Level {
        final Class<?> type;
        final String[] names;
        final Class<?>[] types;
        final byte[] encodings;
        final MethodHandle writeObject; // (Object, ObjectOutputStream) void, or null
        final MethodHandle readObject;  // (Object, ObjectInputStream) void, or null
        final boolean persistentFields; // declares serialPersistentFields
        final boolean readObjectNoData;

        Level(Class<?> type, ObjectStreamField[] fields, boolean hooks) {
            this.type = type;
            names = new String[fields.length];
            types = new Class<?>[fields.length];
            encodings = new byte[fields.length];
            for (int i = 0; i < fields.length; i++) {
                names[i] = fields[i].getName();
                types[i] = fields[i].getType();
                encodings[i] = encoding(types[i]);
            }
            MethodHandle w = null;
            MethodHandle r = null;
            if (hooks) {
                w = JdkAccess.writeObject(type);
                r = JdkAccess.readObject(type);
                if (w != null) {
                    w = w.asType(MethodType.methodType(void.class, Object.class, ObjectOutputStream.class));
                }
                if (r != null) {
                    r = r.asType(MethodType.methodType(void.class, Object.class, ObjectInputStream.class));
                }
            }
            writeObject = w;
            readObject = r;
            persistentFields = hooks && declaresPersistentFields(type);
            readObjectNoData = hooks && declaresReadObjectNoData(type);
        }

        int index(String name) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        boolean hasHooks() {
            return writeObject != null || readObject != null || persistentFields || readObjectNoData;
        }
    }

    static byte encoding(Class<?> t) {
        if (t == boolean.class) {
            return F_BOOLEAN;
        } else if (t == byte.class) {
            return F_BYTE;
        } else if (t == char.class) {
            return F_CHAR;
        } else if (t == short.class) {
            return F_SHORT;
        } else if (t == int.class) {
            return F_INT;
        } else if (t == long.class) {
            return F_LONG;
        } else if (t == float.class) {
            return F_FLOAT;
        } else if (t == double.class) {
            return F_DOUBLE;
        } else if (t == String.class) {
            return F_STRING;
        } else if (isKnownType(t)) {
            return F_KNOWN;
        }
        return F_OBJECT;
    }

    private static boolean declaresPersistentFields(Class<?> type) {
        try {
            Field f = type.getDeclaredField("serialPersistentFields");
            int m = f.getModifiers();
            return Modifier.isStatic(m) && Modifier.isPrivate(m) && Modifier.isFinal(m)
                    && f.getType() == ObjectStreamField[].class;
        } catch (NoSuchFieldException | SecurityException e) {
            return false;
        }
    }

    private static boolean declaresReadObjectNoData(Class<?> type) {
        try {
            Method m = type.getDeclaredMethod("readObjectNoData");
            return Modifier.isPrivate(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
                    && m.getReturnType() == void.class;
        } catch (NoSuchMethodException | SecurityException e) {
            return false;
        }
    }

    final Class<?> type;
    final String name;
    final int kind;
    final int index;          // dense number of this serial class in this JVM, for per-stream tables
    final int predefinedId;   // type id 0..18, or -1
    /** {@code java.rmi.Remote}, or null in a runtime image without the java.rmi module. */
    private static final Class<?> REMOTE = remoteInterface();

    private static Class<?> remoteInterface() {
        try {
            return Class.forName("java.rmi.Remote", false, SerialClass.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    final boolean valueType;  // written by value, without a handle
    final boolean remote;     // implements java.rmi.Remote: IbisSerializationOutput's replacer may swap it
    final boolean deferrable; // contents may be written later (io/README.md, "Deferred contents")
    final String problem;     // why objects of this class cannot be written/read, or null
    final MethodHandle writeReplace; // (Object) Object, or null
    final MethodHandle readResolve;  // (Object) Object, or null
    final Level[] levels;     // serializable classes from the top (PLAIN, HOOKED, RECORD)
    final long fingerprint;
    final Object[] enumConstants;
    private volatile ObjectCodec codec;

    private SerialClass(Class<?> type) {
        this.type = type;
        this.name = type.getName();
        this.index = INDICES.getAndIncrement();
        int predefined = -1;
        for (int i = 0; i < PREDEFINED.length; i++) {
            if (PREDEFINED[i] == type) {
                predefined = i;
            }
        }
        this.predefinedId = predefined;
        int k;
        String why = null;
        MethodHandle replace = null;
        MethodHandle resolve = null;
        Level[] chain = new Level[0];
        Object[] constants = null;
        if (predefined >= 0) {
            k = predefined;
        } else if (type.isArray()) {
            k = REFERENCE_ARRAY;
        } else if (type.isEnum()) {
            k = ENUM;
            constants = type.getEnumConstants();
        } else if (!java.io.Serializable.class.isAssignableFrom(type)) {
            k = NOT_SERIALIZABLE;
            why = type.getName();
        } else if (Proxy.isProxyClass(type)) {
            k = NOT_SERIALIZABLE;
            why = type.getName() + " (proxy classes are not supported by the ibis serialization)";
        } else {
            replace = JdkAccess.writeReplace(type);
            resolve = JdkAccess.readResolve(type);
            if (type.isRecord()) {
                k = RECORD;
                chain = new Level[] {new Level(type, ObjectStreamClass.lookup(type).getFields(), false)};
            } else if (Externalizable.class.isAssignableFrom(type)) {
                k = EXTERNALIZABLE;
            } else if (type.isHidden() && replace == null) {
                k = NOT_SERIALIZABLE;
                why = type.getName() + " (a hidden class without writeReplace)";
            } else {
                List<Level> levels = new ArrayList<>();
                boolean hooks = replace != null || resolve != null;
                for (Class<?> c = type; c != null && java.io.Serializable.class.isAssignableFrom(c);
                        c = c.getSuperclass()) {
                    Level level = new Level(c, ObjectStreamClass.lookup(c).getFields(), true);
                    hooks |= level.hasHooks();
                    levels.add(0, level);
                }
                chain = levels.toArray(new Level[0]);
                k = hooks ? HOOKED : PLAIN;
            }
        }
        if (replace != null) {
            replace = replace.asType(MethodType.methodType(Object.class, Object.class));
        }
        if (resolve != null) {
            resolve = resolve.asType(MethodType.methodType(Object.class, Object.class));
        }
        this.kind = k;
        this.problem = why;
        this.writeReplace = replace;
        this.readResolve = resolve;
        this.levels = chain;
        this.enumConstants = constants;
        this.valueType = k <= DOUBLE || k == CLASS || k == ENUM;
        this.deferrable = k == PLAIN || k == REFERENCE_ARRAY;
        this.remote = REMOTE != null && REMOTE.isAssignableFrom(type);
        this.fingerprint = computeFingerprint();
    }

    /** The type a reference array's elements must have; null for other kinds. */
    Class<?> componentType() {
        return type.getComponentType();
    }

    private long computeFingerprint() {
        StringBuilder b = new StringBuilder();
        b.append(kind).append(';').append(name).append(';');
        for (Level level : levels) {
            b.append(level.type.getName()).append('{');
            if (level.writeObject != null) {
                b.append('w');
            }
            if (level.readObject != null) {
                b.append('r');
            }
            b.append(':');
            for (int i = 0; i < level.names.length; i++) {
                b.append(level.names[i]).append(' ').append(level.types[i].getName());
                if (level.encodings[i] == F_KNOWN) {
                    b.append('!');
                }
                b.append(';');
            }
            b.append('}');
        }
        long h = 0xcbf29ce484222325L;
        for (byte x : b.toString().getBytes(StandardCharsets.UTF_8)) {
            h ^= x & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** The code that writes and reads objects of this class, built on first use. */
    ObjectCodec codec() throws java.io.InvalidClassException {
        ObjectCodec c = codec;
        if (c == null) {
            synchronized (this) {
                c = codec;
                if (c == null) {
                    c = Codecs.create(this);
                    codec = c;
                }
            }
        }
        return c;
    }

    /** Replaces the codec (tests compare the rewritten and the run-time code of one class). */
    void setCodecForTesting(ObjectCodec c) {
        codec = c;
    }

    @Override
    public String toString() {
        return name;
    }
}
