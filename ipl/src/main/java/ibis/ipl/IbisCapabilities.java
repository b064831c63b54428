package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public final class IbisCapabilities extends CapabilitySet {
    public final static String CLOSED_WORLD = "closed.world";

    public final static String SIGNALS = "signals";

    public final static String TERMINATION = "termination";

    public final static String ELECTIONS_UNRELIABLE = "elections.unreliable";

    public final static String ELECTIONS_STRICT = "elections.strict";

    public final static String MEMBERSHIP_UNRELIABLE = "membership.unreliable";

    public final static String MEMBERSHIP_TOTALLY_ORDERED = "membership.totally.ordered";

    public final static String MALLEABLE = "malleable";

    public IbisCapabilities(String... capabilities) {
        // TODO
    }

    protected IbisCapabilities(Properties properties) {
        // TODO
    }

    protected IbisCapabilities(CapabilitySet capabilitySet) {
        // TODO
    }

    public static IbisCapabilities load(String capabilityFileName) throws IOException {
        throw new UnsupportedOperationException("not yet");
    }

    public static IbisCapabilities load(InputStream input) throws IOException {
        throw new UnsupportedOperationException("not yet");
    }
}
