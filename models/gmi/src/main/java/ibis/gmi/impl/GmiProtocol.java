package ibis.gmi.impl;

/**
 * The messages of GMI, through one receive port per process ({@value #PORT_NAME}), and the replies
 * a caller waits for through a second ({@value #REPLY_PORT_NAME}); the first byte says which. The
 * layout of each is written next to its sender in {@link GmiRuntime} and {@link GroupDirectory},
 * and summarized in models/gmi/README.md.
 */
final class GmiProtocol {

    /** The name of every process's GMI receive port. */
    static final String PORT_NAME = "gmi";

    /**
     * The name of every process's reply port: the replies ({@link #REPLY}) to calls whose invoker
     * waits for them, read by the waiting threads themselves ({@link ReplyChannel}).
     */
    static final String REPLY_PORT_NAME = "gmi-reply";

    /** To the directory (pool rank 0): create, join, ready, installed, lookup or exit. */
    static final byte CONTROL = 1;
    /** From the directory: the answer to a control message. */
    static final byte CONTROL_REPLY = 2;
    /** An invocation of a member's method. */
    static final byte INVOKE = 3;
    /** A member's outcome (or a combined outcome) for the invoker. */
    static final byte REPLY = 4;
    /** A partial combined outcome, from one member to its parent in the binomial tree. */
    static final byte COMBINE_PART = 5;
    /** The (partially combined) parameters of one invoker of a combined invocation. */
    static final byte INVOKER_PART = 6;
    /** The outcome of a combined invocation, for one invoker. */
    static final byte INVOKER_REPLY = 7;
    /** One forwarded outcome of a combined invocation, for one invoker's forwarder. */
    static final byte INVOKER_FORWARD = 8;
    /**
     * An invoker of a combined invocation could not combine its part (a process it waited for is
     * gone): its parent in the combining tree gives up too, up to invoker 0, which tells every
     * invoker that waits for the outcome.
     */
    static final byte INVOKER_PART_FAILED = 9;

    static final byte OP_CREATE = 1;
    static final byte OP_JOIN = 2;
    static final byte OP_READY = 3;
    static final byte OP_LOOKUP = 4;
    /**
     * A member has installed the complete group (its rank, size, groupInit): a lookup is answered
     * only when every member has, so no invocation reaches a member that is still joining.
     */
    static final byte OP_INSTALLED = 5;
    /**
     * This process called {@code Group.exit()}: answered when every process of the pool has, or is
     * gone, so that no process ends while others may still invoke its members (the earlier GMI's
     * exit was such a barrier too).
     */
    static final byte OP_EXIT = 6;

    /** Reply modes in an invocation: what the member does with its outcome. */
    static final byte REPLY_NONE = 0;
    static final byte REPLY_ONE = 1;
    static final byte REPLY_ALL = 2;
    static final byte REPLY_TREE = 3;
    /**
     * Added to a reply mode: the invoker waits for the reply, which goes to its reply port
     * ({@link #REPLY_PORT_NAME}); without it (a forwarded reply) to its port {@link #PORT_NAME}.
     */
    static final byte REPLY_TO_WAITING_CALLER = 0x10;

    private GmiProtocol() {
    }
}
