package ibis.ipl.impl;

/**
 * The message header every message starts with, written through the block stream before the
 * serialization data (see build/TEAM.md, "Connection/message protocol decisions"):
 *
 * <pre>
 * kind:byte   DATA (0) or CLOSE (1: the sender disconnects regularly; nothing follows)
 * flags:byte  DATA only; bit 0 = NEW_STREAM (re-create the serialization input before reading)
 * seqno:long  DATA only, and only when the port type is communication.numbered
 * </pre>
 */
final class MessageHeader {

    static final byte DATA = 0;
    static final byte CLOSE = 1;

    /** The serialization stream starts afresh with this message (the sender's connection set changed). */
    static final int NEW_STREAM = 1;

    private MessageHeader() {
    }
}
