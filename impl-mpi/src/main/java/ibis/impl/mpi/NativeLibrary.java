package ibis.impl.mpi;

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
import java.util.Map;

/**
 * Loads the JNI glue over MPI once, and says exactly why when it cannot.
 *
 * <p>Two builds of the glue exist, one per MPI library: {@code libibis-mpi.so} (Open MPI) and
 * {@code libibis-mpi-mpich.so} (MPICH). They travel in this module's jar under
 * {@code native/<os>-<arch>/} (for example {@code native/linux-x86_64/}), built by
 * {@code src/main/c/build.sh}. The one loaded must match the MPI library the process was started by,
 * since both define the same MPI symbols with different ABIs: the system property
 * {@value #FLAVOUR_PROPERTY} ({@code openmpi} or {@code mpich}) names it, else the launcher's
 * environment tells ({@code OMPI_COMM_WORLD_RANK}: Open MPI's {@code mpirun}; {@code PMI_RANK} or
 * {@code PMI_FD}: MPICH's Hydra), else Open MPI is assumed (a process started without a launcher
 * is a singleton of either). A library on the class path as a plain file is loaded where it is; one
 * inside a jar is copied to a temporary file first, which is deleted once loaded (Linux keeps the
 * mapping). Developers may name another build with the system property {@value #LIBRARY_PROPERTY}.
 *
 * <p>When the jar was built without an MPI's header, {@code build.sh} left
 * {@code native/<os>-<arch>/<library>.not-built} instead, whose line is the reason reported.
 *
 * <p>MPICH as Debian builds it runs over UCX, whose library installs handlers for SIGSEGV and other
 * signals the JVM uses when it loads, unless {@code UCX_ERROR_SIGNALS=} (empty) is in the JVM's
 * environment: the MPICH build is not loaded without it.
 *
 * <p>The first attempt decides: a failure is not retried, every later call reports the same reason.
 */
public final class NativeLibrary {

    /** System property: the path of a glue library to load instead of the jar's. */
    public static final String LIBRARY_PROPERTY = "ibis.mpi.library";
    /** System property: the MPI library the process runs under, {@code openmpi} or {@code mpich}. */
    public static final String FLAVOUR_PROPERTY = "ibis.mpi.flavour";

    /** Open MPI, the flavour assumed when nothing names one. */
    static final Flavour OPEN_MPI = new Flavour("openmpi", "libibis-mpi", "libmpi.so",
            "install Open MPI (apt-get install libopenmpi3, or run scripts/setup)");
    /** MPICH. */
    static final Flavour MPICH = new Flavour("mpich", "libibis-mpi-mpich", "libmpich.so",
            "install MPICH (apt-get install libmpich12, or run scripts/setup)");

    /** One MPI library and the build of the glue for it. */
    static final class Flavour {
        final String name;
        final String libraryName;
        final String notBuiltName;
        final String dependency;
        final String installHint;

        Flavour(String name, String baseName, String dependency, String installHint) {
            this.name = name;
            this.libraryName = baseName + ".so";
            this.notBuiltName = baseName + ".not-built";
            this.dependency = dependency;
            this.installHint = installHint;
        }

