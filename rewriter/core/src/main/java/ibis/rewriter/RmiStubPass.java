package ibis.rewriter;

import ibis.rmi.impl.RemoteMethodTable;
import ibis.rmi.impl.StubGenerator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RMI stubs pass: for every concrete class that implements one or more remote interfaces
 * (interfaces extending {@code java.rmi.Remote}, directly or through super-interfaces or
 * superclasses, resolved through the {@link ClassHierarchy} like the serialization rules do),
 * generates the Ibis RMI stub and skeleton class files that the run time would otherwise generate
 * when the object is exported or its stub arrives. The code comes from Ibis RMI's own
 * {@link StubGenerator}, fed with a {@link RemoteMethodTable} computed from the class files, so
 * marshalling and method numbering are those of the run-time generator.
 *
 * <p>Names (fixed, so the run time finds them by name): for a remote class {@code p.C} the stub
 * is {@code p.C_IbisStub} and the skeleton {@code p.C_IbisSkeleton} (a nested class
 * {@code p.Outer$C} gives {@code p.Outer$C_IbisStub}); they are written next to {@code C}. The
 * bytes depend only on the class's remote interfaces, so a second run produces the same bytes
 * and writes nothing.
 */
final class RmiStubPass {

    private static final Logger LOG = LoggerFactory.getLogger(RmiStubPass.class);

    static final String IBIS_REMOTE_STUB = "ibis/rmi/server/RemoteStub";
    static final String JAVA_REMOTE_STUB = "java/rmi/server/RemoteStub";
    static final String IBIS_SKELETON = "ibis/rmi/impl/Skeleton";

    /** The generated classes of one remote class. */
    static final class Generated {
        final String stubName;      // internal name
        final byte[] stub;
        final String skeletonName;  // internal name
        final byte[] skeleton;
        final List<String> interfaces;

        Generated(String stubName, byte[] stub, String skeletonName, byte[] skeleton, List<String> interfaces) {
            this.stubName = stubName;
            this.stub = stub;
            this.skeletonName = skeletonName;
            this.skeleton = skeleton;
            this.interfaces = interfaces;
        }
    }

    private final ClassHierarchy hierarchy;
    private final RemoteMethodTable.TypeSource source;

    RmiStubPass(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
        this.source = this::describe;
    }

    /** The class as the shared stub rules see it (the same view the run time gets from Class objects). */
    private RemoteMethodTable.TypeInfo describe(String name) {
        ClassInfo c = hierarchy.find(name);
        if (c == null) {
            return null;
        }
        List<RemoteMethodTable.MethodInfo> methods = new ArrayList<>();
        if (c.isInterface()) {
            for (ClassInfo.Member m : c.methods) {
                if (m.name.startsWith("<")) {
                    continue; // <clinit>: Class.getDeclaredMethods() does not list it either
                }
                int access = m.access
                        & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PRIVATE | Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT);
                methods.add(new RemoteMethodTable.MethodInfo(m.name, m.descriptor, access, m.exceptions));
            }
        }
        return new RemoteMethodTable.TypeInfo(c.name, c.modifiers, c.isInterface() ? null : c.superName,
                c.interfaces, methods);
    }

    /**
     * Whether a class is a stub or skeleton (Ibis RMI's, from this pass or the run time, or an
     * rmic-made {@code java.rmi} stub): such classes implement remote interfaces but get no
     * stubs of their own, and the serialization pass leaves Ibis stubs alone.
     */
    boolean isStubOrSkeleton(ClassInfo c) {
        Set<String> seen = new HashSet<>();
        for (String s = c.superName; s != null && seen.add(s); ) {
            if (s.equals(IBIS_REMOTE_STUB) || s.equals(JAVA_REMOTE_STUB) || s.equals(IBIS_SKELETON)) {
                return true;
            }
            ClassInfo info = hierarchy.find(s);
            s = info == null ? null : info.superName;
        }
        return false;
    }

    /** A non-public parameter or result class of the methods outside package {@code own}, or null. */
    private String foreignNonPublicType(RemoteMethodTable table, String own) {
        for (RemoteMethodTable.RemoteMethod m : table.methods()) {
            List<Type> types = new ArrayList<>(List.of(Type.getArgumentTypes(m.descriptor())));
            types.add(Type.getReturnType(m.descriptor()));
            for (Type t : types) {
                Type e = t.getSort() == Type.ARRAY ? t.getElementType() : t;
                if (e.getSort() != Type.OBJECT) {
                    continue;
                }
                ClassInfo info = hierarchy.find(e.getInternalName());
                if (info != null && (info.modifiers & Opcodes.ACC_PUBLIC) == 0
                        && !RemoteMethodTable.packageOf(info.name).equals(own)) {
                    return info.name;
                }
            }
        }
        return null;
    }

    /**
     * The stub and skeleton of a class.
     *
     * @param c an input class
     * @return the generated classes, or null when the class is not a concrete remote class
     * @throws IllegalArgumentException when the class is a remote class but Ibis RMI cannot make
     *         stubs for it (a remote interface that cannot be found, non-public remote interfaces
     *         of different packages, a remote method without {@code RemoteException}); the
     *         message says why
     */
    Generated generate(ClassInfo c) {
        if (c.isInterface() || c.is(Opcodes.ACC_ABSTRACT) || c.is(Opcodes.ACC_ANNOTATION) || isStubOrSkeleton(c)) {
            return null;
        }
        List<String> interfaces = RemoteMethodTable.remoteInterfacesOf(c.name, source);
        if (interfaces.isEmpty()) {
            return null;
        }
        String host = RemoteMethodTable.hostPackage(interfaces, source);
        if (host != null && !host.equals(RemoteMethodTable.packageOf(c.name))) {
            // A non-public remote interface of another package: only a class of that package can
            // implement it, so the run time generates the pair there.
            LOG.debug("no build-time RMI stubs for {}: a non-public remote interface is in package {}", c.javaName(),
                    host.replace('/', '.'));
            return null;
        }
        RemoteMethodTable table = RemoteMethodTable.of(interfaces, source);
        String foreign = host != null ? null : foreignNonPublicType(table, RemoteMethodTable.packageOf(c.name));
        if (foreign != null) {
            // The stub casts results, the skeleton parameters: a non-public class of another
            // package can be named only there, so the run time generates the pair there.
            LOG.debug("no build-time RMI stubs for {}: remote methods use {}, not public, of another package",
                    c.javaName(), foreign.replace('/', '.'));
            return null;
        }
        String stubName = RemoteMethodTable.stubName(c.name);
        String skeletonName = RemoteMethodTable.skeletonName(c.name);
        return new Generated(stubName, StubGenerator.stubBytes(stubName, table), skeletonName,
                StubGenerator.skeletonBytes(skeletonName, table), interfaces);
    }
}
