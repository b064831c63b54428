package ibis.gmi;

/** A scheme, or a combination of schemes, that a group method cannot be configured with. */
public class ConfigurationException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and with which method or scheme
     */
    public ConfigurationException(String message) {
        super(message);
    }
}
