package ibis.registry.protocol;

/**
 * Constants of the registry wire protocol spoken between {@code CentralRegistryClient} and
 * {@code CentralRegistryServer}. The full description (frame layout, every message and its fields)
 * is in {@code registry/README.md}; this class is the single place the numbers are defined.
 *
 * <p>A connection starts with a preamble from each side (magic, version), after which both sides
 * exchange frames: a 4-byte big-endian length {@code L} (1 .. the receiver's maximum) followed by
 * {@code L} bytes whose first byte is the message type.
 */
public final class RegistryProtocol {

    /** First four bytes of each side's preamble: ASCII "IBRG". */
    public static final int MAGIC = 0x49425247;

    /**
     * Protocol version sent after the magic; both sides must speak the same one. Version 3: a
     * {@link #GET_TOKEN} request is answered at once again, its REPLY carrying one boolean (a token
     * was taken, or there was none), as in IPL 2.x; the waiting of version 2 and its CANCEL_TOKEN
     * request (type 0x19, not to be reused) are gone. Version 2 had a GET_TOKEN wait at the server
     * until a token was available, answered with a token string {@code name#k}; version 1 answered
     * "none" or such a string at once.
     */
    public static final byte VERSION = 3;

    /** Largest frame the server accepts from a client (a join carries at most ~130 KiB). */
    public static final int MAX_CLIENT_FRAME = 1 << 20;

    /** Largest frame a client accepts from the server (a welcome lists every member). */
    public static final int MAX_SERVER_FRAME = 16 << 20;

    /** Upper bound on the number of names in one signal request and members in one welcome. */
    public static final int MAX_LIST_LENGTH = 1 << 20;

    // ---- client -> server ----
    /** Join a pool: prototype member identifier (empty name), flags, pool size, heartbeat timing. */
    public static final byte JOIN = 0x01;
    /** "I am alive"; no payload, no reply. */
    public static final byte HEARTBEAT = 0x02;
    /** Answer to {@link #PING}; no payload. */
    public static final byte PONG = 0x03;
    /** Request: leave the pool. */
    public static final byte LEAVE = 0x10;
    /** Request: candidate in an election. */
    public static final byte ELECT = 0x11;
    /** Request: next value of a named pool-wide counter. */
    public static final byte SEQUENCE_NUMBER = 0x12;
    /** Request: add tokens to a named token pool. */
    public static final byte ADD_TOKENS = 0x13;
    /** Request: take one token from a named token pool if it has one; answered at once. */
    public static final byte GET_TOKEN = 0x14;
    /** Request: send a signal to some members (no targets: to every current member, the sender included). */
    public static final byte SIGNAL = 0x15;
    /** Request: a member may be dead; check it. */
    public static final byte MAYBE_DEAD = 0x16;
    /** Request: declare a member dead now. */
    public static final byte ASSUME_DEAD = 0x17;
    /** Request: terminate the pool. */
    public static final byte TERMINATE = 0x18;

    // ---- server -> client ----
    /** Join accepted: the new identifier and the pool's current state. */
    public static final byte WELCOME = 0x41;
    /** Join refused (or protocol mismatch): a reason text; the server then closes. */
    public static final byte REFUSED = 0x42;
    /** Successful answer to a request: request id and an operation-specific result. */
    public static final byte REPLY = 0x43;
    /** Failed request: request id and a reason text. */
    public static final byte ERROR = 0x44;
    /** A pool event: sequence number, kind, kind-specific payload. */
    public static final byte EVENT = 0x45;
    /** "Are you alive?"; the client answers {@link #PONG}. */
    public static final byte PING = 0x46;
    /** Answer to a {@link #HEARTBEAT}: lets the client notice a server that went silent. */
    public static final byte ALIVE = 0x47;

    // ---- event kinds ----
    /** A member joined: its identifier. */
    public static final byte EVENT_JOINED = 1;
    /** A member left: its identifier. */
    public static final byte EVENT_LEFT = 2;
    /** A member died (crashed, stopped heartbeating, or was declared dead): its identifier. */
    public static final byte EVENT_DIED = 3;
    /** An election was decided: election name, winner. */
    public static final byte EVENT_ELECTION = 4;
    /** A signal to this member: signal text, sender. */
    public static final byte EVENT_SIGNAL = 5;
    /**
     * The pool is closed: a closed world is complete, or the pool is being terminated (then it comes
     * right before {@link #EVENT_POOL_TERMINATED}); no payload. Sent once per pool.
     */
    public static final byte EVENT_POOL_CLOSED = 6;
    /** The pool was terminated: the terminating member. */
    public static final byte EVENT_POOL_TERMINATED = 7;

    /** Join flag bit: the joiner asked for a closed world. */
    public static final int JOIN_FLAG_CLOSED_WORLD = 1;
    /** Welcome flag bit: the pool is closed already. */
    public static final int WELCOME_FLAG_CLOSED = 1;

    private RegistryProtocol() {
    }

    /** A readable name of a message type, for logs and errors. */
    public static String messageName(int type) {
        switch (type) {
            case JOIN: return "JOIN";
            case HEARTBEAT: return "HEARTBEAT";
            case PONG: return "PONG";
            case LEAVE: return "LEAVE";
            case ELECT: return "ELECT";
            case SEQUENCE_NUMBER: return "SEQUENCE_NUMBER";
            case ADD_TOKENS: return "ADD_TOKENS";
            case GET_TOKEN: return "GET_TOKEN";
            case SIGNAL: return "SIGNAL";
            case MAYBE_DEAD: return "MAYBE_DEAD";
            case ASSUME_DEAD: return "ASSUME_DEAD";
            case TERMINATE: return "TERMINATE";
            case WELCOME: return "WELCOME";
            case REFUSED: return "REFUSED";
            case REPLY: return "REPLY";
            case ERROR: return "ERROR";
            case EVENT: return "EVENT";
            case PING: return "PING";
            case ALIVE: return "ALIVE";
            default: return "unknown message type " + type;
        }
    }

    /** A readable name of an event kind. */
    public static String eventName(int kind) {
        switch (kind) {
            case EVENT_JOINED: return "JOINED";
            case EVENT_LEFT: return "LEFT";
            case EVENT_DIED: return "DIED";
            case EVENT_ELECTION: return "ELECTION";
            case EVENT_SIGNAL: return "SIGNAL";
            case EVENT_POOL_CLOSED: return "POOL_CLOSED";
            case EVENT_POOL_TERMINATED: return "POOL_TERMINATED";
            default: return "unknown event kind " + kind;
        }
    }
}
