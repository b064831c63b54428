package ibis.rewriter;

import java.util.List;

/** The outcome of one rewriter run: one {@link ClassOutcome} per input class, and warnings. */
public final class RewriteResult {

    private final List<ClassOutcome> classes;
    private final List<String> warnings;

    RewriteResult(List<ClassOutcome> classes, List<String> warnings) {
        this.classes = List.copyOf(classes);
        this.warnings = List.copyOf(warnings);
    }

    /** Every input class, superclasses before their subclasses. */
    public List<ClassOutcome> classes() {
        return classes;
    }

    /** Things the user should know (e.g. an option that is not implemented yet). */
    public List<String> warnings() {
        return warnings;
    }

    /** How many classes have this status. */
    public int count(ClassOutcome.Status status) {
        int n = 0;
        for (ClassOutcome c : classes) {
            if (c.status() == status) {
                n++;
            }
        }
        return n;
    }

    /** How many classes the java.rmi pass renamed. */
    public int javaRmiRenamed() {
        int n = 0;
        for (ClassOutcome c : classes) {
            if (c.javaRmiRenamed()) {
                n++;
            }
        }
        return n;
    }

    /** How many remote classes got a build-time RMI stub and skeleton. */
    public int rmiStubs() {
        int n = 0;
        for (ClassOutcome c : classes) {
            if (c.rmiStub() != null) {
                n++;
            }
        }
        return n;
    }

    /** The outcome of the class with this Java name (the first, if several inputs hold it), or null. */
    public ClassOutcome outcome(String className) {
        for (ClassOutcome c : classes) {
            if (c.className().equals(className)) {
                return c;
            }
        }
        return null;
    }
}
