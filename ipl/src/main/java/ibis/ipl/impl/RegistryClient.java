package ibis.ipl.impl;

import ibis.ipl.Registry;

import java.io.IOException;

/** A joined member's view of the registry, as returned by {@link RegistryProvider#join}. */
public interface RegistryClient extends Registry {

    /** This member's identifier, assigned by the registry at join. */
    MemberIdentifier identifier();

    /** Leaves the pool (others see {@code left}); stops heartbeats and event delivery. Idempotent. */
    void leave() throws IOException;
}
