package ibis.ipl;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The capabilities a program requires of an Ibis instance as a whole (as opposed to the
 * capabilities of its ports, see {@link PortType}). They mostly concern the registry, the service
 * that keeps track of the members of a pool. Passed to {@link IbisFactory#createIbis}; an
 * implementation is only chosen when it offers all of them.
 *
 * <p>Instances are immutable.
 */
public final class IbisCapabilities extends CapabilitySet {

    /**
     * The pool has a fixed size, given by the {@code ibis.pool.size} property;
     * {@link Registry#waitUntilPoolClosed()} returns once that many members have joined, and no one
     * can join after that.
     */
    public final static String CLOSED_WORLD = "closed.world";

    /** Members may send each other signals with {@link Registry#signal}, delivered as {@code gotSignal}. */
    public final static String SIGNALS = "signals";

    /** The pool can be terminated with {@link Registry#terminate()} and waited for. */
    public final static String TERMINATION = "termination";

    /** Elections are supported but may, in rare failure cases, give different members different winners. */
    public final static String ELECTIONS_UNRELIABLE = "elections.unreliable";

    /**
     * Elections are decided once per name: every member gets the same winner (the first candidate);
     * a new winner is only chosen when the winner leaves or dies.
     */
    public final static String ELECTIONS_STRICT = "elections.strict";

    /** Members are told about joins, leaves and deaths, but possibly late, out of order or not at all. */
    public final static String MEMBERSHIP_UNRELIABLE = "membership.unreliable";

    /**
     * Every member is told about every join, leave and death, all members in the same order, the
     * member's own join included.
     */
    public final static String MEMBERSHIP_TOTALLY_ORDERED = "membership.totally.ordered";

    /** Members may join and leave while the program runs (the pool is not closed). */
    public final static String MALLEABLE = "malleable";

    /**
     * Creates the set of required Ibis capabilities.
     *
     * @param capabilities the capabilities, for example {@link #ELECTIONS_STRICT}
     */
    public IbisCapabilities(String... capabilities) {
        super(capabilities);
    }

    /**
     * Creates the capability set described by properties, read as a capability file (see
     * {@link CapabilitySet}: every key whose value is not {@code false}, plus the comma-separated
     * values of the key {@code capabilities}).
     *
     * @param properties the properties
     */
    protected IbisCapabilities(Properties properties) {
        super(fromProperties(properties));
    }

    /**
     * Creates Ibis capabilities holding the capabilities of another set.
     *
     * @param capabilitySet the capabilities to copy
     */
    protected IbisCapabilities(CapabilitySet capabilitySet) {
        super(capabilitySet);
    }

    /**
     * Loads Ibis capabilities from a capability file on the class path or in the file system (see
     * {@link CapabilitySet#load(String)}).
     *
     * @param capabilityFileName the resource or file name
     * @return the capabilities in the file
     * @throws IOException when the file is not found or cannot be read
     */
    public static IbisCapabilities load(String capabilityFileName) throws IOException {
        return new IbisCapabilities(readCapabilityFile(capabilityFileName));
    }

    /**
     * Reads Ibis capabilities from a stream in capability file format (see {@link CapabilitySet}).
     * The stream is not closed.
     *
     * @param input where to read from
     * @return the capabilities in the stream
     * @throws IOException when the stream cannot be read
     */
    public static IbisCapabilities load(InputStream input) throws IOException {
        return new IbisCapabilities(readCapabilities(input));
    }
}
