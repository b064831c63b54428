/**
 * The RMI registry of Ibis RMI: registries served by members of the Ibis pool, found through the
 * pool's IPL registry (no registry process).
 */
package ibis.rmi.registry;
