package ibis.io;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;

/**
 * The JDK's support for serialization libraries, from module {@code jdk.unsupported}:
 * {@code sun.reflect.ReflectionFactory} (serialization constructors and the private hooks
 * {@code writeObject}/{@code readObject}/{@code writeReplace}/{@code readResolve}, for any class,
 * JDK classes included) and {@code sun.misc.Unsafe} (allocation without a constructor; on JDKs
 * before 22 also field access to classes whose packages are closed). Reached through method
 * handles, so this compiles without the internal-API warnings and fails clearly when missing.
 * Everything here is used once per class, when its serializer is built, except the allocation
 * and field handles, which the generated code holds as constants.
 */
final class JdkAccess {

    private static final Object FACTORY;
    private static final MethodHandle SERIALIZATION_CONSTRUCTOR;   // (Class) Constructor
    private static final MethodHandle EXTERNALIZATION_CONSTRUCTOR; // (Class) Constructor
    private static final MethodHandle WRITE_OBJECT;                // (Class) MethodHandle
    private static final MethodHandle READ_OBJECT;
    private static final MethodHandle WRITE_REPLACE;
    private static final MethodHandle READ_RESOLVE;
    private static final MethodHandle DEFAULT_WRITE;               // null before JDK 22
    private static final MethodHandle DEFAULT_READ;

    private static final Object UNSAFE;
    private static final MethodHandle ALLOCATE_INSTANCE;           // (Class) Object
    private static final MethodHandle OBJECT_FIELD_OFFSET;         // (Field) long
    private static final Class<?> UNSAFE_CLASS;

    private static final Throwable FAILURE;

    static {
        Object factory = null;
        MethodHandle sc = null, ec = null, wo = null, ro = null, wr = null, rr = null, dw = null, dr = null;
        Object unsafe = null;
        MethodHandle alloc = null, offset = null;
        Class<?> unsafeClass = null;
        Throwable failure = null;
        try {
            MethodHandles.Lookup pub = MethodHandles.publicLookup();
            Class<?> rf = Class.forName("sun.reflect.ReflectionFactory");
            factory = pub.findStatic(rf, "getReflectionFactory", MethodType.methodType(rf)).invoke();
            sc = pub.findVirtual(rf, "newConstructorForSerialization",
                    MethodType.methodType(Constructor.class, Class.class)).bindTo(factory);
            ec = pub.findVirtual(rf, "newConstructorForExternalization",
                    MethodType.methodType(Constructor.class, Class.class)).bindTo(factory);
            MethodType hook = MethodType.methodType(MethodHandle.class, Class.class);
            wo = pub.findVirtual(rf, "writeObjectForSerialization", hook).bindTo(factory);
            ro = pub.findVirtual(rf, "readObjectForSerialization", hook).bindTo(factory);
            wr = pub.findVirtual(rf, "writeReplaceForSerialization", hook).bindTo(factory);
            rr = pub.findVirtual(rf, "readResolveForSerialization", hook).bindTo(factory);
            try {
                dw = pub.findVirtual(rf, "defaultWriteObjectForSerialization", hook).bindTo(factory);
                dr = pub.findVirtual(rf, "defaultReadObjectForSerialization", hook).bindTo(factory);
            } catch (NoSuchMethodException e) {
                dw = null; // JDK before 22: closed classes' fields go through Unsafe
                dr = null;
            }
            unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            unsafe = theUnsafe.get(null);
            alloc = pub.findVirtual(unsafeClass, "allocateInstance", MethodType.methodType(Object.class, Class.class))
                    .bindTo(unsafe);
            offset = pub.findVirtual(unsafeClass, "objectFieldOffset", MethodType.methodType(long.class, Field.class))
                    .bindTo(unsafe);
        } catch (Throwable t) {
            failure = t;
        }
        FACTORY = factory;
        SERIALIZATION_CONSTRUCTOR = sc;
        EXTERNALIZATION_CONSTRUCTOR = ec;
        WRITE_OBJECT = wo;
        READ_OBJECT = ro;
        WRITE_REPLACE = wr;
        READ_RESOLVE = rr;
        DEFAULT_WRITE = dw;
        DEFAULT_READ = dr;
        UNSAFE = unsafe;
        ALLOCATE_INSTANCE = alloc;
        OBJECT_FIELD_OFFSET = offset;
        UNSAFE_CLASS = unsafeClass;
        FAILURE = failure;
    }

