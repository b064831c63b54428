package ibis.impl.ucx;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the JNI glue {@code libibis-ucx.so} once, and says exactly why when it cannot.
 *
 * <p>The library travels in this module's jar as {@code native/<os>-<arch>/libibis-ucx.so} (for
 * example {@code native/linux-x86_64/}), built by {@code src/main/c/build.sh}. A library on the
 * class path as a plain file is loaded where it is; one inside a jar is copied to a temporary file
 * first, which is deleted once loaded (Linux keeps the mapping). Developers may name another build
 * with the system property {@value #LIBRARY_PROPERTY}.
 *
 * <p>When the jar was built without UCX's header, {@code build.sh} left
 * {@code native/<os>-<arch>/libibis-ucx.not-built} instead, whose line is the reason reported.
 *
 * <p>UCX must leave the JVM's signal handlers alone: the library is not loaded unless the JVM's
 * environment has {@code UCX_ERROR_SIGNALS=} (empty), as Ibis' launchers and this module's tests set.
 *
 * <p>The first attempt decides: a failure is not retried, every later call reports the same reason.
 */
public final class NativeLibrary {

    /** System property: the path of a {@code libibis-ucx.so} to load instead of the jar's. */
    public static final String LIBRARY_PROPERTY = "ibis.ucx.library";

    private static final String LIBRARY_NAME = "libibis-ucx.so";
    private static final String NOT_BUILT_NAME = "libibis-ucx.not-built";
    private static final String INSTALL_HINT = "install UCX (apt-get install libucx0, or run scripts/setup)";

    /** Whether {@link #load()} ran. */
    private static boolean attempted;
    /** Why the library cannot be used; null when it was loaded. */
    private static String failure;

    private NativeLibrary() {
    }

    /**
     * Thrown when the native library cannot be loaded; its message is a one-line reason that names
     * the fix.
     */
    public static final class UnavailableException extends IOException {
        private static final long serialVersionUID = 1L;

        UnavailableException(String reason) {
            super(reason);
        }
    }

    /**
     * Loads the library, once; later calls return at once or throw the first call's reason again.
     *
     * @throws UnavailableException when the library cannot be loaded or does not work
     */
    public static synchronized void load() throws UnavailableException {
        if (!attempted) {
            attempted = true;
            failure = tryLoad();
        }
        if (failure != null) {
            throw new UnavailableException(failure);
        }
    }

    /**
     * Loads the library if that was not tried yet.
     *
     * @return null when the library is loaded, else a one-line reason naming the fix
     */
    public static synchronized String unavailableReason() {
        try {
            load();
            return null;
        } catch (UnavailableException e) {
            return e.getMessage();
        }
    }

    /**
     * Why the jar on the class path has no library for this platform when its build said so (UCX's
     * header was missing there), else null: the one case in which tests are skipped rather than failed.
     */
    static String notBuiltReason() {
        URL notBuilt = NativeLibrary.class.getClassLoader().getResource(
                "native/" + platform() + "/" + NOT_BUILT_NAME);
        return notBuilt == null ? null : firstLine(notBuilt);
    }

    /**
     * The platform folder of this JVM: {@code <os>-<arch>} as {@code build.sh} names it, for example
     * {@code linux-x86_64} or {@code linux-aarch64}.
     */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replace(" ", "");
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        switch (arch) {
            case "amd64":
            case "x86_64":
                arch = "x86_64";
                break;
            case "arm64":
            case "aarch64":
                arch = "aarch64";
                break;
            default:
                break;
        }
        return os + "-" + arch;
    }

    private static String tryLoad() {
        String signals = signalCheck(System.getenv("UCX_ERROR_SIGNALS"), System.getenv("UCX_HANDLE_ERRORS"));
        if (signals != null) {
            return signals;
        }
        String override = System.getProperty(LIBRARY_PROPERTY);
        String failed;
        if (override != null && !override.isEmpty()) {
            Path path = Paths.get(override).toAbsolutePath();
            if (!Files.isRegularFile(path)) {
                return LIBRARY_PROPERTY + "=" + override
                        + ": no such file (unset the property to use the jar's library)";
            }
            failed = loadFile(path);
        } else {
            failed = loadFromClassPath();
        }
        if (failed != null) {
            return failed;
        }
        try {
            UcxNative.version();
            return null;
        } catch (UnsatisfiedLinkError e) {
            return "the loaded " + LIBRARY_NAME + " does not match this jar's UcxNative (" + e.getMessage()
                    + "): rebuild impl-ucx";
        }
    }

    /**
     * UCX installs handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE when its library loads, unless
     * {@code UCX_ERROR_SIGNALS} is empty (or {@code UCX_HANDLE_ERRORS=none}); the JVM raises SIGSEGV
     * itself (null checks, safepoints), so with UCX's handler in place it soon dies. Only the
     * environment the JVM started with can prevent that.
     *
     * @return null when UCX will leave the signals alone, else the reason and the fix
     */
    static String signalCheck(String errorSignals, String handleErrors) {
        if ((errorSignals != null && errorSignals.isBlank())
                || (handleErrors != null && handleErrors.strip().equalsIgnoreCase("none"))) {
            return null;
        }
        return "UCX_ERROR_SIGNALS is " + (errorSignals == null ? "not set" : "\"" + errorSignals + "\"")
                + ": UCX would take over SIGSEGV, which the JVM uses, and crash it; start the JVM with"
                + " UCX_ERROR_SIGNALS= (empty) in its environment";
    }

    private static String loadFromClassPath() {
        String folder = "native/" + platform() + "/";
        ClassLoader loader = NativeLibrary.class.getClassLoader();
        URL url = loader.getResource(folder + LIBRARY_NAME);
        if (url == null) {
            URL notBuilt = loader.getResource(folder + NOT_BUILT_NAME);
            if (notBuilt != null) {
                return "the native part was not built (" + firstLine(notBuilt) + ")";
            }
            return "this jar has no native library for " + platform() + " (no " + folder + LIBRARY_NAME
                    + " on the class path)";
        }
        if ("file".equals(url.getProtocol())) {
            try {
                return loadFile(Paths.get(url.toURI()));
            } catch (URISyntaxException | IllegalArgumentException ignored) {
                // Not a plain path after all: copy it like a jar entry.
            }
        }
        Path copy;
        try {
            copy = Files.createTempFile("libibis-ucx", ".so");
        } catch (IOException e) {
            return "cannot create a temporary file for " + LIBRARY_NAME + " (" + e.getMessage()
                    + "): set java.io.tmpdir to a writable folder";
        }
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return loadFile(copy);
        } catch (IOException e) {
            return "cannot copy " + url + " to " + copy + " (" + e.getMessage()
                    + "): set java.io.tmpdir to a writable folder";
        } finally {
            try {
                Files.deleteIfExists(copy);
            } catch (IOException e) {
                copy.toFile().deleteOnExit();
            }
        }
    }

    /** Loads one file; returns null, or the reason it failed. */
    private static String loadFile(Path path) {
        try {
            System.load(path.toAbsolutePath().toString());
            return null;
        } catch (UnsatisfiedLinkError e) {
            String m = String.valueOf(e.getMessage());
            for (String dependency : new String[] {"libucp.so", "libucs.so", "libuct.so", "libucm.so"}) {
                int at = m.indexOf(dependency);
                if (at >= 0 && m.contains("cannot open shared object file")) {
                    int end = m.indexOf(':', at);
                    String name = end > at ? m.substring(at, end) : dependency;
                    return name + " not found: " + INSTALL_HINT;
                }
            }
            return "cannot load " + path + ": " + m.replace('\n', ' ');
        }
    }

    private static String firstLine(URL url) {
        try (InputStream in = url.openStream()) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            int newline = text.indexOf('\n');
            return newline < 0 ? text : text.substring(0, newline);
        } catch (IOException e) {
            return "unreadable " + url + ": " + e.getMessage();
        }
    }
}
