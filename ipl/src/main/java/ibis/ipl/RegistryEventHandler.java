package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface RegistryEventHandler {
    void joined(IbisIdentifier joinedIbis);

    void left(IbisIdentifier leftIbis);

    void died(IbisIdentifier corpse);

    void gotSignal(String signal, IbisIdentifier source);

    void electionResult(String electionName, IbisIdentifier winner);

    void poolClosed();

    void poolTerminated(IbisIdentifier source);
}
