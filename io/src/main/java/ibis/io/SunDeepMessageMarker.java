package ibis.io;

/**
 * The object the sun serialization writes, right after a reset, before the objects of a message
 * that was too deep for the writer's stack: the reader reads the rest of that message's objects on
 * a large stack too (io/README.md, "Deep graphs"). An enum, so that it is one constant on both
 * sides and compared by identity.
 */
enum SunDeepMessageMarker {
    /** The rest of the message's objects are read on a large stack. */
    REST_IS_DEEP
}
