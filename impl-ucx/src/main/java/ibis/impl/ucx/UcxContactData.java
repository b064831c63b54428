package ibis.impl.ucx;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The contact data a UCX Ibis publishes in its member identifier: the address of its UCP worker
 * and the address of its side channel (the TCP socket where connections are set up). Coded form
 * (big-endian; see impl-ucx/README.md):
 * <pre>
 * version:byte(1)  workerAddressLength:int  workerAddress[workerAddressLength]
 * ipLength:byte(4|16)  ip[ipLength]  port:unsigned short
 * </pre>
 * The bytes come from the network (through the registry): {@link #parse} checks every length
 * before it allocates.
 */
final class UcxContactData {

    private static final byte VERSION = 1;

    /** The longest worker address accepted (UCX's are a few hundred bytes). */
    static final int MAX_WORKER_ADDRESS = 1 << 16;

    private final byte[] workerAddress;
    private final InetSocketAddress sideAddress;

    /**
     * @param workerAddress the UCP worker's address ({@code ucp_worker_get_address})
     * @param sideAddress the side channel's listening address (resolved)
     */
    UcxContactData(byte[] workerAddress, InetSocketAddress sideAddress) {
        this.workerAddress = Objects.requireNonNull(workerAddress, "workerAddress").clone();
        this.sideAddress = Objects.requireNonNull(sideAddress, "sideAddress");
        if (workerAddress.length == 0 || workerAddress.length > MAX_WORKER_ADDRESS) {
            throw new IllegalArgumentException("worker address of " + workerAddress.length + " bytes");
        }
        if (sideAddress.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address " + sideAddress);
        }
    }

    /** The UCP worker's address. */
    byte[] workerAddress() {
        return workerAddress.clone();
    }

    /** The side channel's listening address. */
    InetSocketAddress sideAddress() {
        return sideAddress;
    }

    /** The coded form, for {@link ibis.ipl.impl.MemberIdentifier#implementationData()}. */
    byte[] toBytes() {
        byte[] ip = sideAddress.getAddress().getAddress();
        ByteBuffer b = ByteBuffer.allocate(1 + 4 + workerAddress.length + 1 + ip.length + 2);
        b.put(VERSION).putInt(workerAddress.length).put(workerAddress);
        b.put((byte) ip.length).put(ip).putShort((short) sideAddress.getPort());
        return b.array();
    }

    /**
     * Parses the coded form.
     *
     * @throws IOException when the bytes are not UCX contact data of a known version
     */
    static UcxContactData parse(byte[] data) throws IOException {
        if (data == null || data.length < 1 + 4) {
            throw new StreamCorruptedException("UCX contact data too short");
        }
        ByteBuffer b = ByteBuffer.wrap(data);
        byte version = b.get();
        if (version != VERSION) {
            throw new StreamCorruptedException("UCX contact data of unknown version " + version);
        }
        int workerLength = b.getInt();
        if (workerLength <= 0 || workerLength > MAX_WORKER_ADDRESS || workerLength > b.remaining() - 1) {
            throw new StreamCorruptedException("malformed UCX contact data (" + data.length
                    + " bytes, worker address length " + workerLength + ")");
        }
        byte[] worker = new byte[workerLength];
        b.get(worker);
        int ipLength = b.get();
        if ((ipLength != 4 && ipLength != 16) || b.remaining() != ipLength + 2) {
            throw new StreamCorruptedException("malformed UCX contact data (" + data.length + " bytes, address length "
                    + ipLength + ")");
        }
        byte[] ip = new byte[ipLength];
        b.get(ip);
        int port = b.getShort() & 0xffff;
        if (port == 0) {
            throw new StreamCorruptedException("malformed UCX contact data (port 0)");
        }
        return new UcxContactData(worker, new InetSocketAddress(InetAddress.getByAddress(ip), port));
    }

    @Override
    public String toString() {
        return sideAddress.getAddress().getHostAddress() + ":" + sideAddress.getPort() + " (worker address of "
                + workerAddress.length + " bytes)";
    }
}
