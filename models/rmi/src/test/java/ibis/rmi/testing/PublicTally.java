package ibis.rmi.testing;

/** A public remote interface extending a package-private one. */
public interface PublicTally extends TallyBase {
}
