package ibis.impl.tcp;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The contact data a TCP Ibis publishes in its member identifier: the address and port of its
 * listening socket. Coded form (big-endian):
 * {@code version:byte(1)  addressLength:byte(4|16)  address[addressLength]  port:unsigned short}.
 */
public final class TcpContactData {

    private static final byte VERSION = 1;

    private final InetSocketAddress address;

    /** @param address the listening socket's address (resolved) */
    public TcpContactData(InetSocketAddress address) {
        this.address = Objects.requireNonNull(address, "address");
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address " + address);
        }
    }

    /** The listening socket's address. */
    public InetSocketAddress address() {
        return address;
    }

    /** The coded form, for {@link ibis.ipl.impl.MemberIdentifier#implementationData()}. */
    public byte[] toBytes() {
        byte[] ip = address.getAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(2 + ip.length + 2);
        b.put(VERSION).put((byte) ip.length).put(ip).putShort((short) address.getPort());
        return b.array();
    }

    /**
     * Parses the coded form.
     *
     * @throws IOException when the bytes are not TCP contact data of a known version
     */
    public static TcpContactData parse(byte[] data) throws IOException {
        if (data == null || data.length < 2) {
            throw new StreamCorruptedException("TCP contact data too short");
        }
        if (data[0] != VERSION) {
            throw new StreamCorruptedException("TCP contact data of unknown version " + data[0]);
        }
        int length = data[1];
        if ((length != 4 && length != 16) || data.length != 2 + length + 2) {
            throw new StreamCorruptedException("malformed TCP contact data (" + data.length + " bytes, address length "
                    + length + ")");
        }
        byte[] ip = new byte[length];
        System.arraycopy(data, 2, ip, 0, length);
        int port = ((data[2 + length] & 0xff) << 8) | (data[3 + length] & 0xff);
        return new TcpContactData(new InetSocketAddress(InetAddress.getByAddress(ip), port));
    }

    @Override
    public String toString() {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
