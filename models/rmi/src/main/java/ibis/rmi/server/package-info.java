/**
 * Server side of Ibis RMI: {@link ibis.rmi.server.UnicastRemoteObject} exports remote objects;
 * {@link ibis.rmi.server.RemoteStub} is the base class of the generated stubs; both are
 * {@link ibis.rmi.server.RemoteObject}s, whose {@link ibis.rmi.server.RemoteRef} identifies the
 * remote object.
 */
package ibis.rmi.server;
