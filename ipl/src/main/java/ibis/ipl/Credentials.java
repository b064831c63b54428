package ibis.ipl;

import java.io.Serializable;

/**
 * Marker for credentials an Ibis instance presents when it joins a pool (passed to
 * {@link IbisFactory#createIbis}). What they contain and whether they are checked is up to the
 * registry implementation; the central registry does not check them. They must be serializable
 * because they may be sent to the registry server.
 */
public interface Credentials extends Serializable {
}
