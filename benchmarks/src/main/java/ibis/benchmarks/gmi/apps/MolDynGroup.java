package ibis.benchmarks.gmi.apps;

import ibis.gmi.GroupInterface;

/** The group of MolDyn: one member per process. */
public interface MolDynGroup extends GroupInterface {

    /**
     * Combined invocation: every process's forces, added in a binomial tree of the invokers, for
     * every process (the member returns its parameter).
     */
    Forces sum(Forces forces);
}
