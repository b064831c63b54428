package ibis.util;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link Properties} with typed getters: the {@code ibis.util.TypedProperties} of IPL 2.x, kept so that
 * programs written against it compile and run unchanged.
 *
 * <p>
 * Every lookup goes through {@link #getProperty(String)}, so the defaults given to the constructor
 * count. The numeric getters without a default throw {@link NumberFormatException} when the property is
 * absent; every numeric getter throws it, naming the property and its value, when the value does not
 * parse (white space around a number is allowed). {@link #getBooleanProperty(String, boolean)} never
 * throws: a present value is true when it is {@code ""}, {@code "1"}, {@code "on"}, {@code "true"} or
 * {@code "yes"} (exactly these, lower case), and false otherwise.
 *
 * <p>
 * The whole instance API of IPL 2.x is here; none of it needs another class of the earlier Ibis.
 * Differences: a size that overflows a {@code long} is an error instead of wrapping; the loaders report
 * an unreadable file through SLF4J (debug) instead of ignoring it silently;
 * {@link #checkProperties(String, String[], String[], boolean)} warns through SLF4J instead of printing.
 * Left out: the static helpers of the Ibis of 2004/2005 ({@code booleanProperty(String)},
 * {@code intProperty(String)}, the static {@code checkProperties(String, String[], String[])}, ...),
 * which read the system properties and belong to an API that IPL 2.x had already replaced.
 */
public class TypedProperties extends Properties {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(TypedProperties.class);

    /** {@code ${NAME}}: an environment variable reference that {@link #expandSystemVariables()} replaces. */
    private static final Pattern ENVIRONMENT_REFERENCE = Pattern.compile("\\$\\{(\\w+)\\}");

    /** An empty set of properties without defaults. */
    public TypedProperties() {
        super();
    }

    /**
     * An empty set of properties that falls back on {@code defaults} (which stay a separate object).
     *
     * @param defaults the defaults, or {@code null} for none
     */
    public TypedProperties(Properties defaults) {
        super(defaults);
    }

    /**
     * Copies every property of {@code properties}, its defaults included, into this object; a key already
     * here is overwritten.
     *
     * @param properties the properties to add; {@code null} adds nothing
     */
    public void addProperties(Properties properties) {
        if (properties == null) {
            return;
        }
        for (String key : properties.stringPropertyNames()) {
            setProperty(key, properties.getProperty(key));
        }
    }

    /**
     * The same as {@link #addProperties(Properties)}: unlike {@link #putAll(java.util.Map)}, the defaults of
     * {@code properties} are copied too.
     *
     * @param properties the properties to add; {@code null} adds nothing
     */
    public void putAll(Properties properties) {
        addProperties(properties);
    }

    /**
     * Loads the properties file {@code resourceName} from the class path of this class, if there is one.
     *
     * @param resourceName the resource name, such as {@code "ibis.properties"}
     */
    public void loadFromClassPath(String resourceName) {
        try (InputStream in = TypedProperties.class.getClassLoader().getResourceAsStream(resourceName)) {
            if (in != null) {
                load(in);
            }
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("cannot load the properties resource {}", resourceName, e);
        }
    }

    /**
     * Loads the properties file {@code fileName} if it exists and is readable; otherwise changes nothing.
     *
     * @param fileName the file; {@code null} loads nothing
     */
    public void loadFromFile(String fileName) {
        if (fileName == null) {
            return;
        }
        try (InputStream in = Files.newInputStream(Path.of(fileName))) {
            load(in);
        } catch (NoSuchFileException e) {
            LOG.debug("no properties file {}", fileName);
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("cannot load the properties file {}", fileName, e);
        }
    }

    /**
     * Loads the properties file {@code fileName} of the user's home folder ({@code user.home}), as
     * {@link #loadFromFile(String)}.
     *
     * @param fileName the file name relative to the home folder
     */
    public void loadFromHomeFile(String fileName) {
        loadFromFile(System.getProperty("user.home") + File.separator + fileName);
    }

    /**
     * Replaces, in every value held by this object itself (not its defaults), each {@code ${NAME}} whose
     * environment variable {@code NAME} is set with that variable's value; a reference to an unset
     * variable stays as it is.
     */
    public void expandSystemVariables() {
        for (String key : stringPropertyNames()) {
            Object value = get(key);
            if (!(value instanceof String)) {
                continue; // a default only, or not a string: not ours to change
            }
            Matcher m = ENVIRONMENT_REFERENCE.matcher((String) value);
            StringBuilder expanded = new StringBuilder();
            while (m.find()) {
                String replacement = System.getenv(m.group(1));
                m.appendReplacement(expanded, Matcher.quoteReplacement(replacement != null ? replacement : m.group()));
            }
            m.appendTail(expanded);
            setProperty(key, expanded.toString());
        }
    }

    /**
     * {@link #getBooleanProperty(String, boolean)} with default {@code false}.
     *
     * @param key the property name
     * @return whether the property is present and set (see the class comment)
     */
    public boolean getBooleanProperty(String key) {
        return getBooleanProperty(key, false);
    }

    /**
     * A boolean property: true when present with value {@code ""}, {@code "1"}, {@code "on"},
     * {@code "true"} or {@code "yes"}; false when present with any other value.
     *
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property's truth value, or {@code defaultValue}
     */
    public boolean getBooleanProperty(String key, boolean defaultValue) {
        String value = getProperty(key);
        if (value == null) {
            return defaultValue;
        }
        switch (value) {
            case "":
            case "1":
            case "on":
            case "true":
            case "yes":
                return true;
            default:
                return false;
        }
    }

    /**
     * @param key the property name
     * @return the property as an {@code int}
     * @throws NumberFormatException if the property is absent or not an {@code int}
     */
    public int getIntProperty(String key) {
        return parse(key, required(key), "an int", Integer::parseInt);
    }

    /**
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property as an {@code int}, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not an {@code int}
     */
    public int getIntProperty(String key, int defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parse(key, value, "an int", Integer::parseInt);
    }

    /**
     * @param key the property name
     * @return the property as a {@code long}
     * @throws NumberFormatException if the property is absent or not a {@code long}
     */
    public long getLongProperty(String key) {
        return parse(key, required(key), "a long", Long::parseLong);
    }

    /**
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property as a {@code long}, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not a {@code long}
     */
    public long getLongProperty(String key, long defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parse(key, value, "a long", Long::parseLong);
    }

    /**
     * @param key the property name
     * @return the property as a {@code short}
     * @throws NumberFormatException if the property is absent or not a {@code short}
     */
    public short getShortProperty(String key) {
        return parse(key, required(key), "a short", Short::parseShort);
    }

    /**
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property as a {@code short}, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not a {@code short}
     */
    public short getShortProperty(String key, short defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parse(key, value, "a short", Short::parseShort);
    }

    /**
     * @param key the property name
     * @return the property as a {@code double}
     * @throws NumberFormatException if the property is absent or not a {@code double}
     */
    public double getDoubleProperty(String key) {
        return parse(key, required(key), "a double", Double::parseDouble);
    }

    /**
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property as a {@code double}, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not a {@code double}
     */
    public double getDoubleProperty(String key, double defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parse(key, value, "a double", Double::parseDouble);
    }

    /**
     * @param key the property name
     * @return the property as a {@code float}
     * @throws NumberFormatException if the property is absent or not a {@code float}
     */
    public float getFloatProperty(String key) {
        return parse(key, required(key), "a float", Float::parseFloat);
    }

    /**
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the property as a {@code float}, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not a {@code float}
     */
    public float getFloatProperty(String key, float defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parse(key, value, "a float", Float::parseFloat);
    }

    /**
     * A size in bytes: a {@code long}, optionally followed by {@code K}, {@code M} or {@code G} (either
     * case) for units of 1024, 1024² and 1024³ bytes.
     *
     * @param key the property name
     * @return the size in bytes
     * @throws NumberFormatException if the property is absent or not a size
     */
    public long getSizeProperty(String key) {
        return parseSize(key, required(key));
    }

    /**
     * A size in bytes, as {@link #getSizeProperty(String)}.
     *
     * @param key the property name
     * @param defaultValue the result when the property is absent
     * @return the size in bytes, or {@code defaultValue}
     * @throws NumberFormatException if the property is present and not a size
     */
    public long getSizeProperty(String key, long defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : parseSize(key, value);
    }

    /**
     * The property split at commas (with any white space around them).
     *
     * @param key the property name
     * @return the parts, or an empty array when the property is absent
     */
    public String[] getStringList(String key) {
        return getStringList(key, "\\s*,\\s*", new String[0]);
    }

    /**
     * The property split by {@link String#split(String)} at {@code delim}.
     *
     * @param key the property name
     * @param delim the delimiter, a regular expression
     * @return the parts, or an empty array when the property is absent
     */
    public String[] getStringList(String key, String delim) {
        return getStringList(key, delim, new String[0]);
    }

    /**
     * The property split by {@link String#split(String)} at {@code delim}.
     *
     * @param key the property name
     * @param delim the delimiter, a regular expression
     * @param defaultValue the result when the property is absent
     * @return the parts, or {@code defaultValue}
     */
    public String[] getStringList(String key, String delim, String[] defaultValue) {
        String value = getProperty(key);
        return value == null ? defaultValue : value.split(delim);
    }

    /**
     * @param key the property name
     * @param match the value to compare with
     * @return whether the property is present and equal to {@code match}
     */
    public boolean stringPropertyMatch(String key, String match) {
        String value = getProperty(key);
        return value != null && value.equals(match);
    }

    /**
     * The properties whose names start with {@code prefix} but are neither one of {@code validKeys} (full
     * names; compared ignoring case) nor, after the prefix, start with one of {@code validSubPrefixes}.
     *
     * @param prefix the prefix checked; {@code null} means every property
     * @param validKeys the known full names, or {@code null}
     * @param validSubPrefixes the known name prefixes after {@code prefix}, or {@code null}
     * @param printWarning whether to log a warning (SLF4J) for each unknown property
     * @return the unknown properties
     */
    public TypedProperties checkProperties(String prefix, String[] validKeys, String[] validSubPrefixes,
            boolean printWarning) {
        String p = prefix == null ? "" : prefix;
        TypedProperties unknown = new TypedProperties();
        for (String key : stringPropertyNames()) {
            if (!key.startsWith(p)) {
                continue;
            }
            String rest = key.substring(p.length());
            boolean known = validKeys != null && Arrays.stream(validKeys).anyMatch(key::equalsIgnoreCase)
                    || validSubPrefixes != null && Arrays.stream(validSubPrefixes).anyMatch(rest::startsWith);
            if (!known) {
                if (printWarning) {
                    LOG.warn("unknown property {} = {}", key, getProperty(key));
                }
                unknown.setProperty(key, getProperty(key));
            }
        }
        return unknown;
    }

    /**
     * The properties whose names start with {@code prefix}.
     *
     * @param prefix the prefix; {@code null} matches every name
     * @param removePrefix whether the result's names lose the prefix
     * @param removeProperties whether the matching properties are removed from this object (its
     *            defaults are never changed)
     * @return the matching properties
     */
    public TypedProperties filter(String prefix, boolean removePrefix, boolean removeProperties) {
        String p = prefix == null ? "" : prefix;
        TypedProperties result = new TypedProperties();
        for (String key : stringPropertyNames()) {
            if (key.startsWith(p)) {
                result.setProperty(removePrefix ? key.substring(p.length()) : key, getProperty(key));
                if (removeProperties) {
                    remove(key);
                }
            }
        }
        return result;
    }

    /**
     * The properties whose names start with {@code prefix}, names unchanged; this object is unchanged.
     *
     * @param prefix the prefix; {@code null} matches every name
     * @return the matching properties
     */
    public TypedProperties filter(String prefix) {
        return filter(prefix, false, false);
    }

    /**
     * Writes {@code name = value}, one line each, for the properties whose names start with
     * {@code prefix} (ignoring case), sorted by name.
     *
     * @param out the stream written to
     * @param prefix the prefix; {@code null} means every property
     */
    public void printProperties(PrintStream out, String prefix) {
        String p = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT);
        for (String key : sortedNames()) {
            if (key.toLowerCase(Locale.ROOT).startsWith(p)) {
                out.println(key + " = " + getProperty(key));
            }
        }
    }

    /** Every property, defaults included, as {@code name = value} lines sorted by name. */
    @Override
    public synchronized String toString() {
        StringBuilder b = new StringBuilder();
        for (String key : sortedNames()) {
            b.append(key).append(" = ").append(getProperty(key)).append('\n');
        }
        return b.toString();
    }

    /**
     * Equal when {@code object} is a {@code TypedProperties} with the same names and values, defaults
     * included (where a value comes from does not matter).
     */
    @Override
    public synchronized boolean equals(Object object) {
        if (this == object) {
            return true;
        }
        if (!(object instanceof TypedProperties)) {
            return false;
        }
        TypedProperties other = (TypedProperties) object;
        List<String> names = sortedNames();
        if (!names.equals(other.sortedNames())) {
            return false;
        }
        for (String key : names) {
            if (!getProperty(key).equals(other.getProperty(key))) {
                return false;
            }
        }
        return true;
    }

    /** Consistent with {@link #equals(Object)}: names and values, defaults included. */
    @Override
    public synchronized int hashCode() {
        int h = 0;
        for (String key : stringPropertyNames()) {
            h += key.hashCode() ^ getProperty(key).hashCode();
        }
        return h;
    }

    private List<String> sortedNames() {
        List<String> names = new ArrayList<>(stringPropertyNames());
        names.sort(null);
        return names;
    }

    private String required(String key) {
        String value = getProperty(key);
        if (value == null) {
            throw new NumberFormatException("property " + key + " is not set");
        }
        return value;
    }

    /** The parser of one numeric type. */
    private interface Parser<T> {
        T parse(String text);
    }

    private static <T> T parse(String key, String value, String what, Parser<T> parser) {
        try {
            return parser.parse(value.trim());
        } catch (NumberFormatException e) {
            throw new NumberFormatException("property " + key + " must be " + what + ", not \"" + value + "\"");
        }
    }

    private static long parseSize(String key, String value) {
        String text = value.trim();
        long unit = 1;
        if (!text.isEmpty()) {
            switch (Character.toUpperCase(text.charAt(text.length() - 1))) {
                case 'K':
                    unit = 1L << 10;
                    break;
                case 'M':
                    unit = 1L << 20;
                    break;
                case 'G':
                    unit = 1L << 30;
                    break;
                default:
                    break;
            }
        }
        String digits = unit == 1 ? text : text.substring(0, text.length() - 1);
        try {
            return Math.multiplyExact(Long.parseLong(digits), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new NumberFormatException("property " + key
                    + " must be a size (a long, optionally followed by K, M or G), not \"" + value + "\"");
        }
    }
}
