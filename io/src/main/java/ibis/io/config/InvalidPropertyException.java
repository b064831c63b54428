package ibis.io.config;

/**
 * A configuration property has a value that it does not accept. The message names the property,
 * the value and what is accepted. The IPL reports it as an {@code IbisConfigurationException} (the
 * API's type, which the io layer cannot name), with the same message.
 */
public final class InvalidPropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String value;

    /**
     * Creates the exception.
     *
     * @param property the property's name
     * @param value the value that was set
     * @param accepted what the property accepts (may be null)
     * @param cause the parser's exception (may be null)
     */
    public InvalidPropertyException(String property, String value, String accepted, Throwable cause) {
        super("property " + property + " = '" + value + "' is not accepted" + (accepted == null ? "" : ": expected "
                + accepted), cause);
        this.property = property;
        this.value = value;
    }

    /** The property's name. */
    public String property() {
        return property;
    }

    /** The value that was set. */
    public String value() {
        return value;
    }
}
