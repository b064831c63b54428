package ibis.rmi.testing;

/** A checked application exception thrown by a remote method. */
public class TestFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message the message */
    public TestFailure(String message) {
        super(message);
    }
}
