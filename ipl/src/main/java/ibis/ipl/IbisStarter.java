package ibis.ipl;

import java.util.Properties;

/**
 * The entry point of an Ibis implementation, found by {@link IbisFactory} with
 * {@link java.util.ServiceLoader}: an implementation lists its starter class in
 * {@code META-INF/services/ibis.ipl.IbisStarter} and gives it a public no-argument constructor.
 *
 * <p>The factory asks every starter it finds whether it {@link #matches} the capabilities and port
 * types the program requires, picks one (the one the user named with {@code ibis.implementation},
 * or else the matching starter of highest {@link #rank()}), and calls {@link #startIbis} on it.
 * When nothing matches, it reports for every starter what {@link #unmatchedIbisCapabilities} and
 * {@link #unmatchedPortTypes} say is missing, so those must agree with {@code matches}.
 *
 * <p>A starter should be cheap to create: it is instantiated every time an Ibis is created, also
 * when it is not chosen. An implementation that cannot run in this JVM at all (for example its
 * native library is missing) says why in {@link #unavailableReason()}: the factory then never
 * selects it and names the reason, because it does not fall back to another implementation when
 * {@code startIbis} fails.
 */
public abstract class IbisStarter {

    private final String nickName;
    private final String iplVersion;
    private final String implementationVersion;

    /**
     * Creates the starter.
     *
     * @param nickName the short name users select the implementation by, for example {@code tcp}
     * @param iplVersion the version of the IPL the implementation was built for
     * @param implementationVersion the version of the implementation
     */
    protected IbisStarter(String nickName, String iplVersion, String implementationVersion) {
        if (nickName == null || nickName.isEmpty()) {
            throw new IllegalArgumentException("an Ibis starter needs a non-empty nickname");
        }
        this.nickName = nickName;
        this.iplVersion = iplVersion;
        this.implementationVersion = implementationVersion;
    }

    /**
     * Returns the short name users select the implementation by.
     *
     * @return the nickname, for example {@code tcp}
     */
    public String getNickName() {
        return nickName;
    }

    /**
     * Returns the version of the IPL the implementation was built for.
     *
     * @return the IPL version
     */
    public String getIplVersion() {
        return iplVersion;
    }

    /**
     * Returns the version of the implementation.
     *
     * @return the implementation version
     */
    public String getImplementationVersion() {
        return implementationVersion;
    }

    /**
     * Returns how much this implementation is preferred when the user did not name one: among the
     * matching starters the one with the highest rank is chosen, ties are broken by nickname
     * order. The default is 0; an implementation that is faster than plain TCP where it works
     * should return more.
     *
     * @return the rank, higher is preferred
     */
    public int rank() {
        return 0;
    }

    /**
     * Why this implementation cannot run in this JVM, for example because its native library is
     * missing or cannot be loaded; null (the default) when it can. A starter that returns a reason
     * is never selected: when it was named with {@link IbisProperties#IMPLEMENTATION}, creating the
     * Ibis fails with this reason; otherwise the factory chooses among the other implementations
     * and lists this one as unavailable, with the reason, when none fits. Called every time an Ibis
     * is created, so it should be cheap after the first call.
     *
     * @return the reason, or null when the implementation can be used here
     */
    public String unavailableReason() {
        return null;
    }

    /**
     * Tells whether this implementation offers all of the given Ibis capabilities and supports all
     * of the given port types, and can run here.
     *
     * @param capabilities the Ibis capabilities the program requires
     * @param portTypes the port types the program will use
     * @return true when the implementation can be used
     */
    public abstract boolean matches(IbisCapabilities capabilities, PortType[] portTypes);

    /**
     * Returns the required Ibis capabilities this implementation does not offer.
     *
     * @param capabilities the Ibis capabilities the program requires
     * @param portTypes the port types the program will use
     * @return the missing capabilities; empty when none are missing
     */
    public abstract CapabilitySet unmatchedIbisCapabilities(IbisCapabilities capabilities, PortType[] portTypes);

    /**
     * Returns the port types this implementation does not support.
     *
     * @param capabilities the Ibis capabilities the program requires
     * @param portTypes the port types the program will use
     * @return the unsupported port types; empty when all are supported
     */
    public abstract PortType[] unmatchedPortTypes(IbisCapabilities capabilities, PortType[] portTypes);

    /**
     * Creates and starts an Ibis instance of this implementation: joins the pool through the
     * registry and gets ready to create ports. Blocks until the instance has joined.
     *
     * @param factory the factory that chose this starter; an implementation that stacks on another
     *        one may use it to create the underlying Ibis
     * @param handler where registry events go once they are enabled; may be null
     * @param userProperties the complete, resolved properties (see {@link IbisProperties})
     * @param capabilities the Ibis capabilities the program requires
     * @param credentials credentials for joining the pool; may be null
     * @param applicationTag an application-chosen tag for this instance, visible in its
     *        {@link IbisIdentifier}; may be null
     * @param portTypes the port types the program will use
     * @param specifiedSubImplementation the part of {@code ibis.implementation} after a {@code :}, or null
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when the instance cannot be started
     */
    public abstract Ibis startIbis(IbisFactory factory, RegistryEventHandler handler, Properties userProperties,
            IbisCapabilities capabilities, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedSubImplementation) throws IbisCreationFailedException;

    /** The nickname, class and versions, for log and error messages. */
    @Override
    public String toString() {
        return nickName + " (" + getClass().getName() + ", IPL " + iplVersion + ", version "
                + implementationVersion + ", rank " + rank() + ")";
    }
}
