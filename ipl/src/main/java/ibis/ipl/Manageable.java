package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface Manageable {
    Map<String, String> managementProperties();

    void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException;

    String getManagementProperty(String key) throws NoSuchPropertyException;

    void setManagementProperty(String key, String value) throws NoSuchPropertyException;

    void printManagementProperties(PrintStream stream);
}
