package ibis.io.config;

import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;

/**
 * One configuration property of an Ibis subsystem: its name, its default, what it means, which
 * values it accepts, and how its text becomes a typed value. Every subsystem reads its properties
 * through these objects, so a bad value is reported the same way everywhere: an
 * {@link InvalidPropertyException} that names the property, the value and what is accepted.
 *
 * <p>A value is looked up in the {@link Properties} given to {@link #get(Properties)} (an Ibis
 * instance's properties), else in the system properties, else the default applies. A blank value
 * counts as not set.
 *
 * @param <T> the type of the value
 */
public final class Property<T> {

    private final String name;
    private final T defaultValue;
    private final String defaultText;
    private final String accepted;
    private final String meaning;
    private final Function<String, T> parser;

    private Property(String name, T defaultValue, String defaultText, String accepted, String meaning,
            Function<String, T> parser) {
        this.name = Objects.requireNonNull(name, "name");
        this.defaultValue = defaultValue;
        this.defaultText = defaultText;
        this.accepted = accepted;
        this.meaning = Objects.requireNonNull(meaning, "meaning");
        this.parser = parser;
    }

    /**
     * A whole number in {@code min..max}.
     *
     * @param defaultValue the value when not set
     */
    public static Property<Long> ofLong(String name, long defaultValue, long min, long max, String meaning) {
        String accepted = "a whole number " + range(min, max);
        return new Property<>(name, defaultValue, Long.toString(defaultValue), accepted, meaning, text -> {
            long value = Long.parseLong(text);
            return value < min || value > max ? null : value;
        });
    }

    /**
     * A whole number in {@code min..max} that fits an {@code int}.
     *
     * @param defaultValue the value when not set; null: the property has no default and
     *        {@link #get(Properties)} returns null when it is not set
     */
    public static Property<Integer> ofInt(String name, Integer defaultValue, int min, int max, String meaning) {
        String accepted = "a whole number " + range(min, max);
        return new Property<>(name, defaultValue, defaultValue == null ? null : defaultValue.toString(), accepted,
                meaning, text -> {
                    int value = Integer.parseInt(text);
                    return value < min || value > max ? null : value;
                });
    }

    /** {@code true} or {@code false} (in any case). */
    public static Property<Boolean> ofBoolean(String name, boolean defaultValue, String meaning) {
        return new Property<>(name, defaultValue, Boolean.toString(defaultValue), "true or false", meaning, text -> {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "true":
                    return Boolean.TRUE;
                case "false":
                    return Boolean.FALSE;
                default:
                    return null;
            }
        });
    }

    /**
     * Any text, taken as given (trimmed).
     *
     * @param defaultValue the value when not set (may be null: no default)
     */
    public static Property<String> ofText(String name, String defaultValue, String meaning) {
        return new Property<>(name, defaultValue, defaultValue, null, meaning, text -> text);
    }

    /**
     * Any text, whose default is not a value but a description (for example "the launcher's java"):
     * {@link #get(Properties)} returns null when it is not set, and the reader supplies the default.
     */
    public static Property<String> ofTextDescribedDefault(String name, String defaultDescription, String meaning) {
        return new Property<>(name, null, defaultDescription, null, meaning, text -> text);
    }

    private static String range(long min, long max) {
        return max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "≥ " + min : "from " + min + " to " + max;
    }

    /** The property's name, for example {@code ibis.tcp.port}. */
    public String name() {
        return name;
    }

    /** The default as shown in the property tables; null when there is none. */
    public String defaultText() {
        return defaultText;
    }

    /** What the property means, one sentence or two. */
    public String meaning() {
        return meaning;
    }

    /** The values accepted, for example "a whole number in 1..65535"; null when any text is. */
    public String accepted() {
        return accepted;
    }

    /**
     * The value of this property: from {@code properties} when it holds the name, else the system
     * property, else the default.
     *
     * @param properties the properties to look in first (may be null)
     * @throws InvalidPropertyException when the value is not accepted
     */
    public T get(Properties properties) {
        String text = text(properties);
        return text == null ? defaultValue : parse(text);
    }

    /**
     * The text set for this property (trimmed), from {@code properties} or else the system
     * properties; null when it is not set or blank.
     */
    public String text(Properties properties) {
        String text = properties == null ? null : properties.getProperty(name);
        if (text == null) {
            text = System.getProperty(name);
        }
        return text == null || text.isBlank() ? null : text.trim();
    }

    /**
     * Converts a value's text.
     *
     * @throws InvalidPropertyException when the text is not accepted
     */
    public T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException(name, text, accepted, e);
        }
        if (value == null) {
            throw new InvalidPropertyException(name, text, accepted, null);
        }
        return value;
    }

    @Override
    public String toString() {
        return name;
    }
}
