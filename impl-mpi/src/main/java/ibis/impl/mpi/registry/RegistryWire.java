package ibis.impl.mpi.registry;

import ibis.ipl.impl.MemberIdentifier;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The registry's messages among the ranks: one kind byte, then the fields of that kind written
 * with {@link java.io.DataOutput} (strings as modified UTF-8). The table is in the module's
 * README.md ("Registry over MPI: wire format"). Requests go to rank 0, the coordinator; events and
 * replies come from it.
 */
final class RegistryWire {

    // Requests, member to coordinator.
    /** pool name, expected pool size (-1: not set), the member's identifier (name = rank). */
    static final byte JOIN = 1;
    /** request id, election name. */
    static final byte ELECT = 2;
    /** request id, sequence name. */
    static final byte SEQUENCE = 3;
    /** request id, signal, count, that many target ranks. */
    static final byte SIGNAL = 4;
    /** request id, token name, count. */
    static final byte ADD_TOKENS = 5;
    /** request id, token name; answered at once, the REPLY's result a byte: 1 a token was taken, 0 none. */
    static final byte GET_TOKEN = 6;
    // 7 was WITHDRAW_TOKEN, for the getToken calls that waited; none wait now, so it is gone (not to be reused).
    /** request id. */
    static final byte TERMINATE = 8;
    /** request id. */
    static final byte LEAVE = 9;
    /** request id, rank declared dead. */
    static final byte ASSUME_DEAD = 10;

    // Coordinator to members.
    /** count, that many member identifiers in rank order. */
    static final byte WELCOME = 20;
    /** why the join was refused. */
    static final byte REFUSED = 21;
    /** request id, status (0 ok, 1 failed), then the request's result or the reason. */
    static final byte REPLY = 22;
    /** election name, winner rank. */
    static final byte ELECTED = 23;
    /** signal, sender rank. */
    static final byte SIGNALLED = 24;
    /** rank that left. */
    static final byte LEFT = 25;
    /** rank declared dead. */
    static final byte DIED = 26;
    /** rank that terminated the pool. */
    static final byte TERMINATED = 27;

    static final byte OK = 0;
    static final byte FAILED = 1;

    private RegistryWire() {
    }

    /** True for the kinds only the coordinator receives. */
    static boolean isRequest(byte kind) {
        return kind >= JOIN && kind <= ASSUME_DEAD;
    }

    /** Builds one message. */
    static final class Writer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final DataOutputStream out = new DataOutputStream(bytes);

        Writer(byte kind) {
            writeByte(kind);
        }

        Writer writeByte(int value) {
            try {
                out.writeByte(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
            }
            return this;
        }

        Writer writeInt(int value) {
            try {
                out.writeInt(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        Writer writeLong(long value) {
            try {
                out.writeLong(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        Writer writeString(String value) {
            try {
                out.writeUTF(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        Writer writeMember(MemberIdentifier member) {
            try {
                member.writeTo(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    /** Reads one message; a message that ends early or has bytes left over is malformed. */
    static final class Reader {
        private final DataInputStream in;
        private final ByteArrayInputStream bytes;
        final byte kind;

        Reader(byte[] message) throws IOException {
            bytes = new ByteArrayInputStream(message);
            in = new DataInputStream(bytes);
            kind = readByte();
        }

        byte readByte() throws IOException {
            try {
                return in.readByte();
            } catch (EOFException e) {
                throw malformed("ends early");
            }
        }

        int readInt() throws IOException {
            try {
                return in.readInt();
            } catch (EOFException e) {
                throw malformed("ends early");
            }
        }

        long readLong() throws IOException {
            try {
                return in.readLong();
            } catch (EOFException e) {
                throw malformed("ends early");
            }
        }

        String readString() throws IOException {
            try {
                return in.readUTF();
            } catch (EOFException e) {
                throw malformed("ends early");
            }
        }

        MemberIdentifier readMember() throws IOException {
            try {
                return MemberIdentifier.readFrom(in);
            } catch (EOFException e) {
                throw malformed("ends early");
            }
        }

        void expectEnd() throws IOException {
            if (bytes.available() > 0) {
                throw malformed("has " + bytes.available() + " bytes too many");
            }
        }

        private IOException malformed(String what) {
            return new IOException("malformed registry message of kind " + kind + ": it " + what);
        }
    }
}
