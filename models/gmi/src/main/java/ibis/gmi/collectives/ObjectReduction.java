package ibis.gmi.collectives;

import java.io.Serializable;

/**
 * A user-supplied reduction of objects. It must be associative; it need not be commutative: the
 * library always passes the part of the lower-ranked members first.
 *
 * @param <T> the type of the values
 */
@FunctionalInterface
public interface ObjectReduction<T> extends Serializable {

    /**
     * @param lower the combined value of lower-ranked members
     * @param higher the combined value of higher-ranked members
     * @return the combination; may be one of the arguments
     */
    T combine(T lower, T higher);
}
