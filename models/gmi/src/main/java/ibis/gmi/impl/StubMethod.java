package ibis.gmi.impl;

import ibis.gmi.CombineReply;
import ibis.gmi.CombinedInvocation;
import ibis.gmi.ConfigurationException;
import ibis.gmi.ForwardReply;
import ibis.gmi.GroupInvocation;
import ibis.gmi.GroupMethod;
import ibis.gmi.InvocationScheme;
import ibis.gmi.PersonalizeReply;
import ibis.gmi.ReplyScheme;
import ibis.gmi.ReturnReply;
import ibis.gmi.SingleInvocation;

import java.util.Arrays;

/** One method of one stub and its current configuration. */
final class StubMethod extends GroupMethod {

    /** A checked configuration; immutable, so that a call runs with the one it started with. */
    static final class Config {
        final InvocationScheme invocation;
        final ReplyScheme reply;
        /** The invocation without the combining (== invocation unless combined). */
        final InvocationScheme forwarding;
        /** The reply without the personalizing (== reply unless personalized). */
        final ReplyScheme handling;
        /** The invoked member ranks, ascending. */
        final int[] targets;
        final CombinedInvocation combined;
        final PersonalizeReply personalized;

        Config(InvocationScheme invocation, ReplyScheme reply, int[] targets) {
            this.invocation = invocation;
            this.reply = reply;
            this.combined = invocation instanceof CombinedInvocation c ? c : null;
            this.forwarding = combined != null ? combined.inner() : invocation;
            this.personalized = reply instanceof PersonalizeReply p ? p : null;
            this.handling = personalized != null ? personalized.inner() : reply;
            this.targets = targets;
        }
    }

    final GroupStub stub;
    final int index;
    volatile Config config;

    StubMethod(GroupStub stub, int index) {
        this.stub = stub;
        this.index = index;
    }

    String describe() {
        return stub.table.type.getName() + "." + stub.table.signature(index) + " of group " + stub.group.name;
    }

    @Override
    protected void apply(InvocationScheme inv, ReplyScheme rep) throws ConfigurationException {
        int size = stub.group.size;
        CombinedInvocation combined = inv instanceof CombinedInvocation c ? c : null;
        InvocationScheme forwarding = combined != null ? combined.inner() : inv;
        int[] targets;
        if (forwarding instanceof SingleInvocation s) {
            if (s.destination() >= size) {
                throw new ConfigurationException(describe() + ": SingleInvocation to rank " + s.destination()
                        + ", but the group has " + size + " members");
            }
            targets = new int[] { s.destination() };
        } else if (forwarding instanceof GroupInvocation g) {
            targets = g.targets();
            if (targets == null) {
                targets = all(size);
            } else if (targets[targets.length - 1] >= size) {
                throw new ConfigurationException(describe() + ": GroupInvocation to rank " + targets[targets.length - 1]
                        + ", but the group has " + size + " members");
            }
        } else {
            targets = all(size);
        }
        ReplyScheme handling = rep;
        if (rep instanceof PersonalizeReply p) {
            if (combined == null) {
                throw new ConfigurationException(describe() + ": a PersonalizeReply splits the reply among the invokers"
                        + " of a CombinedInvocation, and this invocation is not combined");
            }
            handling = p.inner();
        }
        if (handling instanceof ReturnReply r && Arrays.binarySearch(targets, r.rank()) < 0) {
            throw new ConfigurationException(describe() + ": ReturnReply of rank " + r.rank()
                    + ", which this invocation does not reach (it goes to " + Arrays.toString(targets) + ")");
        }
        if (!(handling instanceof ReturnReply || handling instanceof ForwardReply || handling instanceof CombineReply
                || handling.mode() == ReplyScheme.R_DISCARD)) {
            throw new ConfigurationException(describe() + ": unknown reply scheme " + rep.getClass().getName());
        }
        if (combined != null) {
            stub.runtime.claimInvoker(stub, this, combined, handling, targets.length);
        }
        config = new Config(inv, rep, targets);
    }

    private static int[] all(int size) {
        int[] t = new int[size];
        for (int i = 0; i < size; i++) {
            t[i] = i;
        }
        return t;
    }
}
