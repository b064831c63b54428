package ibis.ipl;

import java.io.IOException;

/**
 * The registry of a pool: who the members are, elections, signals, sequence numbers and tokens,
 * and the closing and termination of the pool. Every {@link Ibis} instance has one
 * ({@link Ibis#registry()}); what it supports depends on the {@link IbisCapabilities} the instance
 * was created with. Calling a method whose capability was not asked for gives an
 * {@link IbisConfigurationException}.
 *
 * <p>Membership can be followed in two ways: by events to the {@link RegistryEventHandler} (after
 * {@link #enableEvents()}), or by polling {@link #joinedIbises()}, {@link #leftIbises()},
 * {@link #diedIbises()} and {@link #receivedSignals()}, which return what happened since the
 * previous call, and only when there is no event handler.
 *
 * <p>The methods may be called from any thread. Methods that talk to the registry server block
 * until it answered and throw an {@link IOException} when it cannot be reached.
 */
public interface Registry extends Manageable {

    /**
     * Takes part in an election and waits for its result. With
     * {@link IbisCapabilities#ELECTIONS_STRICT} an election is decided once per name: the first
     * candidate wins and every later candidate gets the same winner; a new winner is chosen only
     * when the winner leaves or dies.
     *
     * @param electionName the name of the election
     * @return the winner (possibly this instance)
     * @throws IOException when the registry cannot be reached
     */
    IbisIdentifier elect(String electionName) throws IOException;

    /**
     * Takes part in an election, waiting at most a given time for its result.
     *
     * @param electionName the name of the election
     * @param timeoutMillis how long to wait at most, in milliseconds
     * @return the winner, or null when none was known in time
     * @throws IOException when the registry cannot be reached
     */
    IbisIdentifier elect(String electionName, long timeoutMillis) throws IOException;

    /**
     * Waits for the result of an election without being a candidate.
     *
     * @param electionName the name of the election
     * @return the winner
     * @throws IOException when the registry cannot be reached
     */
    IbisIdentifier getElectionResult(String electionName) throws IOException;

    /**
     * Waits at most a given time for the result of an election without being a candidate.
     *
     * @param electionName the name of the election
     * @param timeoutMillis how long to wait at most, in milliseconds: 0 waits as long as it takes,
     *        a negative value (such as -1) does not wait and returns the winner known now
     * @return the winner, or null when none was known in time
     * @throws IOException when the registry cannot be reached
     */
    IbisIdentifier getElectionResult(String electionName, long timeoutMillis) throws IOException;

    /**
     * Tells the registry that a member may be dead (for example because a connection to it broke).
     * The registry checks, and when the member is indeed gone it is reported {@code died} to all.
     *
     * @param ibisIdentifier the member that may be dead
     * @throws IOException when the registry cannot be reached
     */
    void maybeDead(IbisIdentifier ibisIdentifier) throws IOException;

    /**
     * Tells the registry that a member is dead, without a check; it is reported {@code died} to
     * all members and removed from the pool.
     *
     * @param ibisIdentifier the member to declare dead
     * @throws IOException when the registry cannot be reached
     */
    void assumeDead(IbisIdentifier ibisIdentifier) throws IOException;

    /**
     * Sends a signal to some members; each gets a {@code gotSignal} event (or finds it in
     * {@link #receivedSignals()}). Needs {@link IbisCapabilities#SIGNALS}.
     *
     * @param signal the signal text
     * @param ibisIdentifiers the members to signal; null signals every current member of the pool,
     *        this one included
     * @throws IOException when the registry cannot be reached
     */
    void signal(String signal, IbisIdentifier... ibisIdentifiers) throws IOException;

    /**
     * Returns the members that joined since the previous call. Only when there is no event handler.
     *
     * @return the new members, in the order they joined
     */
    IbisIdentifier[] joinedIbises();

    /**
     * Returns the members that left since the previous call. Only when there is no event handler.
     *
     * @return the members that left
     */
    IbisIdentifier[] leftIbises();

    /**
     * Returns the members that died since the previous call. Only when there is no event handler.
     *
     * @return the members that died
     */
    IbisIdentifier[] diedIbises();

    /**
     * Returns the signals received since the previous call. Only when there is no event handler.
     *
     * @return the signal texts
     */
    String[] receivedSignals();

    /**
     * Returns the size of the pool given by {@link IbisProperties#POOL_SIZE}; only meaningful with
     * {@link IbisCapabilities#CLOSED_WORLD}.
     *
     * @return the pool size, or -1 when the pool has no fixed size
     */
    int getPoolSize();

    /**
     * Returns the name of the pool.
     *
     * @return the pool name
     */
    String getPoolName();

    /**
     * Waits until the pool is closed: until {@link IbisProperties#POOL_SIZE} members have joined,
     * or until a member terminated the pool before that. Needs {@link IbisCapabilities#CLOSED_WORLD}
     * (also in a pool that was terminated: in an open world there is nothing to wait for).
     */
    void waitUntilPoolClosed();

    /**
     * Tells whether the pool is closed, that is, takes no new members.
     *
     * @return true once all members of a closed-world pool have joined, or once the pool (open or
     *         closed world) was terminated
     */
    boolean isClosed();

    /** Starts (or resumes) delivering events to the {@link RegistryEventHandler}, oldest first. */
    void enableEvents();

    /** Stops delivering events; they are kept and delivered after {@link #enableEvents()}. */
    void disableEvents();

    /**
     * Returns the next number of a pool-wide sequence: every call, by any member, gets a different
     * number, and later calls get higher numbers.
     *
     * @param name the name of the sequence
     * @return the next number
     * @throws IOException when the registry cannot be reached
     */
    long getSequenceNumber(String name) throws IOException;

    /**
     * Adds tokens under a name, to be taken with {@link #getToken(String)} by any member of the
     * pool. The registry only counts the tokens of each name; they stay in the pool when the member
     * that added them leaves or dies.
     *
     * @param name the name of the tokens
     * @param count how many tokens to add; must not be negative
     * @throws IllegalArgumentException when {@code count} is negative
     * @throws IOException when the registry cannot be reached or refuses the tokens
     */
    void addTokens(String name, int count) throws IOException;

    /**
     * Takes one token of a name if one is left, and never waits for one: as in IPL 2.x, a caller
     * that finds none gets null at once and may try again later. Every token added with
     * {@link #addTokens(String, int)} is taken by exactly one call.
     *
     * @param name the name of the tokens
     * @return {@code name} itself when a token was taken, or null when none of that name was left
     * @throws IOException when the registry cannot be reached
     */
    String getToken(String name) throws IOException;

    /**
     * Terminates the pool: every member gets a {@code poolTerminated} event and
     * {@link #waitUntilTerminated()} returns everywhere. As in IPL 2.x, this also closes the pool
     * when it is not closed yet: nobody can join it any more, {@link #isClosed()} becomes true, and
     * every member gets {@code poolClosed} just before {@code poolTerminated}. Only the first call in
     * the pool has an effect. Needs {@link IbisCapabilities#TERMINATION}.
     *
     * @throws IOException when the registry cannot be reached
     */
    void terminate() throws IOException;

    /**
     * Tells whether the pool has been terminated.
     *
     * @return true after {@link #terminate()} was called by any member
     */
    boolean hasTerminated();

    /**
     * Waits until the pool is terminated. Needs {@link IbisCapabilities#TERMINATION}.
     *
     * @return the member that terminated the pool
     */
    IbisIdentifier waitUntilTerminated();
}
