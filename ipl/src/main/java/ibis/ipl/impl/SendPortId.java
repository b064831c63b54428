package ibis.ipl.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.SendPortIdentifier;

import java.util.Objects;

/**
 * Identifies a send port: the member it lives in plus its name. Two identifiers are equal when
 * member and name are equal (also across implementations of {@link SendPortIdentifier}).
 */
public final class SendPortId implements SendPortIdentifier {

    private static final long serialVersionUID = 1L;

    private final MemberIdentifier ibis;
    private final String name;

    /**
     * @param ibis the member the port lives in
     * @param name the port's name, unique within that member
     */
    public SendPortId(MemberIdentifier ibis, String name) {
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
        if (!(other instanceof SendPortIdentifier)) {
            return false;
        }
        SendPortIdentifier o = (SendPortIdentifier) other;
        IbisIdentifier otherIbis = o.ibisIdentifier();
        return name.equals(o.name()) && ibis.equals(otherIbis);
    }

    @Override
    public String toString() {
        return "send port '" + name + "' of " + ibis;
    }
}
