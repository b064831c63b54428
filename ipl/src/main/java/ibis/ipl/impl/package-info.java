/**
 * The shared implementation base of the IPL: everything a network implementation does not have
 * to write. {@link ibis.ipl.impl.AbstractIbis} joins the registry and owns ports and transport;
 * {@link ibis.ipl.impl.AbstractSendPort} and {@link ibis.ipl.impl.AbstractReceivePort} implement
 * connections (with a handshake over the transport's byte ends), messages, upcall threading,
 * numbering, multicast and failure reporting. A network implementation provides a
 * {@link ibis.ipl.impl.Transport} (see impl-tcp/README.md for the protocol and threading).
 *
 * <p>Also here: the contracts shared with the registry ({@link ibis.ipl.impl.MemberIdentifier},
 * {@link ibis.ipl.impl.RegistryProvider}, {@link ibis.ipl.impl.RegistryClient}), the base's property
 * table ({@link ibis.ipl.impl.ImplPropertyTable}, in the shape of {@link ibis.io.config.PropertyTable})
 * and the settings read from it ({@link ibis.ipl.impl.ImplSettings}).
 */
package ibis.ipl.impl;
