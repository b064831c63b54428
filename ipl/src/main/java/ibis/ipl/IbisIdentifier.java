package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface IbisIdentifier extends java.io.Serializable, Comparable<IbisIdentifier> {
    Location location();

    String poolName();

    String name();

    String tagAsString();

    byte[] tag();

    String toString();
}
