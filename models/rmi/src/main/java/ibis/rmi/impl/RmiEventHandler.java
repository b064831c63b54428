package ibis.rmi.impl;

import ibis.ipl.IbisIdentifier;
import ibis.ipl.RegistryEventHandler;

/** The registry events RMI acts on: members that leave or die fail the calls waiting for them. */
final class RmiEventHandler implements RegistryEventHandler {

    private final RmiRuntime runtime;

    RmiEventHandler(RmiRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void joined(IbisIdentifier joinedIbis) {
    }

    @Override
    public void left(IbisIdentifier leftIbis) {
        runtime.memberGone(leftIbis, "left the pool");
    }

    @Override
    public void died(IbisIdentifier corpse) {
        runtime.memberGone(corpse, "died");
    }

    @Override
    public void gotSignal(String signal, IbisIdentifier source) {
    }

    @Override
    public void electionResult(String electionName, IbisIdentifier winner) {
    }

    @Override
    public void poolClosed() {
    }

    @Override
    public void poolTerminated(IbisIdentifier source) {
    }
}
