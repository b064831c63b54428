package ibis.rewriter;

import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ibisc} command: rewrites directories of class files and jars in place, adding Ibis
 * serializers to their plain Serializable classes (see {@link Rewriter}); with {@code --java-rmi}
 * it first turns a compiled {@code java.rmi} program into an Ibis RMI one; unless
 * {@code --no-rmi-stubs} is given it writes the Ibis RMI stub and skeleton of every remote class
 * next to it (see {@link RmiStubPass}).
 *
 * <pre>
 * ibisc [-v] [-cp PATH] [--java-rmi] [--no-rmi-stubs] &lt;dir|jar&gt;...
 * </pre>
 *
 * Exit status: 0 done, 1 failure (the message names the class or file), 2 usage error.
 */
public final class Ibisc {

    /** Exit status: everything was rewritten (or had nothing to rewrite). */
    public static final int OK = 0;
    /** Exit status: an input could not be read, parsed, generated or written. */
    public static final int FAILURE = 1;
    /** Exit status: bad command line. */
    public static final int USAGE = 2;

    private static final String USAGE_TEXT = String.join(System.lineSeparator(),
            "usage: ibisc [-v] [-cp PATH] [--java-rmi] [--no-rmi-stubs] <dir|jar>...",
            "Rewrites the Serializable classes of the given class directories and jars in place, adding",
            "Ibis serializers (ibis.io.Serializable, ibisWrite, a reading constructor, a generator class),",
            "and writes the Ibis RMI stub C_IbisStub and skeleton C_IbisSkeleton next to every concrete class C",
            "that implements remote interfaces (ones extending java.rmi.Remote), so Ibis RMI need not",
            "generate them at run time.",
            "  -v, --verbose    list every class with what was done and why",
            "  -cp PATH         class path (" + File.pathSeparator
                    + "-separated directories and jars) where classes the",
            "                   input refers to are looked up (the JDK's classes are always seen)",
            "  --java-rmi       first rename java.rmi.Naming, java.rmi.registry.LocateRegistry, "
                    + "java.rmi.registry.Registry,",
            "                   java.rmi.server.UnicastRemoteObject and java.rmi.server.RemoteStub to their ibis.rmi",
            "                   counterparts wherever the classes use them, so a compiled java.rmi program runs over",
            "                   Ibis RMI (exceptions and java.rmi.Remote stay); every used method is checked against",
            "                   ibis-rmi, found on -cp or on ibisc's own class path; the renamed classes get",
            "                   build-time stubs as well",
            "  --no-rmi-stubs   do not write RMI stubs and skeletons (Ibis RMI then generates them at run time)",
            "  -h, --help       show this help",
            "IPL 2.x's options are accepted: -verbose, -no-verbose, -rmi-java2ibis (= --java-rmi), and -rmi, -gmi,",
            "-iogen-force, -keep, -verify, -compress, -debug and their -no- forms, which change nothing here.",
            "Exit status: 0 done, 1 failure, 2 usage error.");

    private Ibisc() {
    }

    /** Runs the command and exits with its status. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command, printing to {@code out} and {@code err}; returns the exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        boolean verbose = false;
        boolean javaRmi = false;
        boolean rmiStubs = true;
        List<Path> classPath = new ArrayList<>();
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-v":
                case "--verbose":
                case "-verbose":
                    verbose = true;
                    break;
                case "-no-verbose":
                    verbose = false;
                    break;
                case "--java-rmi":
                case "-rmi-java2ibis": // IPL 2.x's name
                    javaRmi = true;
                    break;
                case "-rmi":
                case "-gmi":
                case "-iogen-force":
                case "-keep":
                case "-no-keep":
                case "-verify":
                case "-no-verify":
                case "-compress":
                case "-no-compress":
                case "-d":
                case "-debug":
                case "-no-debug":
                    // IPL 2.x's ibisc options: serializers, RMI and GMI stubs are always made here, and
                    // the others concern that rewriter's own workings; accepted so 2.x builds run.
                    break;
                case "--no-rmi-stubs":
                    rmiStubs = false;
                    break;
                case "-h":
                case "-help":
                case "--help":
                case "/?":
                    out.println(USAGE_TEXT);
                    return OK;
                case "-cp":
                case "-classpath":
                case "--class-path":
                    if (i + 1 >= args.length) {
                        return usage(err, a + " needs a class path");
                    }
                    for (String e : args[++i].split(File.pathSeparator)) {
                        if (!e.isEmpty()) {
                            classPath.add(Paths.get(e));
                        }
                    }
                    break;
                default:
                    if (a.startsWith("-")) {
                        return usage(err, "unknown option " + a);
                    }
                    Path p = Paths.get(a);
                    if (!Files.exists(p)) {
                        return usage(err, "no such file or directory: " + a);
                    }
                    if (!Files.isDirectory(p) && !a.toLowerCase(java.util.Locale.ROOT).endsWith(".jar")) {
                        return usage(err, "not a directory or a .jar file: " + a);
                    }
                    inputs.add(p);
                    break;
            }
        }
        if (inputs.isEmpty()) {
            return usage(err, "no input directory or jar given");
        }
        Rewriter rewriter = new Rewriter().classPath(classPath).javaRmi(javaRmi).rmiStubs(rmiStubs);
        if (verbose) {
            rewriter.listener(c -> out.println(describe(c)));
        }
        RewriteResult result;
        try {
            result = rewriter.rewrite(inputs);
        } catch (RewriteException e) {
            err.println("ibisc: " + e.getMessage());
            return FAILURE;
        }
        for (String w : result.warnings()) {
            err.println("ibisc: warning: " + w);
        }
        if (verbose) {
            out.println("ibisc: " + result.count(ClassOutcome.Status.REWRITTEN) + " rewritten, "
                    + result.count(ClassOutcome.Status.ALREADY_REWRITTEN) + " already rewritten, "
                    + result.count(ClassOutcome.Status.SKIPPED) + " skipped, "
                    + result.count(ClassOutcome.Status.NOT_SERIALIZABLE) + " not serializable"
                    + (javaRmi ? ", " + result.javaRmiRenamed() + " renamed from java.rmi to ibis.rmi" : "")
                    + (rmiStubs ? ", " + result.rmiStubs() + " remote classes with RMI stubs" : ""));
        }
        return OK;
    }

    private static String describe(ClassOutcome c) {
        String rmi = (c.javaRmiRenamed() ? " (java.rmi renamed to ibis.rmi)" : "")
                + (c.rmiStub() != null ? " (RMI stub " + c.rmiStub() + " and skeleton)" : "");
        switch (c.status()) {
            case REWRITTEN:
                return "rewritten " + c.className() + rmi;
            case ALREADY_REWRITTEN:
                return "unchanged " + c.className() + ": " + c.reason() + rmi;
            default:
                return "skipped   " + c.className() + ": " + c.reason() + rmi;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("ibisc: " + problem);
        err.println(USAGE_TEXT);
        return USAGE;
    }
}
