package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface Location extends java.io.Serializable, Comparable<Location>, Iterable<String> {
    public static final String DEFAULT_LOCATION = "%HOSTNAME%@%DOMAIN%";

    int numberOfLevels();

    String getLevel(int levelIndex);

    String[] getLevels();

    int numberOfMatchingLevels(Location location);

    Location getParent();
}
