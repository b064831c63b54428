package ibis.ipl;

/**
 * Identifies one Ibis instance (one member of a pool). Identifiers are handed out by the registry
 * when an instance joins and are unique within the pool; they are equal when they name the same
 * member, can be sent to other members (they are serializable), and are ordered so that all
 * members sort a set of identifiers the same way.
 *
 * <p>Implementations are immutable and may be shared between threads.
 */
public interface IbisIdentifier extends java.io.Serializable, Comparable<IbisIdentifier> {

    /**
     * Returns where the instance runs (see {@link IbisProperties#LOCATION}).
     *
     * @return the location
     */
    Location location();

    /**
     * Returns the name of the pool the instance is a member of.
     *
     * @return the pool name
     */
    String poolName();

    /**
     * Returns the name of the instance, unique within its pool.
     *
     * @return the member name
     */
    String name();

    /**
     * Returns the application tag given at creation, decoded as UTF-8.
     *
     * @return the tag as text, or null when there is none
     */
    String tagAsString();

    /**
     * Returns the application tag given at creation.
     *
     * @return a copy of the tag, or null when there is none
     */
    byte[] tag();

    /**
     * Returns a short human-readable description, containing at least the name.
     *
     * @return the description
     */
    @Override
    String toString();
}
