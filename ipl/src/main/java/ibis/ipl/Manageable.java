package ibis.ipl;

import java.io.PrintStream;
import java.util.Map;

/**
 * An object with management properties: named values, mostly statistics such as the number of
 * bytes sent or messages received, that tools and programs may read at run time, and a few of
 * which may be set. Which properties exist is up to the implementation. The methods may be called
 * from any thread.
 */
public interface Manageable {

    /**
     * Returns a snapshot of all management properties and their current values.
     *
     * @return a new map from property name to value
     */
    Map<String, String> managementProperties();

    /**
     * Sets several management properties.
     *
     * @param properties the properties to set and their new values
     * @throws NoSuchPropertyException when one of them is unknown or cannot be set
     */
    void setManagementProperties(Map<String, String> properties) throws NoSuchPropertyException;

    /**
     * Returns the current value of one management property.
     *
     * @param key the property name
     * @return its value
     * @throws NoSuchPropertyException when the property is unknown
     */
    String getManagementProperty(String key) throws NoSuchPropertyException;

    /**
     * Sets one management property.
     *
     * @param key the property name
     * @param value its new value
     * @throws NoSuchPropertyException when the property is unknown or cannot be set
     */
    void setManagementProperty(String key, String value) throws NoSuchPropertyException;

    /**
     * Prints all management properties and their values, one per line.
     *
     * @param stream where to print them
     */
    void printManagementProperties(PrintStream stream);
}
