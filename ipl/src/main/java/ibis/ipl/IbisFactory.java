package ibis.ipl;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Ibis instances: the way a program starts using Ibis.
 *
 * <p>{@code createIbis} first combines the properties (see {@link IbisProperties} for the sources
 * and their priority), then looks for Ibis implementations and picks one:
 * <ul>
 * <li>Implementations are found with {@link ServiceLoader} as {@link IbisStarter} services, through
 *     the thread's context class loader and through a class loader over every {@code *.jar} file in
 *     the directories listed in {@link IbisProperties#IMPLEMENTATION_PATH} (a listed jar file is
 *     used as well).
 * <li>A starter that gives an {@link IbisStarter#unavailableReason() unavailability reason} (it
 *     cannot run in this JVM, for example its native library is missing) is never selected.
 * <li>When {@link IbisProperties#IMPLEMENTATION} is set, only the starter with that nickname or
 *     class name is considered; when it is unknown, unavailable or does not offer what the program
 *     requires, creation fails. Text after a {@code :} in the value is passed to the starter as
 *     sub-implementation.
 * <li>Otherwise, among the available starters that {@link IbisStarter#matches match} the required Ibis
 *     capabilities and port types, the one with the highest {@link IbisStarter#rank() rank} is
 *     chosen; equal ranks are ordered by nickname, then by class name, so the choice is always the
 *     same for the same set of installed implementations.
 * <li>When no starter matches, the {@link IbisCreationFailedException} lists every starter found
 *     with the Ibis capabilities and port types it lacks, or why it is unavailable.
 * </ul>
 * The chosen starter then starts the Ibis instance, which joins the pool named by
 * {@link IbisProperties#POOL_NAME}. Only that starter is tried: if it fails to start, creation
 * fails with its reason.
 *
 * <p>The static methods may be called from any thread, also concurrently.
 */
public final class IbisFactory {

    private static final Logger LOG = LoggerFactory.getLogger(IbisFactory.class);

    /** The class path resource holding the IPL's version information, in properties format. */
    public static final String IPL_MANIFEST_FILE = "ibis/ipl/IPL_MANIFEST";

    /** The nickname of the implementation that comes with Ibis (plain TCP sockets). */
    public static final String DEFAULT_IMPLEMENTATION = "tcp";

    private static final IbisFactory INSTANCE = new IbisFactory();

    /** Class loaders over plug-in jars, by their list of jar URLs, so each jar is loaded once. */
    private static final Map<List<URL>, ClassLoader> PLUGIN_LOADERS = new ConcurrentHashMap<>();

    private static volatile Properties manifest;

    private IbisFactory() {
    }

    /**
     * Returns a property of the IPL manifest ({@value #IPL_MANIFEST_FILE} on the class path), for
     * example {@code ipl.version}.
     *
     * @param p the property name
     * @return its value, or null when the manifest or the property is missing
     */
    public static String getManifestProperty(String p) {
        Properties m = manifest;
        if (m == null) {
            m = new Properties();
            try (InputStream in = IbisFactory.class.getClassLoader().getResourceAsStream(IPL_MANIFEST_FILE)) {
                if (in == null) {
                    LOG.warn("IPL manifest {} not found on the class path", IPL_MANIFEST_FILE);
                } else {
                    m.load(in);
                }
            } catch (IOException | IllegalArgumentException e) {
                LOG.warn("cannot read IPL manifest {}: {}", IPL_MANIFEST_FILE, e.toString());
            }
            manifest = m;
        }
        return m.getProperty(p);
    }

    /**
     * Creates an Ibis instance with properties from the default sources (see
     * {@link IbisProperties}) and no credentials or tag.
     *
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param portTypes the port types the program will use; ports of other types cannot be created
     * @return the running Ibis instance, a member of the pool
     * @throws IbisCreationFailedException when no implementation fits or the chosen one fails to start
     */
    public static Ibis createIbis(IbisCapabilities requiredCapabilities, RegistryEventHandler registryEventHandler,
            PortType... portTypes) throws IbisCreationFailedException {
        return createIbis(requiredCapabilities, null, true, registryEventHandler, null, (byte[]) null, portTypes);
    }

    /**
     * Creates an Ibis instance with the given properties and no credentials or tag.
     *
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param properties properties that override all others; may be null
     * @param addDefaultConfigProperties whether to read the default property sources (files and
     *        system properties); when false only the built-in defaults and {@code properties} are used
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param portTypes the port types the program will use
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when no implementation fits or the chosen one fails to start
     */
    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties,
            boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, PortType... portTypes)
            throws IbisCreationFailedException {
        return createIbis(requiredCapabilities, properties, addDefaultConfigProperties, registryEventHandler, null,
                (byte[]) null, portTypes);
    }

    /**
     * Creates an Ibis instance with the given properties and credentials.
     *
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param properties properties that override all others; may be null
     * @param addDefaultConfigProperties whether to read the default property sources
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param credentials credentials for joining the pool; may be null
     * @param portTypes the port types the program will use
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when no implementation fits or the chosen one fails to start
     */
    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties,
            boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials,
            PortType... portTypes) throws IbisCreationFailedException {
        return createIbis(requiredCapabilities, properties, addDefaultConfigProperties, registryEventHandler,
                credentials, (byte[]) null, portTypes);
    }

    /**
     * Creates an Ibis instance with the given properties, credentials and a text tag.
     *
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param properties properties that override all others; may be null
     * @param addDefaultConfigProperties whether to read the default property sources
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param credentials credentials for joining the pool; may be null
     * @param tag a tag for this instance, stored UTF-8 encoded in its {@link IbisIdentifier}; may be null
     * @param portTypes the port types the program will use
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when no implementation fits or the chosen one fails to start
     */
    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties,
            boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials,
            String tag, PortType... portTypes) throws IbisCreationFailedException {
        return createIbis(requiredCapabilities, properties, addDefaultConfigProperties, registryEventHandler,
                credentials, tag == null ? null : tag.getBytes(StandardCharsets.UTF_8), portTypes);
    }

    /**
     * Creates an Ibis instance with the given properties, credentials and tag. All other
     * {@code createIbis} methods come here.
     *
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param properties properties that override all others; may be null
     * @param addDefaultConfigProperties whether to read the default property sources
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param credentials credentials for joining the pool; may be null
     * @param tag a tag for this instance, visible in its {@link IbisIdentifier}; may be null
     * @param portTypes the port types the program will use
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when the properties cannot be read, no implementation
     *         fits, or the chosen one fails to start
     */
    public static Ibis createIbis(IbisCapabilities requiredCapabilities, Properties properties,
            boolean addDefaultConfigProperties, RegistryEventHandler registryEventHandler, Credentials credentials,
            byte[] tag, PortType... portTypes) throws IbisCreationFailedException {
        Properties resolved;
        try {
            resolved = resolveProperties(properties, addDefaultConfigProperties);
        } catch (IOException e) {
            throw new IbisCreationFailedException("cannot read the Ibis properties: " + e.getMessage(), e);
        }
        return INSTANCE.createIbis(registryEventHandler, requiredCapabilities, resolved, credentials, tag,
                portTypes, null);
    }

    /**
     * Creates an Ibis instance from already combined properties. Starters that build on another
     * implementation use this, with the factory passed to {@link IbisStarter#startIbis}.
     *
     * @param registryEventHandler where registry events go once enabled; may be null
     * @param requiredCapabilities the Ibis capabilities the program requires (null: none)
     * @param properties the complete properties; they are not combined with any other source
     *        (null: the default sources, as {@link IbisProperties#getDefaultProperties()})
     * @param credentials credentials for joining the pool; may be null
     * @param applicationTag a tag for this instance; may be null
     * @param portTypes the port types the program will use (null: none)
     * @param specifiedImplementation the implementation to use, in the format of
     *        {@link IbisProperties#IMPLEMENTATION}; null to use that property, or the best match
     * @return the running Ibis instance
     * @throws IbisCreationFailedException when no implementation fits or the chosen one fails to start
     */
    public Ibis createIbis(RegistryEventHandler registryEventHandler, IbisCapabilities requiredCapabilities,
            Properties properties, Credentials credentials, byte[] applicationTag, PortType[] portTypes,
            String specifiedImplementation) throws IbisCreationFailedException {
        IbisCapabilities capabilities = requiredCapabilities == null ? new IbisCapabilities() : requiredCapabilities;
        PortType[] types = portTypes == null ? new PortType[0] : portTypes.clone();
        Properties props = new Properties();
        if (properties == null) {
            try {
                props = resolveProperties(null, true);
            } catch (IOException e) {
                throw new IbisCreationFailedException("cannot read the Ibis properties: " + e.getMessage(), e);
            }
        } else {
            for (String key : properties.stringPropertyNames()) {
                props.setProperty(key, properties.getProperty(key));
            }
        }
        boolean verbose = Boolean.parseBoolean(props.getProperty(IbisProperties.VERBOSE, "false"));
        for (String ignored : new String[] { IbisProperties.SERVER_IS_HUB, IbisProperties.HUB_ADDRESSES }) {
            if (props.getProperty(ignored) != null) {
                LOG.debug("property {}={} is accepted for compatibility and ignored (no hubs are used)", ignored,
                        props.getProperty(ignored));
            }
        }

        String wanted = specifiedImplementation;
        if (wanted == null || wanted.trim().isEmpty()) {
            wanted = props.getProperty(IbisProperties.IMPLEMENTATION);
        }
        if (wanted == null || wanted.trim().isEmpty()) {
            wanted = props.getProperty(IbisProperties.STARTER);
        }
        String subImplementation = null;
        if (wanted != null) {
            wanted = wanted.trim();
            int colon = wanted.indexOf(':');
            if (colon >= 0) {
                subImplementation = wanted.substring(colon + 1);
                wanted = wanted.substring(0, colon);
            }
            if (wanted.isEmpty()) {
                wanted = null;
            }
        }

        List<IbisStarter> starters = findStarters(props.getProperty(IbisProperties.IMPLEMENTATION_PATH));
        IbisStarter chosen = select(starters, wanted, capabilities, types);
        if (verbose) {
            LOG.info("starting Ibis implementation {} (found {})", chosen, starters);
        } else {
            LOG.debug("starting Ibis implementation {} (found {})", chosen, starters);
        }

        Ibis ibis;
        try {
            ibis = chosen.startIbis(this, registryEventHandler, props, capabilities, credentials,
                    applicationTag == null ? null : applicationTag.clone(), types, subImplementation);
        } catch (IbisRuntimeException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IbisCreationFailedException("Ibis implementation " + chosen.getNickName()
                    + " failed to start: " + e, e);
        }
        if (ibis == null) {
            throw new IbisCreationFailedException("Ibis implementation " + chosen.getNickName()
                    + " returned no Ibis instance");
        }
        return ibis;
    }

    /**
     * Picks the starter to use (see the class description).
     *
     * @param wanted the nickname or class name the user asked for, or null
     */
    static IbisStarter select(List<IbisStarter> starters, String wanted, IbisCapabilities capabilities,
            PortType[] portTypes) throws IbisCreationFailedException {
        if (wanted != null) {
            IbisStarter named = null;
            for (IbisStarter s : starters) {
                if (s.getNickName().equals(wanted) || s.getClass().getName().equals(wanted)) {
                    named = s;
                    break;
                }
            }
            if (named == null) {
                StringBuilder b = new StringBuilder("Ibis implementation \"").append(wanted).append("\" (")
                        .append(IbisProperties.IMPLEMENTATION).append(") is not installed; found ");
                if (starters.isEmpty()) {
                    b.append("no implementations at all");
                } else {
                    b.append(starters.size()).append(':');
                    String separator = " ";
                    for (IbisStarter s : starters) {
                        b.append(separator).append(s.getNickName()).append(" (").append(s.getClass().getName())
                                .append(')');
                        separator = ", ";
                    }
                }
                String near = nearestNickName(wanted, starters);
                b.append(near != null ? ". Did you mean \"" + near + "\"? " : ". ").append(installHint(wanted));
                throw new IbisCreationFailedException(b.toString());
            }
            String reason = unavailableReason(named);
            if (reason != null) {
                throw new IbisCreationFailedException("Ibis implementation " + named.getNickName()
                        + ", selected with " + IbisProperties.IMPLEMENTATION + ", is unavailable: " + reason);
            }
            if (!matchesSafely(named, capabilities, portTypes)) {
                throw new IbisCreationFailedException("Ibis implementation " + named.getNickName()
                        + ", selected with " + IbisProperties.IMPLEMENTATION + ", does not offer what is required:"
                        + describeMismatch(named, capabilities, portTypes));
            }
            return named;
        }

        List<IbisStarter> matching = new ArrayList<>();
        for (IbisStarter s : starters) {
            if (unavailableReason(s) == null && matchesSafely(s, capabilities, portTypes)) {
                matching.add(s);
            }
        }
        if (matching.isEmpty()) {
            StringBuilder b = new StringBuilder("no Ibis implementation offers the required Ibis capabilities ")
                    .append(capabilities).append(" and port types ").append(Arrays.toString(portTypes));
            if (starters.isEmpty()) {
                b.append("; no implementations were found on the class path or in ")
                        .append(IbisProperties.IMPLEMENTATION_PATH).append(". ")
                        .append(installHint(DEFAULT_IMPLEMENTATION));
            } else {
                b.append("; found ").append(starters.size()).append(':');
                for (IbisStarter s : starters) {
                    String reason = unavailableReason(s);
                    if (reason != null) {
                        b.append("\n  ").append(s.getNickName()).append(" is unavailable: ").append(reason);
                    } else {
                        b.append("\n  ").append(s.getNickName()).append(" (").append(s.getClass().getName())
                                .append("):").append(describeMismatch(s, capabilities, portTypes));
                    }
                }
            }
            throw new IbisCreationFailedException(b.toString());
        }
        matching.sort(Comparator.comparingInt(IbisStarter::rank).reversed()
                .thenComparing(IbisStarter::getNickName)
                .thenComparing(s -> s.getClass().getName()));
        return matching.get(0);
    }

    /** The Maven artifacts (group ibis) of the implementations this project builds, by nickname. */
    private static final Map<String, String> KNOWN_ARTIFACTS = Map.of("tcp", "ibis-impl-tcp", "ucx", "ibis-impl-ucx",
            "mpi", "ibis-impl-mpi");

    /**
     * How to install implementation {@code nickname}: its artifact (when it is one of ours) on the
     * class path, or its jar in a directory named by {@code ibis.implementation.path}.
     */
    static String installHint(String nickname) {
        String artifact = KNOWN_ARTIFACTS.get(nickname);
        String jar = artifact == null ? "the jar of implementation \"" + nickname + "\""
                : "the artifact ibis:" + artifact + " (implementation \"" + nickname + "\")";
        return "Add " + jar + " to the class path, or put its jar (with the jars it needs) in a directory and name"
                + " that directory with -D" + IbisProperties.IMPLEMENTATION_PATH + "=DIR";
    }

    /** The starter's unavailability reason; a starter that fails to tell counts as unavailable. */
    private static String unavailableReason(IbisStarter s) {
        try {
            return s.unavailableReason();
        } catch (RuntimeException | LinkageError e) {
            return "it failed to tell whether it can run here: " + e;
        }
    }

    private static boolean matchesSafely(IbisStarter s, IbisCapabilities capabilities, PortType[] portTypes) {
        try {
            return s.matches(capabilities, portTypes);
        } catch (RuntimeException e) {
            LOG.warn("Ibis starter {} failed to check its capabilities; not using it", s.getClass().getName(), e);
            return false;
        }
    }

    /**
     * The capabilities of {@code type} that the starter rejects, each tried on its own in a port
     * type the starter accepts (one cardinality and one serialization, {@code type}'s own when
     * possible); empty when the starter accepts no such port type.
     */
    private static List<String> lackingPortCapabilities(IbisStarter s, IbisCapabilities capabilities, PortType type) {
        String[] base = null;
        for (String card : ownFirst(PortType.CARDINALITIES, type)) {
            for (String ser : ownFirst(PortType.SERIALIZATIONS, type)) {
                if (base == null && accepts(s, capabilities, new PortType(card, ser))) {
                    base = new String[] {card, ser};
                }
            }
        }
        List<String> lacking = new ArrayList<>();
        if (base == null) {
            return lacking;
        }
        for (String c : type.getCapabilities()) {
            PortType probe;
            if (PortType.CARDINALITIES.contains(c)) {
                probe = new PortType(c, base[1]);
            } else if (PortType.SERIALIZATIONS.contains(c)) {
                probe = new PortType(base[0], c);
            } else {
                probe = new PortType(base[0], base[1], c);
            }
            if (!accepts(s, capabilities, probe)) {
                lacking.add(c);
            }
        }
        return lacking;
    }

    /** {@code all}, those that {@code type} has first. */
    private static List<String> ownFirst(List<String> all, PortType type) {
        List<String> ordered = new ArrayList<>();
        for (String c : all) {
            if (type.hasCapability(c)) {
                ordered.add(c);
            }
        }
        for (String c : all) {
            if (!type.hasCapability(c)) {
                ordered.add(c);
            }
        }
        return ordered;
    }

    private static boolean accepts(IbisStarter s, IbisCapabilities capabilities, PortType type) {
        try {
            PortType[] unmatched = s.unmatchedPortTypes(capabilities, new PortType[] {type});
            return unmatched == null || unmatched.length == 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The installed nickname within two edits of {@code wanted} (a typo), or null. */
    private static String nearestNickName(String wanted, List<IbisStarter> starters) {
        String best = null;
        int bestDistance = 3;
        for (IbisStarter s : starters) {
            String nick = s.getNickName();
            int d = nick == null ? Integer.MAX_VALUE : editDistance(wanted.toLowerCase(java.util.Locale.ROOT),
                    nick.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = nick;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Says which Ibis capabilities and port types a starter lacks. */
    private static String describeMismatch(IbisStarter s, IbisCapabilities capabilities, PortType[] portTypes) {
        StringBuilder b = new StringBuilder();
        try {
            CapabilitySet missing = s.unmatchedIbisCapabilities(capabilities, portTypes);
            PortType[] unsupported = s.unmatchedPortTypes(capabilities, portTypes);
            boolean any = false;
            if (missing != null && missing.size() > 0) {
                b.append(" lacks Ibis capabilities ").append(missing);
                any = true;
            }
            if (unsupported != null && unsupported.length > 0) {
                b.append(any ? ";" : "").append(" does not support port types ");
                for (int i = 0; i < unsupported.length; i++) {
                    b.append(i == 0 ? "" : ", ").append(unsupported[i]);
                    List<String> lacking = lackingPortCapabilities(s, capabilities, unsupported[i]);
                    if (!lacking.isEmpty()) {
                        b.append(" (lacking ").append(String.join(", ", lacking)).append(')');
                    }
                }
                any = true;
            }
            if (!any) {
                b.append(" cannot be used here (it reports no missing capabilities)");
            }
        } catch (RuntimeException e) {
            b.append(" failed to report its missing capabilities: ").append(e);
        }
        return b.toString();
    }

    /**
     * Finds the installed starters: those visible to the context class loader, then those in the
     * plug-in jars. A starter class found twice is used once.
     */
    static List<IbisStarter> findStarters(String implementationPath) {
        Map<String, IbisStarter> found = new LinkedHashMap<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        load(context == null ? IbisFactory.class.getClassLoader() : context, found);
        if (context != null && context != IbisFactory.class.getClassLoader()) {
            load(IbisFactory.class.getClassLoader(), found);
        }
        ClassLoader plugins = pluginLoader(implementationPath);
        if (plugins != null) {
            load(plugins, found);
        }
        return new ArrayList<>(found.values());
    }

    private static void load(ClassLoader loader, Map<String, IbisStarter> found) {
        Iterator<IbisStarter> it = ServiceLoader.load(IbisStarter.class, loader).iterator();
        int errors = 0;
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                IbisStarter starter = it.next();
                found.putIfAbsent(starter.getClass().getName(), starter);
            } catch (ServiceConfigurationError | RuntimeException e) {
                LOG.warn("skipping an Ibis starter that cannot be loaded: {}", e.toString());
                if (++errors > 100) {
                    // A broken services file may make the iterator fail forever.
                    break;
                }
            }
        }
    }

    /**
     * The class loader over the plug-in jars that a value of {@code ibis.implementation.path}
     * names: the loader in which the factory looks for starters there (jars in the listed
     * directories, or listed jar files). For tools that show what is installed, such as
     * {@code ibis-run --help-properties}, which lists the property tables of those jars.
     *
     * @param implementationPath directories or jar files separated by {@link File#pathSeparator},
     *        may be null
     * @return the loader (its parent is the loader of the IPL), or null when the path names no jar
     */
    public static ClassLoader implementationPathLoader(String implementationPath) {
        return pluginLoader(implementationPath);
    }

    /** A class loader over the jars named by ibis.implementation.path, or null when there are none. */
    private static ClassLoader pluginLoader(String implementationPath) {
        if (implementationPath == null || implementationPath.trim().isEmpty()) {
            return null;
        }
        List<URL> jars = new ArrayList<>();
        for (String entry : implementationPath.split(File.pathSeparator)) {
            if (entry.trim().isEmpty()) {
                continue;
            }
            File dir = new File(entry.trim());
            File[] files;
            if (dir.isDirectory()) {
                files = dir.listFiles((d, name) -> name.endsWith(".jar"));
                if (files == null) {
                    LOG.warn("cannot list the directory {} named in {}", dir, IbisProperties.IMPLEMENTATION_PATH);
                    continue;
                }
                Arrays.sort(files);
            } else if (dir.isFile() && dir.getName().endsWith(".jar")) {
                files = new File[] { dir };
            } else {
                LOG.warn("{} names {}, which is neither a directory nor a jar file; ignored",
                        IbisProperties.IMPLEMENTATION_PATH, dir);
                continue;
            }
            for (File jar : files) {
                try {
                    jars.add(jar.getAbsoluteFile().toURI().toURL());
                } catch (MalformedURLException e) {
                    LOG.warn("ignoring plug-in jar {}: {}", jar, e.toString());
                }
            }
        }
        if (jars.isEmpty()) {
            return null;
        }
        // The loader stays open: the classes of a started Ibis keep coming from it.
        return PLUGIN_LOADERS.computeIfAbsent(List.copyOf(jars),
                urls -> new URLClassLoader(urls.toArray(new URL[0]), IbisFactory.class.getClassLoader()));
    }

    /**
     * Combines the properties (see {@link IbisProperties}) using the context class loader and the
     * working directory.
     */
    static Properties resolveProperties(Properties given, boolean addDefaults) throws IOException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return resolveProperties(given, addDefaults, loader == null ? IbisFactory.class.getClassLoader() : loader,
                new File(System.getProperty("user.dir", ".")), System.getProperties());
    }

    /**
     * Combines the properties, lowest priority first: built-in defaults, {@code ibis.properties} as a
     * resource of {@code loader}, {@code ibis.properties} in {@code workingDirectory}, the file named
     * by {@code ibis.properties.file}, the {@code ibis.*} entries of {@code system}, then
     * {@code given}. Without defaults only the first and the last are used.
     *
     * @return a new, flat Properties object
     * @throws IOException when a file cannot be read or the named properties file does not exist
     */
    static Properties resolveProperties(Properties given, boolean addDefaults, ClassLoader loader,
            File workingDirectory, Properties system) throws IOException {
        Properties result = IbisProperties.getHardcodedProperties();
        if (addDefaults) {
            URL resource = loader.getResource(IbisProperties.PROPERTIES_FILENAME);
            if (resource != null) {
                try (InputStream in = resource.openStream()) {
                    loadInto(result, in, resource.toString());
                }
            }
            File local = new File(workingDirectory, IbisProperties.PROPERTIES_FILENAME);
            if (local.isFile()) {
                try (InputStream in = new FileInputStream(local)) {
                    loadInto(result, in, local.getPath());
                }
            }
            Properties fromSystem = new Properties();
            for (String key : system.stringPropertyNames()) {
                if (key.startsWith(IbisProperties.PREFIX)) {
                    fromSystem.setProperty(key, system.getProperty(key));
                }
            }
            String named = given == null ? null : given.getProperty(IbisProperties.PROPERTIES_FILE);
            if (named == null) {
                named = fromSystem.getProperty(IbisProperties.PROPERTIES_FILE);
            }
            if (named == null) {
                named = result.getProperty(IbisProperties.PROPERTIES_FILE);
            }
            if (named != null) {
                File file = new File(named);
                if (!file.isAbsolute() && !file.isFile()) {
                    file = new File(workingDirectory, named);
                }
                if (!file.isFile()) {
                    throw new FileNotFoundException("the properties file " + named + " named by "
                            + IbisProperties.PROPERTIES_FILE + " does not exist");
                }
                try (InputStream in = new FileInputStream(file)) {
                    loadInto(result, in, file.getPath());
                }
            }
            result.putAll(fromSystem);
        }
        if (given != null) {
            for (String key : given.stringPropertyNames()) {
                result.setProperty(key, given.getProperty(key));
            }
        }
        return result;
    }

    private static void loadInto(Properties target, InputStream in, String source) throws IOException {
        Properties p = new Properties();
        try {
            p.load(in);
        } catch (IllegalArgumentException e) {
            throw new IOException("malformed properties file " + source + ": " + e.getMessage(), e);
        }
        LOG.debug("read {} Ibis properties from {}", p.size(), source);
        target.putAll(p);
    }
}
