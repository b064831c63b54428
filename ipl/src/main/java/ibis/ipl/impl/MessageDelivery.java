package ibis.ipl.impl;

import ibis.ipl.ReadMessage;

import java.io.IOException;

/**
 * How a receive port gets its messages to the application, one implementation per receive mode,
 * chosen once when the port is made and kept in a final field: who reads the connections, how a
 * message reaches a receive call or an upcall, and how the port drains when it closes. The port
 * ({@link AbstractReceivePort}) keeps what all modes share (connections, the message slot, the
 * lock); a delivery keeps what only its mode needs. Methods whose name ends in {@code Locked} are
 * called with the port's lock held.
 */
interface MessageDelivery {

    /** A connection was admitted and added to the port's connections. */
    default void connectionAddedLocked(ReceiveConnection c) {
    }

    /**
     * The acceptance of a new connection was sent; called in the pooled thread that admitted it,
     * which a mode with reader threads goes on reading the connection in.
     */
    default void connectionAccepted(ReceiveConnection c) {
    }

    /** A connection ended: it leaves the mode's queues. */
    default void connectionRemovedLocked(ReceiveConnection c) {
    }

    /** Upcalls were enabled. */
    default void upcallsEnabledLocked() {
    }

    /**
     * An explicit receive ({@code poll} false) or {@code poll()}. The upcall modes are reached by
     * {@code poll()} only (the port refuses {@code receive()} for them) and return null.
     *
     * @param deadline System.nanoTime() deadline, or 0 for none
     * @return the message, or null for a poll that found none
     */
    ReadMessage receive(long deadline, boolean poll) throws IOException;

    /**
     * Delivers the messages that have arrived to the upcall in the calling thread (poll-upcall
     * mode); other modes do nothing.
     *
     * @return the number of upcalls made
     */
    default int pollUpcalls() {
        return 0;
    }

    /** The periodic look at connections nobody reads now (see {@link AbstractReceivePort#checkIdleConnections}). */
    default void checkIdleConnections() {
    }

    /**
     * The live message of {@code c} was finished and the slot released: lets the connection's
     * reading go on. On the message path: allocates nothing.
     */
    void messageFinishedLocked(ReceiveConnection c);

    /** The port starts closing: wakes receive calls blocked outside the port's lock. */
    default void closing() {
    }

    /**
     * Closing: handles what still arrives until the senders disconnected or the deadline passed.
     *
     * @param deadline System.nanoTime() deadline, or Long.MAX_VALUE for none
     */
    void drain(long deadline) throws IOException;

    /** The port is closed: wakes the mode's parked readers. */
    default void closedLocked() {
    }

    /** The port is closed and its connections ended: releases the mode's resources. */
    default void closed() {
    }
}