        @Override
        public String toString() {
            return name;
        }
    }

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
     * Why the jar on the class path has no library of this flavour for this platform when its build
     * said so (that MPI's header was missing there), else null: the one case in which tests are
     * skipped rather than failed.
     */
    static String notBuiltReason(Flavour flavour) {
        URL notBuilt = NativeLibrary.class.getClassLoader().getResource(
                "native/" + platform() + "/" + flavour.notBuiltName);
        return notBuilt == null ? null : firstLine(notBuilt);
    }

    /**
     * The MPI library this process runs under: the property {@value #FLAVOUR_PROPERTY}, else what the
     * launcher's environment says, else Open MPI.
     *
     * @throws UnavailableException when the property names no known MPI
     */
    static Flavour flavour(String property, Map<String, String> environment) throws UnavailableException {
        if (property != null && !property.isBlank()) {
            String name = property.strip().toLowerCase(Locale.ROOT);
            if (name.equals(OPEN_MPI.name)) {
                return OPEN_MPI;
            }
            if (name.equals(MPICH.name)) {
                return MPICH;
            }
            throw new UnavailableException(FLAVOUR_PROPERTY + "=" + property + ": unknown MPI library (use "
                    + OPEN_MPI.name + " or " + MPICH.name + ")");
        }
        if (environment.containsKey("OMPI_COMM_WORLD_RANK")) {
            return OPEN_MPI;
        }
        if (environment.containsKey("PMI_RANK") || environment.containsKey("PMI_FD")) {
            return MPICH;
        }
        return OPEN_MPI;
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
        Flavour flavour;
        try {
            flavour = flavour(System.getProperty(FLAVOUR_PROPERTY), System.getenv());
        } catch (UnavailableException e) {
            return e.getMessage();
        }
        if (flavour == MPICH) {
            String signals = signalCheck(System.getenv("UCX_ERROR_SIGNALS"), System.getenv("UCX_HANDLE_ERRORS"));
            if (signals != null) {
                return signals;
            }
        }
        String override = System.getProperty(LIBRARY_PROPERTY);
        String failed;
        if (override != null && !override.isEmpty()) {
            Path path = Paths.get(override).toAbsolutePath();
            if (!Files.isRegularFile(path)) {
                return LIBRARY_PROPERTY + "=" + override
                        + ": no such file (unset the property to use the jar's library)";
            }
            failed = loadFile(path, flavour);
        } else {
            failed = loadFromClassPath(flavour);
        }
        if (failed != null) {
            return failed;
        }
        try {
            String built = MpiNative.flavour();
            if (!built.equals(flavour.name)) {
                return "the loaded library was built for " + built + " but the process runs under " + flavour
                        + ": set " + FLAVOUR_PROPERTY + " or " + LIBRARY_PROPERTY + " to match";
            }
            MpiNative.version();
            return null;
        } catch (UnsatisfiedLinkError e) {
            return "the loaded " + flavour.libraryName + " does not match this jar's MpiNative (" + e.getMessage()
                    + "): rebuild impl-mpi";
        }
    }

    /**
     * UCX (which MPICH links) installs handlers for SIGSEGV, SIGBUS, SIGILL and SIGFPE when its library loads, unless
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
                + ": MPICH's UCX would take over SIGSEGV, which the JVM uses, and crash it; start the JVM with"
                + " UCX_ERROR_SIGNALS= (empty) in its environment";
    }

    private static String loadFromClassPath(Flavour flavour) {
        String folder = "native/" + platform() + "/";
        ClassLoader loader = NativeLibrary.class.getClassLoader();
        URL url = loader.getResource(folder + flavour.libraryName);
        if (url == null) {
            URL notBuilt = loader.getResource(folder + flavour.notBuiltName);
            if (notBuilt != null) {
                return "the native part for " + flavour + " was not built (" + firstLine(notBuilt) + ")";
            }
            return "this jar has no native library for " + flavour + " on " + platform() + " (no " + folder
                    + flavour.libraryName + " on the class path)";
        }
        if ("file".equals(url.getProtocol())) {
            try {
                return loadFile(Paths.get(url.toURI()), flavour);
            } catch (URISyntaxException | IllegalArgumentException ignored) {
                // Not a plain path after all: copy it like a jar entry.
            }
        }
        Path copy;
        try {
            copy = Files.createTempFile(flavour.libraryName.replace(".so", ""), ".so");
        } catch (IOException e) {
            return "cannot create a temporary file for " + flavour.libraryName + " (" + e.getMessage()
                    + "): set java.io.tmpdir to a writable folder";
        }
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            return loadFile(copy, flavour);
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
    private static String loadFile(Path path, Flavour flavour) {
        try {
            System.load(path.toAbsolutePath().toString());
            return null;
        } catch (UnsatisfiedLinkError e) {
            String m = String.valueOf(e.getMessage());
            int at = m.indexOf(flavour.dependency);
            if (at >= 0 && m.contains("cannot open shared object file")) {
                int end = m.indexOf(':', at);
                String name = end > at ? m.substring(at, end) : flavour.dependency;
                return name + " not found (the " + flavour + " library): " + flavour.installHint;
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
