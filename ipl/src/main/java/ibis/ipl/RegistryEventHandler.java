package ibis.ipl;

/**
 * Receives the events of a pool: members joining, leaving and dying, signals, election results,
 * and the pool being closed or terminated. It is given to {@link IbisFactory#createIbis}; events
 * are delivered only after {@link Registry#enableEvents()} and not after
 * {@link Registry#disableEvents()} (they are queued meanwhile).
 *
 * <p>Threading: the events are delivered by an Ibis thread, one at a time and in the order the
 * registry produced them; the next event waits until the handler returns. A handler should
 * therefore return quickly and must not wait for a later event.
 *
 * <p>Which events occur depends on the {@link IbisCapabilities} asked for: membership events need
 * {@link IbisCapabilities#MEMBERSHIP_TOTALLY_ORDERED} or {@link IbisCapabilities#MEMBERSHIP_UNRELIABLE},
 * signals {@link IbisCapabilities#SIGNALS}, and so on.
 */
public interface RegistryEventHandler {

    /**
     * A member joined the pool. With totally ordered membership every member, this one included, is
     * told about every join in the same order, starting with those that joined earlier.
     *
     * @param joinedIbis the new member
     */
    void joined(IbisIdentifier joinedIbis);

    /**
     * A member left the pool by ending its Ibis instance.
     *
     * @param leftIbis the member that left
     */
    void left(IbisIdentifier leftIbis);

    /**
     * A member died: it crashed, stopped answering, or was declared dead with
     * {@link Registry#assumeDead}.
     *
     * @param corpse the member that died
     */
    void died(IbisIdentifier corpse);

    /**
     * A member sent this instance a signal with {@link Registry#signal}.
     *
     * @param signal the signal text
     * @param source the member that sent it
     */
    void gotSignal(String signal, IbisIdentifier source);

    /**
     * An election was decided, or its winner changed because the previous winner left or died.
     *
     * @param electionName the name of the election
     * @param winner the winner, or null when the previous winner is gone and no new one is known yet
     */
    void electionResult(String electionName, IbisIdentifier winner);

    /** The pool is closed: all {@code ibis.pool.size} members of a closed-world pool have joined. */
    void poolClosed();

    /**
     * The pool was terminated with {@link Registry#terminate()}.
     *
     * @param source the member that terminated it
     */
    void poolTerminated(IbisIdentifier source);
}
