package ibis.run;

/** A command line that {@code ibis-run} cannot carry out; the message says what is wrong with it. */
public final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    /** Creates the exception with the message shown to the user before the usage. */
    public UsageException(String message) {
        super(message);
    }
}
