package ibis.gmi;

/**
 * Forwards each invocation to every member, with parameters made per member by a
 * {@link Personalizer}; each member's parameters are serialized only in the message to it.
 */
public class PersonalizedInvocation extends InvocationScheme {

    private final Personalizer personalizer;

    /**
     * @param p the personalizer
     * @throws ConfigurationException when {@code p} is null
     */
    public PersonalizedInvocation(Personalizer p) throws ConfigurationException {
        super(I_PERSONAL);
        if (p == null) {
            throw new ConfigurationException("PersonalizedInvocation: no personalizer");
        }
        personalizer = p;
    }

    /**
     * @return the personalizer
     */
    public Personalizer personalizer() {
        return personalizer;
    }
}
