package ibis.rewriter;

import ibis.gmi.impl.GroupCode;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.objectweb.asm.Opcodes;

/**
 * The GMI pass: for every group interface among the inputs (an interface extending
 * {@code ibis.gmi.GroupInterface}, directly or through super-interfaces, resolved through the
 * {@link ClassHierarchy}), writes the classes GMI would otherwise generate at run time: the group
 * stub {@code I_GmiStub}, the skeleton {@code I_GmiSkeleton} and the parameter vector
 * {@code I_GmiParametersN} of every method, next to the interface, where GMI's run time finds them
 * by name. The bytes come from GMI's own
 * {@link GroupCode}, fed with the methods read from the class files (the interface's and its
 * super-interfaces' abstract instance methods), so numbering and code are those of the run time.
 */
final class GmiStubPass {

    static final String GROUP_INTERFACE = "ibis/gmi/GroupInterface";

    private final ClassHierarchy hierarchy;

    GmiStubPass(ClassHierarchy hierarchy) {
        this.hierarchy = hierarchy;
    }

    /** Whether {@code c} is a group interface (not GroupInterface itself). */
    boolean isGroupInterface(ClassInfo c) {
        if (!c.isInterface() || c.name.equals(GROUP_INTERFACE)) {
            return false;
        }
        Deque<String> todo = new ArrayDeque<>(c.interfaces);
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String i = todo.pop();
            if (!seen.add(i)) {
                continue;
            }
            if (i.equals(GROUP_INTERFACE)) {
                return true;
            }
            ClassInfo info = hierarchy.find(i);
            if (info != null) {
                todo.addAll(info.interfaces);
            }
        }
        return false;
    }

    /**
     * The generated classes of a group interface.
     *
     * @param c an input class
     * @return internal name to class file, or null when {@code c} is no group interface
     * @throws IllegalArgumentException when a super-interface is missing
     */
    Map<String, byte[]> generate(ClassInfo c) {
        if (!isGroupInterface(c)) {
            return null;
        }
        // A group interface need not be public (earlier GMI programs declare theirs without it):
        // the generated classes sit in its package, next to it.
        Map<String, GroupCode.MethodSig> methods = new LinkedHashMap<>();
        Deque<String> todo = new ArrayDeque<>();
        todo.add(c.name);
        Set<String> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!seen.add(name) || name.equals(GROUP_INTERFACE)) {
                continue;
            }
            ClassInfo info = hierarchy.find(name);
            if (info == null) {
                throw new IllegalArgumentException("super-interface " + name.replace('/', '.') + " of "
                        + c.javaName() + " not found");
            }
            for (ClassInfo.Member m : info.methods) {
                boolean instanceAbstract = (m.access & Opcodes.ACC_STATIC) == 0
                        && (m.access & Opcodes.ACC_ABSTRACT) != 0;
                if (m.name.startsWith("<") || !instanceAbstract) {
                    continue;
                }
                methods.putIfAbsent(m.name + m.descriptor,
                        new GroupCode.MethodSig(m.name, m.descriptor, m.exceptions.toArray(new String[0])));
            }
            todo.addAll(info.interfaces);
        }
        List<GroupCode.MethodSig> ordered = GroupCode.ordered(new ArrayList<>(methods.values()));
        Map<String, byte[]> out = new LinkedHashMap<>();
        out.put(GroupCode.stubName(c.name), GroupCode.stubBytes(c.name, ordered));
        out.put(GroupCode.skeletonName(c.name), GroupCode.skeletonBytes(c.name, ordered));
        for (int i = 0; i < ordered.size(); i++) {
            out.put(GroupCode.vectorName(c.name, i), GroupCode.vectorBytes(c.name, i, ordered.get(i).descriptor()));
        }
        return out;
    }
}
