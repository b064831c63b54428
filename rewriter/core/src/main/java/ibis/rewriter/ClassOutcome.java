package ibis.rewriter;

import java.nio.file.Path;

/** What the rewriter did with one class of its input, and why. */
public final class ClassOutcome {

    /** What happened to the class. */
    public enum Status {
        /** The serialization members and the generator class were added. */
        REWRITTEN,
        /** The class already implements {@code ibis.io.Serializable} (an earlier run); left untouched. */
        ALREADY_REWRITTEN,
        /** Serializable, but a rule excludes it; the stream gives it a run-time serializer. */
        SKIPPED,
        /** Not a Serializable class (or not a class); nothing to do. */
        NOT_SERIALIZABLE
    }

    private final String className;
    private final Path input;
    private final Status status;
    private final String reason;
    private final boolean javaRmiRenamed;
    private final String rmiStub;

    ClassOutcome(String className, Path input, Status status, String reason) {
        this(className, input, status, reason, false, null);
    }

    ClassOutcome(String className, Path input, Status status, String reason, boolean javaRmiRenamed, String rmiStub) {
        this.className = className;
        this.input = input;
        this.status = status;
        this.reason = reason;
        this.javaRmiRenamed = javaRmiRenamed;
        this.rmiStub = rmiStub;
    }

    /**
     * The Java name of the build-time RMI stub the stubs pass made for this remote class (its
     * skeleton has the same name with {@code _IbisSkeleton} instead of {@code _IbisStub}), or null
     * when the class is not a remote class or the pass was off (independent of {@link #status()}).
     */
    public String rmiStub() {
        return rmiStub;
    }

    /**
     * Whether the java.rmi pass renamed this class's references to {@code java.rmi.Naming},
     * {@code java.rmi.registry.*} or {@code java.rmi.server.UnicastRemoteObject} to {@code ibis.rmi}
     * (independent of {@link #status()}, which is about serializers).
     */
    public boolean javaRmiRenamed() {
        return javaRmiRenamed;
    }

    /** The class's Java name, e.g. {@code p.Outer$Inner}. */
    public String className() {
        return className;
    }

    /** The directory or jar the class came from. */
    public Path input() {
        return input;
    }

    /** What happened. */
    public Status status() {
        return status;
    }

    /** Why (for every status), e.g. "declares writeObject(ObjectOutputStream)". */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return status + " " + className + ": " + reason + (javaRmiRenamed ? " (java.rmi renamed to ibis.rmi)" : "")
                + (rmiStub != null ? " (RMI stub " + rmiStub + " and skeleton)" : "");
    }
}
