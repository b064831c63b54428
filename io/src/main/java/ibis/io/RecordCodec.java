package ibis.io;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;

/** Records: components in canonical field order, created through the canonical constructor. */
final class RecordCodec extends ObjectCodec {
    private final SerialClass sc;
    private final SerialClass.Level level;
    private final MethodHandle[] getters;   // (Object) Object, canonical order
    private final int[] argumentIndex;      // canonical field -> constructor parameter
    private final MethodHandle constructor; // (Object[]) Object
    private final String problem;

    RecordCodec(SerialClass sc) {
        this.sc = sc;
        this.level = sc.levels[0];
        int n = level.names.length;
        getters = new MethodHandle[n];
        argumentIndex = new int[n];
        MethodHandle ctor = null;
        String why = null;
        try {
            RecordComponent[] components = sc.type.getRecordComponents();
            Class<?>[] types = new Class<?>[components.length];
            for (int c = 0; c < components.length; c++) {
                types[c] = components[c].getType();
                int i = level.index(components[c].getName());
                if (i >= 0) {
                    argumentIndex[i] = c;
                    java.lang.reflect.Method accessor = components[c].getAccessor();
                    accessor.setAccessible(true);
                    getters[i] = Codecs.LOOKUP.unreflect(accessor)
                            .asType(MethodType.methodType(Object.class, Object.class));
                }
            }
            Constructor<?> canonical = sc.type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            ctor = Codecs.LOOKUP.unreflectConstructor(canonical).asSpreader(Object[].class, components.length)
                    .asType(MethodType.methodType(Object.class, Object[].class));
            if (components.length != n) {
                why = "record components and serial fields differ";
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            why = "cannot reach its canonical constructor or accessors: " + e;
        }
        this.constructor = ctor;
        this.problem = why;
    }

    @Override
    void writeContents(Object obj, IbisSerializationOutput out) throws IOException {
        if (problem != null) {
            throw new InvalidClassException(sc.name, problem);
        }
        out.drainAll(); // the canonical constructor sees complete objects
        int mark = out.deferMark();
        for (int i = 0; i < getters.length; i++) {
            Object value;
            try {
                value = (Object) getters[i].invokeExact(obj);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IOException("record accessor of " + sc.name + " failed: " + t, t);
            }
            Codecs.writeField(out, level.encodings[i], level.types[i], value);
        }
        out.drain(mark);
    }

    @Override
    Object readNew(IbisSerializationInput in) throws IOException, ClassNotFoundException {
        if (problem != null) {
            throw new InvalidClassException(sc.name, problem);
        }
        in.registerObject(null); // references back to a record being read see null, as in the JDK
        int handle = in.lastHandle();
        in.drainAll(); // as the writer
        int mark = in.deferMark();
        Object[] arguments = new Object[getters.length];
        for (int i = 0; i < getters.length; i++) {
            arguments[argumentIndex[i]] = Codecs.readField(in, level.encodings[i], level.types[i]);
        }
        in.drain(mark);
        Object obj;
        try {
            obj = (Object) constructor.invokeExact(arguments);
        } catch (ClassCastException e) {
            InvalidObjectException x = new InvalidObjectException(
                    "a record component of " + sc.name + " has the wrong type: " + e);
            x.initCause(e);
            throw x;
        } catch (RuntimeException | Error e) {
            InvalidObjectException x = new InvalidObjectException(
                    "canonical constructor of " + sc.name + " failed: " + e);
            x.initCause(e);
            throw x;
        } catch (Throwable t) {
            InvalidObjectException x = new InvalidObjectException(
                    "canonical constructor of " + sc.name + " failed: " + t);
            x.initCause(t);
            throw x;
        }
        in.setHandle(handle, obj);
        return Codecs.resolve(sc, obj, in, handle);
    }
}
