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

    ClassOutcome(String className, Path input, Status status, String reason) {
        this(className, input, status, reason, false);
    }

    ClassOutcome(String className, Path input, Status status, String reason, boolean javaRmiRenamed) {
        this.className = className;
        this.input = input;
        this.status = status;
        this.reason = reason;
        this.javaRmiRenamed = javaRmiRenamed;
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
        return status + " " + className + ": " + reason + (javaRmiRenamed ? " (java.rmi renamed to ibis.rmi)" : "");
    }
}
