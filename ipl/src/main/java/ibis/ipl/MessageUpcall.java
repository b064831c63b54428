package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface MessageUpcall {
    void upcall(ReadMessage readMessage) throws IOException, ClassNotFoundException;
}