    private JdkAccess() {
    }

    private static void check() {
        if (FAILURE != null) {
            throw new IllegalStateException(
                    "ibis serialization needs module jdk.unsupported (sun.reflect.ReflectionFactory,"
                    + " sun.misc.Unsafe): " + FAILURE, FAILURE);
        }
    }

    private static MethodHandle hook(MethodHandle getter, Class<?> type) {
        check();
        try {
            return (MethodHandle) getter.invokeExact(type);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code private void writeObject(ObjectOutputStream)} of exactly {@code type}, or null. */
    static MethodHandle writeObject(Class<?> type) {
        return hook(WRITE_OBJECT, type);
    }

    /** {@code private void readObject(ObjectInputStream)} of exactly {@code type}, or null. */
    static MethodHandle readObject(Class<?> type) {
        return hook(READ_OBJECT, type);
    }

    /** {@code writeReplace()} as the JDK finds it for {@code type} (inherited ones too), or null. */
    static MethodHandle writeReplace(Class<?> type) {
        return hook(WRITE_REPLACE, type);
    }

    /** {@code readResolve()} as the JDK finds it for {@code type}, or null. */
    static MethodHandle readResolve(Class<?> type) {
        return hook(READ_RESOLVE, type);
    }

    /** Whether the JDK can write/read the default fields of closed classes for us (JDK 22 and later). */
    static boolean hasDefaultFieldHandles() {
        return DEFAULT_WRITE != null;
    }

    /**
     * {@code (type, ObjectOutputStream) void} that writes {@code type}'s default fields via
     * putFields/writeFields, or null.
     */
    static MethodHandle defaultWriteObject(Class<?> type) {
        return DEFAULT_WRITE == null ? null : hook(DEFAULT_WRITE, type);
    }

    /** {@code (type, ObjectInputStream) void} that sets {@code type}'s default fields via readFields, or null. */
    static MethodHandle defaultReadObject(Class<?> type) {
        return DEFAULT_READ == null ? null : hook(DEFAULT_READ, type);
    }

    /**
     * The JDK's serialization constructor of {@code type}: creates a {@code type} running only the
     * no-arg constructor of the first non-serializable superclass; null when that has none accessible.
     */
    static Constructor<?> serializationConstructor(Class<?> type) {
        check();
        try {
            return (Constructor<?>) SERIALIZATION_CONSTRUCTOR.invokeExact(type);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The public no-arg constructor of an Externalizable class, made accessible; null when missing. */
    static Constructor<?> externalizationConstructor(Class<?> type) {
        check();
        try {
            return (Constructor<?>) EXTERNALIZATION_CONSTRUCTOR.invokeExact(type);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code () Object}: allocates a {@code type} without running any constructor. */
    static MethodHandle allocator(Class<?> type) {
        check();
        return MethodHandles.insertArguments(ALLOCATE_INSTANCE, 0, type);
    }

    /**
     * Getter {@code (Object) T} and setter {@code (Object, T) void} of an instance field of a class
     * whose package is closed to us, through Unsafe (used on JDKs before 22 only).
     */
    static MethodHandle[] unsafeAccessors(Field field) {
        check();
        try {
            long offset = (long) OBJECT_FIELD_OFFSET.invokeExact(field);
            Class<?> t = field.getType();
            String suffix;
            Class<?> carrier;
            if (t.isPrimitive()) {
                suffix = Character.toUpperCase(t.getName().charAt(0)) + t.getName().substring(1);
                carrier = t;
            } else {
                suffix = "Object";
                carrier = Object.class;
            }
            MethodHandles.Lookup pub = MethodHandles.publicLookup();
            MethodHandle get = pub.findVirtual(UNSAFE_CLASS, "get" + suffix,
                    MethodType.methodType(carrier, Object.class, long.class))
                    .bindTo(UNSAFE);
            MethodHandle put = pub.findVirtual(UNSAFE_CLASS, "put" + suffix,
                    MethodType.methodType(void.class, Object.class, long.class, carrier)).bindTo(UNSAFE);
            get = MethodHandles.insertArguments(get, 1, offset);
            put = MethodHandles.insertArguments(put, 1, offset);
            if (!t.isPrimitive()) {
                // The setter checks the type, as a field store would.
                put = put.asType(MethodType.methodType(void.class, Object.class, t))
                        .asType(MethodType.methodType(void.class, Object.class, Object.class));
            }
            return new MethodHandle[] {get, put};
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
