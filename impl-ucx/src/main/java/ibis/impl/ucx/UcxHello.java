package ibis.impl.ucx;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StreamCorruptedException;

/**
 * The set-up of a UCX connection on the side channel (a TCP socket), before any UCX message. The
 * connecting side sends a request, the accepting side answers with one reply; afterwards the socket
 * carries nothing but the {@link UcxConnection#SOURCE_CLOSED} byte and tells by closing that the
 * peer is gone. Big-endian (see impl-ucx/README.md):
 * <pre>
 * request = magic:int('IBUC')  version:byte(1)  connectionId:int  window:int  errorMode:byte
 *           workerAddressLength:int  workerAddress[workerAddressLength]
 * reply   = magic:int('IBUA')  version:byte(1)  connectionId:int  window:int  errorMode:byte
 * </pre>
 * {@code connectionId} is the sender's local id of the connection (the receiving half of the tags
 * it receives), {@code window} the credit window of the sender's sink, {@code errorMode} the
 * sender's UCX endpoint error mode (0 none, 1 peer: UCX refuses endpoints whose modes differ, so
 * both sides must use the same). Every field is checked before anything is allocated from it.
 */
final class UcxHello {

    static final int REQUEST_MAGIC = 0x49425543; // "IBUC"
    static final int REPLY_MAGIC = 0x49425541; // "IBUA"
    static final byte VERSION = 1;

    /** What the connecting side sends. */
    record Request(int connectionId, int window, int errorMode, byte[] workerAddress) {
    }

    /** What the accepting side answers. */
    record Reply(int connectionId, int window, int errorMode) {
    }

    private UcxHello() {
    }

    static void writeRequest(OutputStream stream, Request request) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(REQUEST_MAGIC);
        out.writeByte(VERSION);
        out.writeInt(request.connectionId());
        out.writeInt(request.window());
        out.writeByte(request.errorMode());
        out.writeInt(request.workerAddress().length);
        out.write(request.workerAddress());
        out.flush();
    }

    static Request readRequest(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        try {
            header(in, REQUEST_MAGIC, "request");
            int id = connectionId(in.readInt(), "request");
            int window = window(in.readInt(), "request");
            int errorMode = errorMode(in.readByte(), "request");
            int length = in.readInt();
            if (length <= 0 || length > UcxContactData.MAX_WORKER_ADDRESS) {
                throw new StreamCorruptedException("UCX set-up request: worker address length " + length
                        + " outside 1.." + UcxContactData.MAX_WORKER_ADDRESS);
            }
            byte[] address = new byte[length];
            in.readFully(address);
            return new Request(id, window, errorMode, address);
        } catch (EOFException e) {
            throw new EOFException("UCX set-up request is truncated");
        }
    }

    static void writeReply(OutputStream stream, Reply reply) throws IOException {
        DataOutputStream out = new DataOutputStream(stream);
        out.writeInt(REPLY_MAGIC);
        out.writeByte(VERSION);
        out.writeInt(reply.connectionId());
        out.writeInt(reply.window());
        out.writeByte(reply.errorMode());
        out.flush();
    }

    static Reply readReply(InputStream stream) throws IOException {
        DataInputStream in = new DataInputStream(stream);
        try {
            header(in, REPLY_MAGIC, "reply");
            int id = connectionId(in.readInt(), "reply");
            int window = window(in.readInt(), "reply");
            int errorMode = errorMode(in.readByte(), "reply");
            return new Reply(id, window, errorMode);
        } catch (EOFException e) {
            throw new EOFException("the peer closed the side channel before its UCX set-up reply was complete");
        }
    }

    private static void header(DataInputStream in, int magic, String what) throws IOException {
        int m = in.readInt();
        if (m != magic) {
            throw new StreamCorruptedException("UCX set-up " + what + " has a bad magic number 0x"
                    + Integer.toHexString(m) + " (not an Ibis UCX side channel?)");
        }
        int version = in.readByte();
        if (version != VERSION) {
            throw new StreamCorruptedException("UCX set-up " + what + " has unsupported version " + version
                    + " (this Ibis speaks version " + VERSION + ")");
        }
    }

    private static int connectionId(int id, String what) throws StreamCorruptedException {
        if (id == 0) {
            throw new StreamCorruptedException("UCX set-up " + what + " with connection id 0");
        }
        return id;
    }

    private static int errorMode(int mode, String what) throws StreamCorruptedException {
        if (mode != UcxNative.ERROR_MODE_NONE && mode != UcxNative.ERROR_MODE_PEER) {
            throw new StreamCorruptedException("UCX set-up " + what + " with unknown error mode " + mode);
        }
        return mode;
    }

    /** The name of an error mode, as {@code ibis.ucx.error.mode} spells it. */
    static String errorModeName(int mode) {
        return mode == UcxNative.ERROR_MODE_PEER ? "peer" : "none";
    }

    private static int window(int window, String what) throws StreamCorruptedException {
        if (window < UcxPropertyTable.MIN_WINDOW || window > UcxPropertyTable.MAX_WINDOW) {
            throw new StreamCorruptedException("UCX set-up " + what + " with window " + window + " outside "
                    + UcxPropertyTable.MIN_WINDOW + ".." + UcxPropertyTable.MAX_WINDOW);
        }
        return window;
    }
}
