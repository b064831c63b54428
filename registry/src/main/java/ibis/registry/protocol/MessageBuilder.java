package ibis.registry.protocol;

import ibis.ipl.impl.MemberIdentifier;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Builds one frame in memory: the 4-byte length, the message type and the payload. The finished
 * frame is a byte array that a connection writes in one go, so frames from several threads never
 * interleave and a frame can be queued for a slow receiver without holding any lock.
 */
public final class MessageBuilder {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    private final DataOutputStream out = new DataOutputStream(bytes);

    /** Starts a frame of message type {@code type}. */
    public MessageBuilder(byte type) {
        try {
            out.writeInt(0); // length, patched in frame()
            out.writeByte(type);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen on a byte array
        }
    }

    /** Appends a byte. */
    public MessageBuilder writeByte(int value) {
        try {
            out.writeByte(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Appends a boolean as one byte (0 or 1). */
    public MessageBuilder writeBoolean(boolean value) {
        return writeByte(value ? 1 : 0);
    }

    /** Appends a big-endian int. */
    public MessageBuilder writeInt(int value) {
        try {
            out.writeInt(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Appends a big-endian long. */
    public MessageBuilder writeLong(long value) {
        try {
            out.writeLong(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * Appends a string in modified UTF-8 with a 2-byte length.
     *
     * @throws IllegalArgumentException when the encoded string is longer than 65535 bytes
     */
    public MessageBuilder writeString(String value) {
        try {
            out.writeUTF(value);
        } catch (java.io.UTFDataFormatException e) {
            throw new IllegalArgumentException("string too long for the registry protocol ("
                    + value.length() + " characters)", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Appends a member identifier in the format of {@link MemberIdentifier#writeTo}. */
    public MessageBuilder writeMember(MemberIdentifier member) {
        try {
            member.writeTo(out);
        } catch (java.io.UTFDataFormatException e) {
            throw new IllegalArgumentException("member identifier field too long for the registry protocol", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** The complete frame (length prefix included). */
    public byte[] frame() {
        byte[] frame = bytes.toByteArray();
        int length = frame.length - 4;
        frame[0] = (byte) (length >>> 24);
        frame[1] = (byte) (length >>> 16);
        frame[2] = (byte) (length >>> 8);
        frame[3] = (byte) length;
        return frame;
    }
}
