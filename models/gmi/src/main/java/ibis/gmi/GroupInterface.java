package ibis.gmi;

/**
 * The marker of group interfaces: an interface that extends this one declares the methods that can
 * be invoked on a group, and {@link Group#lookup} returns a stub implementing it.
 */
public interface GroupInterface {
}
