package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface Credentials extends Serializable {

}
