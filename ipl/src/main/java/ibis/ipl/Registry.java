package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface Registry extends Manageable {
    IbisIdentifier elect(String electionName) throws IOException;

    IbisIdentifier elect(String electionName, long timeoutMillis) throws IOException;

    IbisIdentifier getElectionResult(String electionName) throws IOException;

    IbisIdentifier getElectionResult(String electionName, long timeoutMillis) throws IOException;

    void maybeDead(IbisIdentifier ibisIdentifier) throws IOException;

    void assumeDead(IbisIdentifier ibisIdentifier) throws IOException;

    void signal(String signal, IbisIdentifier... ibisIdentifiers) throws IOException;

    IbisIdentifier[] joinedIbises();

    IbisIdentifier[] leftIbises();

    IbisIdentifier[] diedIbises();

    String[] receivedSignals();

    int getPoolSize();

    String getPoolName();

    void waitUntilPoolClosed();

    boolean isClosed();

    void enableEvents();

    void disableEvents();

    long getSequenceNumber(String name) throws IOException;

    void addTokens(String name, int count) throws IOException;

    String getToken(String name) throws IOException;

    void terminate() throws IOException;

    boolean hasTerminated();

    IbisIdentifier waitUntilTerminated();
}
