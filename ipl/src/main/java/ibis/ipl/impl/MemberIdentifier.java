package ibis.ipl.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.Location;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The identifier of one pool member (an Ibis instance). Its {@link #name()} is assigned by the
 * registry when the member joins and is unique within the pool; two identifiers are equal when pool
 * and name are equal. It also carries the implementation's contact data (for TCP: the listening
 * address), which the registry passes around without interpreting it.
 */
public final class MemberIdentifier implements IbisIdentifier {

    private static final long serialVersionUID = 1L;

    /** Upper bound for every length read by {@link #readFrom(DataInput)}. */
    static final int MAX_FIELD_LENGTH = 1 << 16;

    private final String name;
    private final String poolName;
    private final HierarchicalLocation location;
    private final byte[] tag;
    private final String implementationName;
    private final byte[] implementationData;

    public MemberIdentifier(String name, String poolName, HierarchicalLocation location, byte[] tag,
            String implementationName, byte[] implementationData) {
        this.name = name;
        this.poolName = poolName;
        this.location = location;
        this.tag = tag == null ? null : tag.clone();
        this.implementationName = implementationName;
        this.implementationData = implementationData == null ? new byte[0] : implementationData.clone();
    }

    @Override
    public Location location() {
        return location;
    }

    @Override
    public String poolName() {
        return poolName;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public byte[] tag() {
        return tag == null ? null : tag.clone();
    }

    @Override
    public String tagAsString() {
        return tag == null ? null : new String(tag, StandardCharsets.UTF_8);
    }

    /** Nickname of the network implementation this member runs (for example "tcp"). */
    public String implementationName() {
        return implementationName;
    }

    /** The implementation's contact data (opaque to everything but that implementation). */
    public byte[] implementationData() {
        return implementationData.clone();
    }

    public void writeTo(DataOutput out) throws IOException {
        out.writeUTF(name);
        out.writeUTF(poolName);
        location.writeTo(out);
        writeBytes(out, tag);
        out.writeUTF(implementationName);
        writeBytes(out, implementationData);
    }

    public static MemberIdentifier readFrom(DataInput in) throws IOException {
        String name = in.readUTF();
        String pool = in.readUTF();
        HierarchicalLocation location = HierarchicalLocation.readFrom(in);
        byte[] tag = readBytes(in);
        String implementation = in.readUTF();
        byte[] data = readBytes(in);
        return new MemberIdentifier(name, pool, location, tag, implementation, data == null ? new byte[0] : data);
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > MAX_FIELD_LENGTH) {
            throw new IOException("malformed member identifier: field length " + length
                    + " outside 0.." + MAX_FIELD_LENGTH);
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    @Override
    public int compareTo(IbisIdentifier other) {
        int c = poolName.compareTo(other.poolName());
        if (c != 0) {
            return c;
        }
        // Names assigned by the registry are member numbers: order them numerically when possible.
        String otherName = other.name();
        if (name.length() != otherName.length() && isNumber(name) && isNumber(otherName)) {
            return Integer.compare(name.length(), otherName.length());
        }
        return name.compareTo(otherName);
    }

    private static boolean isNumber(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (!Character.isDigit(s.charAt(i))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof IbisIdentifier)) {
            return false;
        }
        IbisIdentifier o = (IbisIdentifier) other;
        return name.equals(o.name()) && poolName.equals(o.poolName());
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + poolName.hashCode();
    }

    @Override
    public String toString() {
        return name + "@" + location;
    }

    /** A short text for logs: name, pool, implementation and the size of its data. */
    public String describe() {
        return "member " + name + " of pool " + poolName + " (" + implementationName + ", "
                + implementationData.length + " bytes of contact data, tag "
                + (tag == null ? "none" : Arrays.toString(tag)) + ")";
    }
}
