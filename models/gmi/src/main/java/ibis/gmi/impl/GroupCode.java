package ibis.gmi.impl;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The generated classes of a group interface as bytes, for the run time and for {@code ibisc}
 * (which writes them at build time next to the interface, where the run time finds them by name):
 * the group stub {@code I_GmiStub}, the skeleton {@code I_GmiSkeleton} and one parameter vector
 * {@code I_GmiParametersN} per method.
 * Methods are numbered by {@link #orderKey}, from the interface's methods and those of its
 * super-interfaces (not static, not default), so build time and run time agree.
 */
public final class GroupCode {

    /** One method of a group interface. */
    public record MethodSig(String name, String descriptor, String[] exceptions) {
    }

    private GroupCode() {
    }

    /**
     * @param name a method name
     * @param descriptor its descriptor
     * @return the key that orders the methods of a group interface
     */
    public static String orderKey(String name, String descriptor) {
        return name + descriptor;
    }

    /**
     * @param methods the methods of a group interface, any order, no duplicates
     * @return the same, in table order
     */
    public static List<MethodSig> ordered(List<MethodSig> methods) {
        List<MethodSig> sorted = new ArrayList<>(methods);
        sorted.sort(Comparator.comparing(m -> orderKey(m.name(), m.descriptor())));
        return sorted;
    }

    /**
     * @param iface the internal name of a group interface
     * @return the internal name of its stub
     */
    public static String stubName(String iface) {
        return iface + "_GmiStub";
    }

    /**
     * @param iface the internal name of a group interface
     * @param method a method number
     * @return the internal name of that method's parameter vector
     */
    public static String vectorName(String iface, int method) {
        return iface + "_GmiParameters" + method;
    }

    /**
     * @param iface the internal name of a group interface
     * @return the internal name of its skeleton
     */
    public static String skeletonName(String iface) {
        return iface + "_GmiSkeleton";
    }

    /**
     * @param iface the internal name of a group interface
     * @param methods its methods, in table order ({@link #ordered})
     * @return the class file of its skeleton
     */
    public static byte[] skeletonBytes(String iface, List<MethodSig> methods) {
        return SkeletonGenerator.generate(iface, methods, skeletonName(iface));
    }

    /**
     * The skeleton bytes the run time generates for a group interface (from reflection).
     *
     * @param iface a group interface
     * @return the class file
     */
    public static byte[] runtimeSkeletonBytes(Class<?> iface) {
        return skeletonBytes(org.objectweb.asm.Type.getInternalName(iface), MethodTable.of(iface).signatures());
    }

    /**
     * @param iface a group interface
     * @return the skeleton class the run time uses (the one ibisc wrote, else one generated now)
     */
    public static Class<?> skeletonClass(Class<?> iface) {
        return SkeletonGenerator.skeleton(MethodTable.of(iface)).getClass();
    }

    /**
     * @param iface the internal name of a group interface
     * @param methods its methods, in table order ({@link #ordered})
     * @return the class file of its stub
     */
    public static byte[] stubBytes(String iface, List<MethodSig> methods) {
        return GroupStubGenerator.generate(iface, methods, stubName(iface));
    }

    /**
     * @param iface the internal name of a group interface
     * @param method a method number
     * @param descriptor that method's descriptor
     * @return the class file of its parameter vector
     */
    public static byte[] vectorBytes(String iface, int method, String descriptor) {
        return ParameterVectorGenerator.generate(descriptor, vectorName(iface, method));
    }

    /**
     * The stub class the run time uses for a group interface: the one {@code ibisc} wrote, when
     * the interface's loader finds it, else one generated now.
     *
     * @param iface a group interface
     * @return the stub class
     */
    public static Class<?> stubClass(Class<?> iface) {
        return GroupStubGenerator.stubClass(MethodTable.of(iface));
    }

    /**
     * The stub bytes the run time generates for a group interface (from reflection).
     *
     * @param iface a group interface
     * @return the class file
     */
    public static byte[] runtimeStubBytes(Class<?> iface) {
        return stubBytes(org.objectweb.asm.Type.getInternalName(iface), MethodTable.of(iface).signatures());
    }

    /**
     * The parameter vector bytes the run time generates for method {@code method} of a group
     * interface (from reflection).
     *
     * @param iface a group interface
     * @param method a method number
     * @return the class file
     */
    public static byte[] runtimeVectorBytes(Class<?> iface, int method) {
        return vectorBytes(org.objectweb.asm.Type.getInternalName(iface), method,
                MethodTable.of(iface).signatures().get(method).descriptor());
    }
}
