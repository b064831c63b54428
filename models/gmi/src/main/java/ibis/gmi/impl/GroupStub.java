package ibis.gmi.impl;

import ibis.gmi.GroupInterface;

/**
 * The base class of generated group stubs ({@link GroupStubGenerator}): a reference to one group,
 * with its own configuration per method. Generated methods call {@link #invoke}.
 */
public abstract class GroupStub implements GroupInterface {

    GmiRuntime runtime;
    GroupInfo group;
    MethodTable table;
    StubMethod[] methods;

    /** For generated subclasses. */
    protected GroupStub() {
    }

    /**
     * Performs method {@code method} with {@code args} as configured; what a member threw is thrown
     * here unchanged (the stub's method declares it, or it is unchecked).
     *
     * @param method the method's index in the interface's method table
     * @param args the arguments, boxed
     * @return the result, boxed (null for void)
     */
    protected final Object invoke(int method, Object[] args) {
        try {
            return runtime.call(this, method, args);
        } catch (Throwable t) {
            throw GroupStub.<RuntimeException>sneaky(t);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public String toString() {
        return "group stub of " + group.name + " (" + table.type.getName() + ", " + group.size + " members)";
    }
}
