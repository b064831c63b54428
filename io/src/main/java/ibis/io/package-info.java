/**
 * Streams and serialization: the block framing of messages over a transport's byte sink and
 * source ({@link ibis.io.BlockOutputStream}, {@link ibis.io.BlockInputStream}), and the
 * serializations a port type can choose ("byte", "data", "sun", "ibis"), created by
 * {@link ibis.io.Serialization}. The fast object serialization is
 * {@link ibis.io.IbisSerializationOutput} / {@link ibis.io.IbisSerializationInput}; classes
 * rewritten by the Ibis bytecode rewriter implement {@link ibis.io.Serializable} and come with a
 * {@link ibis.io.Generator}, other classes get serializers generated at run time. Configuration:
 * {@link ibis.io.IoProperties}. Wire formats and the rewriter contract: io/README.md. This package
 * imports nothing of the rest of Ibis.
 */
package ibis.io;
