package ibis.ipl.impl;

import ibis.io.ByteSink;
import ibis.io.ByteSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.StreamCorruptedException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The connection handshake that every transport connection starts with, before any message block.
 * The send port writes a request, the receiving Ibis answers with one reply, and from then on only
 * the send port writes. Both are frames in big-endian order (see impl-tcp/README.md, "Handshake"):
 *
 * <pre>
 * frame   = magic:int  version:byte  bodyLength:int  body[bodyLength]
 * request body (magic 'IBSQ') = sender:MemberIdentifier  sendPortName:UTF  receivePortName:UTF
 *                               portTypeLength:int  portType:CapabilitySet.toBytes()  byteOrder:byte
 * reply body   (magic 'IBSR') = status:byte  byteOrder:byte  text:UTF
 * </pre>
 *
 * Every read is bounded in size (body lengths are checked before anything is allocated) and in
 * time (the reader gives up after the handshake time-out), so garbage or a stalled peer costs one
 * pooled thread for at most that long and never the Ibis.
 */
final class ConnectionHandshake {

    static final int REQUEST_MAGIC = 0x49425351; // "IBSQ"
    static final int REPLY_MAGIC = 0x49425352; // "IBSR"
    static final byte VERSION = 1;

    /** Largest request body accepted (a member identifier is at most a few hundred KiB). */
    static final int MAX_REQUEST_BODY = 1 << 20;
    /** Largest reply body accepted. */
    static final int MAX_REPLY_BODY = 1 << 17;
    /** Texts in replies are cut to this many characters. */
    static final int MAX_TEXT = 2000;

    private static final int FRAME_HEADER = 4 + 1 + 4;

    /** The receiver's answer to a connection request. */
    enum Status {
        /** The connection is set up; messages may follow. */
        ACCEPTED,
        /** The receiving Ibis has no receive port of that name (perhaps not yet). */
        NO_SUCH_PORT,
        /** The port types differ; the text names the difference. */
        TYPE_MISMATCH,
        /** The receive port has not enabled connections (or disabled them). */
        DISABLED,
        /** The receive port is closing (a port of that name may come back: worth retrying). */
        REFUSED,
        /** This send port is connected to that receive port already. */
        ALREADY_CONNECTED,
        /** The port type does not allow another sender (many-to-one needs manytoone or manytomany). */
        NOT_ALLOWED,
        /** The request could not be understood (for example an unknown handshake version). */
        BAD_REQUEST,
        /** The receive port's connect upcall said no: final, as in IPL 2.x (never retried). */
        DENIED;

        static Status of(int code) throws StreamCorruptedException {
            Status[] all = values();
            if (code < 0 || code >= all.length) {
                throw new StreamCorruptedException("handshake reply with unknown status " + code);
            }
            return all[code];
        }
    }

    /** What a send port asks for. */
    record Request(MemberIdentifier sender, String sendPortName, String receivePortName, byte[] portType,
            ByteOrder byteOrder) {
    }

    /** What the receiver answers. */
    record Reply(Status status, ByteOrder byteOrder, String text) {
    }

    private ConnectionHandshake() {
    }

