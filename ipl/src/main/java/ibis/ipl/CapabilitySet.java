package ibis.ipl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * An immutable set of capability strings, such as {@code "connection.onetomany"} or
 * {@code "elections.strict"}. Ibis uses capability sets to say what a program needs
 * ({@link IbisCapabilities}, {@link PortType}) and what an implementation offers; a requirement is
 * met when the offered set contains every required capability ({@link #matchCapabilities}).
 *
 * <p>The capabilities are kept in sorted order, so {@link #getCapabilities()}, {@link #toString()}
 * and the coded form are the same for equal sets. Two capability sets are equal when they are of
 * the same class and hold the same strings: a {@link PortType} never equals an
 * {@link IbisCapabilities} object.
 *
 * <h2>Coded form</h2>
 * {@link #writeTo(DataOutput)} and {@link #toBytes()} write a 4-byte big-endian count followed,
 * for every capability in sorted order, by a 4-byte big-endian length and that many bytes of UTF-8.
 * The reading constructors accept at most {@value #MAX_CAPABILITIES} capabilities of at most
 * {@value #MAX_CAPABILITY_LENGTH} bytes each and check both bounds before allocating anything;
 * anything else (negative or too large numbers, truncated input, invalid UTF-8, empty or duplicate
 * capabilities, bytes left over) is rejected with an {@link IOException}.
 *
 * <h2>Capability files</h2>
 * {@link #load(String)} and {@link #load(InputStream)} read a file in {@link Properties} format.
 * Every key is a capability, unless its value is {@code false} (ignoring case), so that
 * {@code closed.world = false} switches a capability off. The key {@code capabilities} is special:
 * its value is a comma-separated list of capabilities, each of which is added. For example:
 * <pre>
 * # what this program needs
 * capabilities = elections.strict, signals
 * closed.world
 * membership.totally.ordered = true
 * termination = false
 * </pre>
 * gives {@code closed.world, elections.strict, membership.totally.ordered, signals}.
 *
 * <p>Instances are immutable and may be shared between threads.
 */
public class CapabilitySet {

    /** The largest number of capabilities accepted from a coded form. */
    public static final int MAX_CAPABILITIES = 4096;

    /** The largest length, in UTF-8 bytes, of one capability accepted from a coded form. */
    public static final int MAX_CAPABILITY_LENGTH = 4096;

    /** The key of a capability file whose value lists capabilities separated by commas. */
    static final String CAPABILITIES_KEY = "capabilities";

    private final SortedSet<String> capabilities;

    /** Creates an empty capability set. */
    public CapabilitySet() {
        this.capabilities = Collections.emptySortedSet();
    }

    /**
     * Creates a capability set holding the given capabilities; duplicates are kept once.
     *
     * @param values the capabilities
     * @throws IllegalArgumentException when a capability is null or empty
     */
    public CapabilitySet(String... values) {
        TreeSet<String> set = new TreeSet<>();
        if (values != null) {
            for (String value : values) {
                if (value == null || value.isEmpty()) {
                    throw new IllegalArgumentException("a capability must be a non-empty string, got "
                            + (value == null ? "null" : "\"\""));
                }
                set.add(value);
            }
        }
        this.capabilities = Collections.unmodifiableSortedSet(set);
    }

    /**
     * Creates a copy of another capability set (of this class, whatever the other's class is).
     *
     * @param capabilitySet the set to copy
     */
    public CapabilitySet(CapabilitySet capabilitySet) {
        this.capabilities = capabilitySet.capabilities;
    }

    /**
     * Decodes a capability set from its coded form (see the class description).
     *
     * @param codedForm exactly the bytes of one coded capability set
     * @throws IOException when the bytes are not a well-formed coded capability set
     */
    public CapabilitySet(byte[] codedForm) throws IOException {
        this(codedForm, 0, codedForm.length);
    }

    /**
     * Decodes a capability set from part of an array.
     *
     * @param codedForm the array holding the coded form
     * @param offset where the coded form starts
     * @param length the length of the coded form; all of it must be used
     * @throws IOException when the bytes are not a well-formed coded capability set
     */
    public CapabilitySet(byte[] codedForm, int offset, int length) throws IOException {
        this.capabilities = decode(codedForm, offset, length);
    }

    /**
     * Reads a capability set written by {@link #writeTo(DataOutput)}.
     *
     * @param dis where to read from
     * @throws IOException when reading fails or the input is malformed
     */
    public CapabilitySet(DataInput dis) throws IOException {
        this.capabilities = read(dis);
    }

    private static SortedSet<String> decode(byte[] codedForm, int offset, int length) throws IOException {
        if (offset < 0 || length < 0 || offset > codedForm.length - length) {
            throw new IOException("malformed capability set: range " + offset + "+" + length
                    + " outside an array of " + codedForm.length + " bytes");
        }
        ByteArrayInputStream bytes = new ByteArrayInputStream(codedForm, offset, length);
        SortedSet<String> result = read(new DataInputStream(bytes));
        if (bytes.available() != 0) {
            throw new IOException("malformed capability set: " + bytes.available() + " bytes left over");
        }
        return result;
    }

    private static SortedSet<String> read(DataInput in) throws IOException {
        try {
            int count = in.readInt();
            if (count < 0 || count > MAX_CAPABILITIES) {
                throw new IOException("malformed capability set: " + count + " capabilities (allowed 0.."
                        + MAX_CAPABILITIES + ")");
            }
            TreeSet<String> set = new TreeSet<>();
            for (int i = 0; i < count; i++) {
                int length = in.readInt();
                if (length <= 0 || length > MAX_CAPABILITY_LENGTH) {
                    throw new IOException("malformed capability set: capability " + i + " has length " + length
                            + " (allowed 1.." + MAX_CAPABILITY_LENGTH + ")");
                }
                byte[] utf8 = new byte[length];
                in.readFully(utf8);
                String value;
                try {
                    value = StandardCharsets.UTF_8.newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(utf8)).toString();
                } catch (CharacterCodingException e) {
                    throw new IOException("malformed capability set: capability " + i + " is not valid UTF-8", e);
                }
                if (!set.add(value)) {
                    throw new IOException("malformed capability set: duplicate capability \"" + value + "\"");
                }
            }
            return Collections.unmodifiableSortedSet(set);
        } catch (EOFException e) {
            throw new IOException("malformed capability set: input ends too early", e);
        }
    }

    /**
     * Returns the coded form of this set (see the class description).
     *
     * @return a new array holding the coded form
     */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            writeTo(new DataOutputStream(bytes));
        } catch (IOException e) {
            // A ByteArrayOutputStream does not fail.
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Writes the coded form of this set (see the class description).
     *
     * @param dataOutput where to write to
     * @throws IOException when writing fails
     */
    public void writeTo(DataOutput dataOutput) throws IOException {
        dataOutput.writeInt(capabilities.size());
        for (String capability : capabilities) {
            byte[] utf8 = capability.getBytes(StandardCharsets.UTF_8);
            dataOutput.writeInt(utf8.length);
            dataOutput.write(utf8);
        }
    }

    /**
     * Tells whether this set holds a capability.
     *
     * @param capability the capability to look for
     * @return true when it is in this set
     */
    public boolean hasCapability(String capability) {
        return capability != null && capabilities.contains(capability);
    }

    /**
     * Tells whether this set holds every capability of another set, that is, whether what this set
     * offers meets what the other set requires.
     *
     * @param capabilitySet the required capabilities
     * @return true when none of them is missing from this set
     */
    public boolean matchCapabilities(CapabilitySet capabilitySet) {
        return capabilities.containsAll(capabilitySet.capabilities);
    }

    /**
     * Returns the capabilities of this set that start with a prefix, for example all
     * {@code "serialization."} capabilities.
     *
     * @param prefix the prefix
     * @return a new (plain) capability set with the matching capabilities
     */
    public CapabilitySet getCapabilitiesWithPrefix(String prefix) {
        List<String> result = new ArrayList<>();
        for (String capability : capabilities) {
            if (capability.startsWith(prefix)) {
                result.add(capability);
            }
        }
        return new CapabilitySet(result.toArray(new String[0]));
    }

    /**
     * Returns the capabilities of another set that this set lacks: what is missing when this set
     * is offered and {@code capabilitySet} is required.
     *
     * @param capabilitySet the required capabilities
     * @return a new (plain) capability set, empty when {@link #matchCapabilities} is true
     */
    public CapabilitySet unmatchedCapabilities(CapabilitySet capabilitySet) {
        List<String> result = new ArrayList<>();
        for (String capability : capabilitySet.capabilities) {
            if (!capabilities.contains(capability)) {
                result.add(capability);
            }
        }
        return new CapabilitySet(result.toArray(new String[0]));
    }

    /**
     * Returns the number of capabilities in this set.
     *
     * @return the size
     */
    public int size() {
        return capabilities.size();
    }

    /**
     * Loads a capability file (format in the class description). The name is first looked up as a
     * resource on the class path (the thread's context class loader, then the loader of this
     * class), then as a file in the file system.
     *
     * @param name the resource or file name
     * @return the capabilities in the file
     * @throws FileNotFoundException when there is no such resource or file
     * @throws IOException when the file cannot be read
     */
    public static CapabilitySet load(String name) throws IOException {
        return new CapabilitySet(readCapabilityFile(name));
    }

    /**
     * Reads a capability file (format in the class description) from a stream. The stream is not
     * closed.
     *
     * @param input where to read from
     * @return the capabilities in the stream
     * @throws IOException when the stream cannot be read or is not in properties format
     */
    public static CapabilitySet load(InputStream input) throws IOException {
        return new CapabilitySet(readCapabilities(input));
    }

    /**
     * Returns the capabilities of this set in sorted order.
     *
     * @return a new array
     */
    public String[] getCapabilities() {
        return capabilities.toArray(new String[0]);
    }

    /** Opens {@code name} as a class path resource or file and reads the capabilities in it. */
    static String[] readCapabilityFile(String name) throws IOException {
        try (InputStream in = open(name)) {
            return readCapabilities(in);
        }
    }

    private static InputStream open(String name) throws IOException {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        InputStream in = context == null ? null : context.getResourceAsStream(name);
        if (in == null) {
            in = CapabilitySet.class.getClassLoader().getResourceAsStream(name);
        }
        if (in == null) {
            File file = new File(name);
            if (!file.isFile()) {
                throw new FileNotFoundException("capability file \"" + name
                        + "\" is neither on the class path nor in the file system");
            }
            in = new FileInputStream(file);
        }
        return in;
    }

    static String[] readCapabilities(InputStream input) throws IOException {
        Properties properties = new Properties();
        try {
            properties.load(input);
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed capability file: " + e.getMessage(), e);
        }
        return fromProperties(properties);
    }

    /** Interprets properties as a capability file (see the class description). */
    static String[] fromProperties(Properties properties) {
        TreeSet<String> result = new TreeSet<>();
        for (String key : properties.stringPropertyNames()) {
            String value = properties.getProperty(key).trim();
            if (key.equals(CAPABILITIES_KEY)) {
                for (String item : value.split(",")) {
                    if (!item.trim().isEmpty()) {
                        result.add(item.trim());
                    }
                }
            } else if (!key.isEmpty() && !value.equalsIgnoreCase("false")) {
                result.add(key);
            }
        }
        return result.toArray(new String[0]);
    }

    /** Equal when {@code other} is of the same class and holds the same capabilities. */
    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other == null || other.getClass() != getClass()) {
            return false;
        }
        return capabilities.equals(((CapabilitySet) other).capabilities);
    }

    @Override
    public int hashCode() {
        return capabilities.hashCode();
    }

    /** The capabilities in sorted order, for example {@code [connection.onetoone, serialization.data]}. */
    @Override
    public String toString() {
        return capabilities.toString();
    }
}
