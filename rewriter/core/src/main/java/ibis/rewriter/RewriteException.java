package ibis.rewriter;

/**
 * The rewriter could not do its work: an input that cannot be read or written, a class file that
 * cannot be parsed, or code generation that failed. The message names the class or file.
 */
public final class RewriteException extends Exception {

    private static final long serialVersionUID = 1L;

    /** A failure with a message naming the class or file. */
    public RewriteException(String message) {
        super(message);
    }

    /** A failure with a message naming the class or file, and its cause. */
    public RewriteException(String message, Throwable cause) {
        super(message, cause);
    }
}
