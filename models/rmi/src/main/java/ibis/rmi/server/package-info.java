/**
 * Server side of Ibis RMI: {@link ibis.rmi.server.UnicastRemoteObject} exports remote objects; {@link ibis.rmi.server.RemoteStub} is the base class of the generated stubs.
 */
package ibis.rmi.server;
