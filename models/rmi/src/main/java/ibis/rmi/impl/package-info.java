/**
 * Implementation of Ibis RMI (not an API): the runtime with its Ibis instance and ports, the
 * run-time stub and skeleton generator, the call objects used by generated code, and the registry
 * object.
 */
package ibis.rmi.impl;
