package ibis.io;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Arrays;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the {@link ObjectCodec} of a class, once: the rewriter's code when the class was
 * rewritten correctly, else code made at run time (a generated hidden class for the fields, and
 * drivers for JDK hooks, Externalizable and records). Logs one line per class that needed run-time
 * code when {@code ibis.io.rewriter.warn=true}.
 */
final class Codecs {

    /** System property: log each class whose serializer is made at run time. */
    static final String WARN_PROPERTY = IoProperties.REWRITER_WARN;

    private static final Logger LOG = LoggerFactory.getLogger(Codecs.class);
    static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final MethodHandle NEW_INSTANCE;

    static {
        try {
            NEW_INSTANCE = LOOKUP.findStatic(Codecs.class, "newInstance",
                    MethodType.methodType(Object.class, Constructor.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Codecs() {
    }

    static ObjectCodec create(SerialClass sc) throws InvalidClassException {
        switch (sc.kind) {
            case SerialClass.PLAIN: {
                Generator generator = rewrittenGenerator(sc.type, true);
                if (generator != null) {
                    return new RewrittenCodec(sc, generator);
                }
                warn(sc, "fields");
                return runtimeCodec(sc);
            }
            case SerialClass.HOOKED:
                warn(sc, "JDK serialization hooks");
                return runtimeCodec(sc);
            case SerialClass.EXTERNALIZABLE:
                warn(sc, "Externalizable");
                return new ExternalizableCodec(sc);
            case SerialClass.RECORD:
                warn(sc, "record");
                return new RecordCodec(sc);
            default:
                throw new IllegalStateException("no codec for " + sc.name + " (kind " + sc.kind + ")");
        }
    }

    private static void warn(SerialClass sc, String what) {
        if (IoProperties.REWRITER_WARN_PROPERTY.get(null)) {
            String reason = sc.type.getClassLoader() == null || sc.name.startsWith("java.") ? "a JDK class"
                    : Arrays.asList(sc.type.getInterfaces()).contains(Serializable.class)
                    ? "rewritten, but not usable (see the rewriter contract)"
                    : "not rewritten";
            LOG.info("ibis serialization: generated a run-time serializer for {} ({}; {})", sc.name, what, reason);
        }
    }

    /**
     * The rewriter's generator for {@code type} when {@code type} and all its serializable
     * superclasses carry valid rewritten members (io/README.md, contract), else null.
     */
    static Generator rewrittenGenerator(Class<?> type, boolean needGenerator) {
        if (!Arrays.asList(type.getInterfaces()).contains(Serializable.class)) {
            return null;
        }
        SerialClass sc = SerialClass.of(type);
        if (sc.kind != SerialClass.PLAIN) {
            return null;
        }
        try {
            Constructor<?> reading = type.getDeclaredConstructor(IbisSerializationInput.class);
            type.getDeclaredMethod("ibisWrite", IbisSerializationOutput.class);
            if (!Modifier.isPublic(reading.getModifiers())) {
                return null;
            }
        } catch (NoSuchMethodException e) {
            return null;
        }
        Class<?> parent = type.getSuperclass();
        if (parent != null && java.io.Serializable.class.isAssignableFrom(parent)) {
            if (rewrittenGenerator(parent, false) == null) {
                return null;
            }
        }
        if (!needGenerator) {
            return NO_GENERATOR; // a valid rewritten superclass (its generator, if abstract, is never used)
        }
        try {
            Class<?> g = Class.forName(type.getName() + "_ibis_io_Generator", true, type.getClassLoader());
            if (!Generator.class.isAssignableFrom(g)) {
                return null;
            }
            return (Generator) g.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    /** Marks "valid rewritten superclass" without instantiating its generator. */
    private static final Generator NO_GENERATOR = new Generator() {
        @Override
        public Object newInstance(IbisSerializationInput in) {
            throw new IllegalStateException();
        }
    };

    /** Run-time code for a PLAIN or HOOKED class: a generated hidden class where the fields can be reached. */
    static ObjectCodec runtimeCodec(SerialClass sc) throws InvalidClassException {
        SerialClass.Level[] levels = sc.levels;
        MethodHandle[][] getters = new MethodHandle[levels.length][];
        MethodHandle[][] setters = new MethodHandle[levels.length][];
        boolean all = true;
        boolean any = false;
        for (int i = 0; i < levels.length; i++) {
            MethodHandle[][] acc = accessors(levels[i]);
            if (acc != null) {
                getters[i] = acc[0];
                setters[i] = acc[1];
                any = true;
            } else {
                all = false;
            }
        }
        MethodHandle allocator = allocator(sc.type);
        FieldCodec fields = any ? FieldCodecGenerator.generate(sc, getters, setters, allocator) : null;
        if (all && sc.kind == SerialClass.PLAIN) {
            return fields;
        }
        return new HookCodec(sc, fields, getters, allocator);
    }

    /**
     * Getters {@code (Object) X} and setters {@code (Object, X) void} for a level's serial fields
     * (X: the primitive type, String, or Object), or null when they cannot be reached here.
     */
    private static MethodHandle[][] accessors(SerialClass.Level level) {
        int n = level.names.length;
        MethodHandle[] get = new MethodHandle[n];
        MethodHandle[] set = new MethodHandle[n];
        for (int i = 0; i < n; i++) {
            Field f;
            try {
                f = level.type.getDeclaredField(level.names[i]);
            } catch (NoSuchFieldException | SecurityException e) {
                return null; // serialPersistentFields without a matching field: only putFields/readFields can serve it
            }
            if (Modifier.isStatic(f.getModifiers()) || f.getType() != level.types[i]) {
                return null;
            }
            MethodHandle g;
            MethodHandle s;
            try {
                f.setAccessible(true);
                g = LOOKUP.unreflectGetter(f);
                s = LOOKUP.unreflectSetter(f);
            } catch (RuntimeException | IllegalAccessException e) { // InaccessibleObjectException: a closed package
                if (JdkAccess.hasDefaultFieldHandles()) {
                    return null; // JDK 22+: the JDK writes and reads these fields for us (HookCodec)
                }
                MethodHandle[] unsafe = JdkAccess.unsafeAccessors(f);
                g = unsafe[0];
                s = unsafe[1];
            }
            Class<?> carrier = carrier(level.types[i]);
            get[i] = g.asType(MethodType.methodType(carrier, Object.class));
            set[i] = s.asType(MethodType.methodType(void.class, Object.class, carrier));
        }
        return new MethodHandle[][] {get, set};
    }

    /** The type generated code passes a field's value as. */
    static Class<?> carrier(Class<?> type) {
        return type.isPrimitive() || type == String.class ? type : Object.class;
    }

    /**
     * {@code () Object} creating an object as the JDK does: no constructor of the class itself, the
     * no-arg constructor of the first non-serializable superclass.
     */
    static MethodHandle allocator(Class<?> type) {
        Class<?> top = type;
        while (top != null && java.io.Serializable.class.isAssignableFrom(top)) {
            top = top.getSuperclass();
        }
        if (Modifier.isAbstract(type.getModifiers())) {
            return thrower(new InvalidClassException(type.getName(), "abstract class"));
        }
        if (top == Object.class) {
            return JdkAccess.allocator(type);
        }
        Constructor<?> constructor = JdkAccess.serializationConstructor(type);
        if (constructor == null) {
            return thrower(new InvalidClassException(type.getName(), "no valid constructor"));
        }
        return NEW_INSTANCE.bindTo(constructor);
    }

    private static MethodHandle thrower(InvalidClassException e) {
        return MethodHandles.dropArguments(MethodHandles.throwException(Object.class, InvalidClassException.class), 0)
                .bindTo(e);
    }

    /** Calls a no-arg constructor, as the JDK does for serialization (also through NEW_INSTANCE). */
    static Object newInstance(Constructor<?> constructor) throws IOException {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            InvalidObjectException x = new InvalidObjectException(
                    "constructor of " + constructor.getDeclaringClass().getName() + " failed: " + e.getCause());
            x.initCause(e.getCause());
            throw x;
        } catch (ReflectiveOperationException e) {
            InvalidClassException x = new InvalidClassException(constructor.getDeclaringClass().getName(),
                    e.toString());
            x.initCause(e);
            throw x;
        }
    }

    /** Calls a hook handle, passing IOException, ClassNotFoundException and unchecked throwables through. */
    static void invokeHook(MethodHandle hook, Object obj, Object stream) throws IOException, ClassNotFoundException {
        try {
            hook.invoke(obj, stream);
        } catch (IOException | ClassNotFoundException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException(t);
        }
    }

    static Object invokeAllocator(MethodHandle allocator) throws IOException {
        try {
            return (Object) allocator.invokeExact();
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            InvalidClassException x = new InvalidClassException("cannot create object: " + t);
            x.initCause(t);
            throw x;
        }
    }

    static Object resolve(SerialClass sc, Object obj, IbisSerializationInput in, int handle) throws IOException {
        if (sc.readResolve == null) {
            return obj;
        }
        Object rep;
        try {
            rep = (Object) sc.readResolve.invokeExact(obj);
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IOException("readResolve of " + sc.name + " failed: " + t, t);
        }
        if (rep != obj) {
            in.setHandle(handle, rep);
        }
        return rep;
    }

    /** Writes one serial field value (boxed for primitives) in its encoding. */
    static void writeField(IbisSerializationOutput out, byte encoding, Class<?> type, Object value) throws IOException {
        switch (encoding) {
            case SerialClass.F_BOOLEAN: out.writeBoolean((Boolean) value); break;
            case SerialClass.F_BYTE: out.writeByte((Byte) value); break;
            case SerialClass.F_CHAR: out.writeChar((Character) value); break;
            case SerialClass.F_SHORT: out.writeShort((Short) value); break;
            case SerialClass.F_INT: out.writeInt((Integer) value); break;
            case SerialClass.F_LONG: out.writeLong((Long) value); break;
            case SerialClass.F_FLOAT: out.writeFloat((Float) value); break;
            case SerialClass.F_DOUBLE: out.writeDouble((Double) value); break;
            case SerialClass.F_STRING: out.writeString((String) value); break;
            case SerialClass.F_KNOWN: out.writeKnownObject(value, type); break;
            default: out.writeObject(value); break;
        }
    }

    /** Reads one serial field value (boxed for primitives). */
    static Object readField(IbisSerializationInput in, byte encoding, Class<?> type)
            throws IOException, ClassNotFoundException {
        switch (encoding) {
            case SerialClass.F_BOOLEAN: return in.readBoolean();
            case SerialClass.F_BYTE: return in.readByte();
            case SerialClass.F_CHAR: return in.readChar();
            case SerialClass.F_SHORT: return in.readShort();
            case SerialClass.F_INT: return in.readInt();
            case SerialClass.F_LONG: return in.readLong();
            case SerialClass.F_FLOAT: return in.readFloat();
            case SerialClass.F_DOUBLE: return in.readDouble();
            case SerialClass.F_STRING: return in.readStringField();
            case SerialClass.F_KNOWN: return in.readKnownObject(type);
            default: return in.readObject();
        }
    }
}
