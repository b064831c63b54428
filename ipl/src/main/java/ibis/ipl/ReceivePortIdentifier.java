package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface ReceivePortIdentifier extends java.io.Serializable {
    String name();

    IbisIdentifier ibisIdentifier();

    int hashCode();

    boolean equals(Object other);
}