    static void writeRequest(ByteSink sink, Request request) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        request.sender().writeTo(out);
        out.writeUTF(request.sendPortName());
        out.writeUTF(request.receivePortName());
        out.writeInt(request.portType().length);
        out.write(request.portType());
        out.writeByte(orderCode(request.byteOrder()));
        out.flush();
        writeFrame(sink, REQUEST_MAGIC, bytes.toByteArray());
    }

    static Request readRequest(ByteSource source, long timeoutMillis) throws IOException {
        byte[] body = readFrame(source, REQUEST_MAGIC, MAX_REQUEST_BODY, timeoutMillis, "request");
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
        try {
            MemberIdentifier sender = MemberIdentifier.readFrom(in);
            String sendPortName = in.readUTF();
            String receivePortName = in.readUTF();
            int typeLength = in.readInt();
            if (typeLength < 0 || typeLength > in.available()) {
                throw new StreamCorruptedException("handshake request: port type length " + typeLength
                        + " outside 0.." + in.available());
            }
            byte[] type = new byte[typeLength];
            in.readFully(type);
            ByteOrder order = orderOf(in.readByte());
            if (in.available() != 0) {
                throw new StreamCorruptedException("handshake request: " + in.available() + " bytes too many");
            }
            return new Request(sender, sendPortName, receivePortName, type, order);
        } catch (EOFException e) {
            throw new StreamCorruptedException("handshake request is truncated");
        } catch (RuntimeException e) {
            // a malformed member identifier may fail inside its own parser
            StreamCorruptedException s = new StreamCorruptedException("malformed handshake request: " + e);
            s.initCause(e);
            throw s;
        }
    }

    static void writeReply(ByteSink sink, Reply reply) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(reply.status().ordinal());
        out.writeByte(orderCode(reply.byteOrder()));
        String text = reply.text() == null ? "" : reply.text();
        out.writeUTF(text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) + "..." : text);
        out.flush();
        writeFrame(sink, REPLY_MAGIC, bytes.toByteArray());
    }

    static Reply readReply(ByteSource source, long timeoutMillis) throws IOException {
        byte[] body = readFrame(source, REPLY_MAGIC, MAX_REPLY_BODY, timeoutMillis, "reply");
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(body));
        try {
            Status status = Status.of(in.readUnsignedByte());
            ByteOrder order = orderOf(in.readByte());
            String text = in.readUTF();
            return new Reply(status, order, text);
        } catch (EOFException e) {
            throw new StreamCorruptedException("handshake reply is truncated");
        }
    }

    static int orderCode(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? 0 : 1;
    }

    static ByteOrder orderOf(int code) throws StreamCorruptedException {
        switch (code) {
        case 0:
            return ByteOrder.BIG_ENDIAN;
        case 1:
            return ByteOrder.LITTLE_ENDIAN;
        default:
            throw new StreamCorruptedException("handshake: unknown byte order code " + code);
        }
    }

    private static void writeFrame(ByteSink sink, int magic, byte[] body) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER + body.length); // big-endian
        frame.putInt(magic).put(VERSION).putInt(body.length).put(body).flip();
        sink.write(new ByteBuffer[] {frame}, 0, 1);
    }

    private static byte[] readFrame(ByteSource source, int magic, int maxBody, long timeoutMillis, String what)
            throws IOException {
        long deadline = System.nanoTime() + Math.max(1, timeoutMillis) * 1_000_000L;
        ByteBuffer header = ByteBuffer.allocate(FRAME_HEADER);
        readFully(source, header, deadline, what);
        header.flip();
        int m = header.getInt();
        if (m != magic) {
            throw new StreamCorruptedException("handshake " + what + " has a bad magic number 0x"
                    + Integer.toHexString(m) + " (not an Ibis connection?)");
        }
        int version = header.get();
        if (version != VERSION) {
            throw new StreamCorruptedException("handshake " + what + " has unsupported version " + version
                    + " (this Ibis speaks version " + VERSION + ")");
        }
        int length = header.getInt();
        if (length < 0 || length > maxBody) {
            throw new StreamCorruptedException("handshake " + what + " body length " + length + " outside 0.."
                    + maxBody);
        }
        ByteBuffer body = ByteBuffer.allocate(length);
        readFully(source, body, deadline, what);
        return body.array();
    }

    /**
     * Fills {@code buffer} exactly (its limit bounds the read, so nothing beyond the frame is
     * consumed), waiting for data only until {@code deadline}.
     */
    private static void readFully(ByteSource source, ByteBuffer buffer, long deadline, String what)
            throws IOException {
        while (buffer.hasRemaining()) {
            long leftMillis = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0 || !source.awaitData(leftMillis)) {
                throw new SocketTimeoutException("handshake " + what + " not complete in time ("
                        + buffer.position() + " bytes arrived)");
            }
            source.read(buffer, 1);
        }
    }
}
