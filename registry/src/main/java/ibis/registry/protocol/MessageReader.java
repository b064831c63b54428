package ibis.registry.protocol;

import ibis.ipl.impl.MemberIdentifier;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Parses one received frame. The frame was read whole into a bounded array, so every read here
 * either finds its bytes in that array or fails with {@link MalformedMessageException}; counts are
 * checked against the bytes that remain before anything is allocated from them.
 */
public final class MessageReader {

    private final byte type;
    private final ByteArrayInputStream bytes;
    private final DataInputStream in;

    private MessageReader(byte[] body) {
        this.type = body[0];
        this.bytes = new ByteArrayInputStream(body, 1, body.length - 1);
        this.in = new DataInputStream(bytes);
    }

    /**
     * Reads the next frame from {@code stream}.
     *
     * @param maxLength the largest frame length accepted; longer frames are rejected before allocation
     * @return the frame, or null at a clean end of stream (between frames)
     * @throws MalformedMessageException when the length is out of range or the stream ends mid-frame
     */
    public static MessageReader readFrame(InputStream stream, int maxLength) throws IOException {
        int b0 = stream.read();
        if (b0 < 0) {
            return null;
        }
        int length = b0 << 24;
        for (int shift = 16; shift >= 0; shift -= 8) {
            int b = stream.read();
            if (b < 0) {
                throw new MalformedMessageException("stream ended inside a frame header");
            }
            length |= b << shift;
        }
        if (length < 1 || length > maxLength) {
            throw new MalformedMessageException("frame length " + length + " outside 1.." + maxLength);
        }
        byte[] body = new byte[length];
        int done = 0;
        while (done < length) {
            int n = stream.read(body, done, length - done);
            if (n < 0) {
                throw new MalformedMessageException("stream ended inside a frame (" + done + " of "
                        + length + " bytes)");
            }
            done += n;
        }
        return new MessageReader(body);
    }

    /** The frame's message type. */
    public byte type() {
        return type;
    }

    /** Reads one byte. */
    public int readByte() throws MalformedMessageException {
        try {
            return in.readByte();
        } catch (IOException e) {
            throw truncated(e);
        }
    }

    /** Reads a boolean written as 0 or 1. */
    public boolean readBoolean() throws MalformedMessageException {
        int b = readByte();
        if (b != 0 && b != 1) {
            throw new MalformedMessageException("boolean byte " + b + " is neither 0 nor 1");
        }
        return b == 1;
    }

    /** Reads an int. */
    public int readInt() throws MalformedMessageException {
        try {
            return in.readInt();
        } catch (IOException e) {
            throw truncated(e);
        }
    }

    /** Reads a long. */
    public long readLong() throws MalformedMessageException {
        try {
            return in.readLong();
        } catch (IOException e) {
            throw truncated(e);
        }
    }

    /** Reads a string written by {@link MessageBuilder#writeString}. */
    public String readString() throws MalformedMessageException {
        if (bytes.available() < 2) {
            throw new MalformedMessageException("message truncated: string length missing");
        }
        try {
            return in.readUTF();
        } catch (IOException e) {
            throw truncated(e);
        }
    }

    /** Reads a member identifier written by {@link MessageBuilder#writeMember}. */
    public MemberIdentifier readMember() throws MalformedMessageException {
        try {
            return MemberIdentifier.readFrom(in);
        } catch (MalformedMessageException e) {
            throw e;
        } catch (IOException e) {
            throw new MalformedMessageException("malformed member identifier: " + e, e);
        }
    }

    /**
     * Reads a non-negative element count and checks it against {@code max} and against the bytes
     * left (every element takes at least {@code minElementSize} bytes), so a lying count cannot make
     * the caller allocate more than the frame could hold.
     */
    public int readCount(int max, int minElementSize) throws MalformedMessageException {
        int n = readInt();
        if (n < 0 || n > max || (long) n * minElementSize > bytes.available()) {
            throw new MalformedMessageException("element count " + n + " is out of range (at most " + max
                    + ", " + bytes.available() + " bytes left)");
        }
        return n;
    }

    /** Checks that the whole frame was consumed; trailing bytes mean the peer speaks something else. */
    public void expectEnd() throws MalformedMessageException {
        if (bytes.available() != 0) {
            throw new MalformedMessageException(bytes.available() + " unexpected trailing bytes in a "
                    + RegistryProtocol.messageName(type) + " message");
        }
    }

    private MalformedMessageException truncated(IOException e) {
        if (e instanceof EOFException) {
            return new MalformedMessageException("truncated " + RegistryProtocol.messageName(type) + " message", e);
        }
        return new MalformedMessageException("malformed " + RegistryProtocol.messageName(type) + " message: "
                + e.getMessage(), e);
    }
}
