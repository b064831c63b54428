package ibis.io.codegen;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.fail;

import ibis.io.IbisSerializationInput;
import ibis.io.IbisSerializationOutput;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.objectweb.asm.Type;
import org.testng.annotations.Test;

/**
 * The stream methods generated serializers call exist as named: a renamed or changed method of
 * the stream classes fails here, not on the wire of old rewritten classes.
 */
public class StreamMethodTest {

    @Test
    public void everyConstantNamesAPublicMethodOfItsStreamWithThatDescriptor() {
        for (StreamMethod m : StreamMethod.values()) {
            Class<?> owner = m.ofOutput() ? IbisSerializationOutput.class : IbisSerializationInput.class;
            assertEquals(m.owner(), Type.getInternalName(owner), m.name());
            Method found = null;
            for (Method candidate : owner.getMethods()) {
                if (candidate.getName().equals(m.methodName())
                        && Type.getMethodDescriptor(candidate).equals(m.descriptor())) {
                    found = candidate;
                }
            }
            if (found == null) {
                fail(m + ": no public " + owner.getSimpleName() + "." + m.methodName() + m.descriptor());
            }
            assertEquals(found.getDeclaringClass(), owner, m + " is declared by the stream class itself");
            assertTrue(!Modifier.isStatic(found.getModifiers()), m + " is an instance method (invokevirtual)");
        }
    }

    @Test
    public void eachEncodingHasTheCallsOfItsType() {
        for (FieldEncoding e : FieldEncoding.values()) {
            String type = e == FieldEncoding.KNOWN ? "KnownObject" : e == FieldEncoding.OBJECT ? "Object"
                    : e.name().charAt(0) + e.name().substring(1).toLowerCase(java.util.Locale.ROOT);
            assertEquals(StreamMethod.write(e).methodName(), "write" + type);
            assertEquals(StreamMethod.read(e).methodName(), "read" + type);
            if (e.isPrimitive()) {
                assertEquals(StreamMethod.put(e).methodName(), "put" + type);
                assertEquals(StreamMethod.at(e).methodName(), type.toLowerCase(java.util.Locale.ROOT) + "At");
                assertEquals(StreamMethod.write(e).descriptor(), "(" + e.carrier() + ")V");
                assertEquals(StreamMethod.at(e).descriptor(), "(I)" + e.carrier());
            }
        }
    }
}
