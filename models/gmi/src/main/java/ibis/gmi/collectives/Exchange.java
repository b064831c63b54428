package ibis.gmi.collectives;

import ibis.gmi.GroupInterface;

/**
 * The group interface the collectives library sends its point-to-point messages through. Public
 * only because GMI generates a stub for it; applications do not use it.
 */
public interface Exchange extends GroupInterface {

    /**
     * Delivers one message of a collective.
     *
     * @param from the sender's member rank
     * @param seq the sender's sequence number for this receiver (0, 1, 2, ...)
     * @param payload an array (primitive or {@code Object[]}) or an empty {@code int[]}
     */
    void put(int from, int seq, Object payload);
}
