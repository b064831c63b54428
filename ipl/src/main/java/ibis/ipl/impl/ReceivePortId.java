package ibis.ipl.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReceivePortIdentifier;

import java.util.Objects;

/**
 * Identifies a receive port: the member it lives in plus its name. Two identifiers are equal when
 * member and name are equal (also across implementations of {@link ReceivePortIdentifier}).
 */
public final class ReceivePortId implements ReceivePortIdentifier {

    private static final long serialVersionUID = 1L;

    /**
     * Start of the generated names of anonymous receive ports (created with name null). Names of this
     * form are refused for named ports and by {@code connect(IbisIdentifier, String)}, so an
     * anonymous port is reached only through its identifier, as in IPL 2.x.
     */
    static final String ANONYMOUS_PREFIX = "<anonymous receive port ";

    /** The generated name of the {@code n}-th anonymous receive port of a member. */
    static String anonymousName(long n) {
        return ANONYMOUS_PREFIX + n + ">";
    }

    /** True for a name of the form reserved for anonymous receive ports. */
    static boolean isAnonymousName(String name) {
        return name.startsWith(ANONYMOUS_PREFIX);
    }

    private final MemberIdentifier ibis;
    private final String name;

    /**
     * @param ibis the member the port lives in
     * @param name the port's name, unique within that member
     */
    public ReceivePortId(MemberIdentifier ibis, String name) {
        this.ibis = Objects.requireNonNull(ibis, "ibis");
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public MemberIdentifier ibisIdentifier() {
        return ibis;
    }

    @Override
    public int hashCode() {
        return ibis.hashCode() * 31 + name.hashCode();
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof ReceivePortIdentifier)) {
            return false;
        }
        ReceivePortIdentifier o = (ReceivePortIdentifier) other;
        IbisIdentifier otherIbis = o.ibisIdentifier();
        return name.equals(o.name()) && ibis.equals(otherIbis);
    }

    @Override
    public String toString() {
        return "receive port '" + name + "' of " + ibis;
    }
}
