package ibis.rmi.testing;

/** A subclass of {@link Payload}, passed where a Payload is declared. */
public class SpecialPayload extends Payload {
    private static final long serialVersionUID = 1L;
    public String extra;

    public SpecialPayload(int value, String extra) {
        super(value, "special", null);
        this.extra = extra;
    }
}
