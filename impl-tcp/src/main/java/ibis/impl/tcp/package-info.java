/**
 * The pure-Java TCP implementation of the IPL (nickname {@code tcp}): a
 * {@link ibis.impl.tcp.TcpTransport} with one socket per connection, plugged into the shared base
 * {@code ibis.ipl.impl}, and the {@link ibis.impl.tcp.TcpIbisStarter} that {@code IbisFactory}
 * finds through {@code META-INF/services/ibis.ipl.IbisStarter}. See the module's README.md.
 */
package ibis.impl.tcp;
