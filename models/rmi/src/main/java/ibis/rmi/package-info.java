/**
 * Ibis RMI: remote method invocation with the java.rmi programming model over the IPL.
 * {@link ibis.rmi.Naming} binds and finds remote objects by URL; see the module README for the
 * protocol and the semantics.
 */
package ibis.rmi;
