/**
 * Streams and serialization: the block framing of messages over a transport's byte sink and
 * source ({@link ibis.io.BlockOutputStream}, {@link ibis.io.BlockInputStream}), and the
 * serializations a port type can choose ("byte", "data", "sun", "ibis"), created by
 * {@link ibis.io.Serialization}. Configuration: {@link ibis.io.IoProperties}. Wire formats:
 * io/README.md. This package imports nothing of the rest of Ibis.
 */
package ibis.io;
