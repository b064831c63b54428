/**
 * The UCX implementation of the IPL (nickname {@code ucx}): a {@link ibis.impl.ucx.UcxTransport}
 * that moves the bytes of each connection as UCX tagged messages through one UCP worker (shared
 * memory between processes of one host, TCP or a fast network between hosts, whatever UCX picks),
 * with a TCP side channel for connection set-up and liveness, plugged into the shared base
 * {@code ibis.ipl.impl}; and the {@link ibis.impl.ucx.UcxIbisStarter} that {@code IbisFactory}
 * finds through {@code META-INF/services/ibis.ipl.IbisStarter}. The JNI glue is
 * {@code UcxNative} (C in {@code src/main/c}). See the module's README.md.
 */
package ibis.impl.ucx;
