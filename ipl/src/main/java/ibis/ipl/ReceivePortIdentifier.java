package ibis.ipl;

/**
 * Identifies one receive port: its name and the Ibis instance it lives in. Identifiers can be sent to
 * other members (they are serializable) and are equal when they denote the same port.
 * A send port connects to a receive port by its identifier, or by Ibis identifier and name.
 *
 * <p>Implementations are immutable and may be shared between threads.
 */
public interface ReceivePortIdentifier extends java.io.Serializable {

    /**
     * Returns the name of the port, as given when it was created.
     *
     * @return the port name
     */
    String name();

    /**
     * Returns the Ibis instance the port lives in.
     *
     * @return the identifier of that instance
     */
    IbisIdentifier ibisIdentifier();

    /**
     * Returns a hash code consistent with {@link #equals(Object)}.
     *
     * @return the hash code
     */
    @Override
    int hashCode();

    /**
     * Tells whether another object identifies the same port: same name in the same Ibis instance.
     *
     * @param other the object to compare with
     * @return true when both identify the same port
     */
    @Override
    boolean equals(Object other);
}
