package ibis.rewriter.maven;

import ibis.rewriter.ClassOutcome;
import ibis.rewriter.RewriteException;
import ibis.rewriter.RewriteResult;
import ibis.rewriter.Rewriter;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.logging.Log;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code rewrite}: runs the Ibis bytecode rewriter on the project's compiled classes in place
 * (by default in phase {@code process-classes}, so the jar and the tests see rewritten classes).
 * The project's compile class path is where the rewriter looks up the classes its rules need.
 */
@Mojo(name = "rewrite", defaultPhase = LifecyclePhase.PROCESS_CLASSES,
        requiresDependencyResolution = ResolutionScope.COMPILE, threadSafe = true)
public class RewriteMojo extends AbstractMojo {

    /** The directory of class files to rewrite. */
    @Parameter(defaultValue = "${project.build.outputDirectory}", required = true)
    private File classesDirectory;

    /** The compile class path (the classes directory itself included). */
    @Parameter(defaultValue = "${project.compileClasspathElements}", readonly = true, required = true)
    private List<String> classpathElements;

    /**
     * First run the java.rmi drop-in pass: references to {@code java.rmi.Naming},
     * {@code java.rmi.registry.LocateRegistry}/{@code Registry} and
     * {@code java.rmi.server.UnicastRemoteObject} become the {@code ibis.rmi} ones (ibis-rmi must
     * be a compile dependency of the project, so the pass can check every used method).
     */
    @Parameter(property = "ibis.javaRmi", defaultValue = "false")
    private boolean javaRmi;

    /**
     * Write the Ibis RMI stub {@code C_IbisStub} and skeleton {@code C_IbisSkeleton} next to every
     * concrete class {@code C} implementing remote interfaces, so Ibis RMI need not generate them
     * at run time (also after the java.rmi pass). False leaves them to the run time.
     */
    @Parameter(property = "ibis.rmiStubs", defaultValue = "true")
    private boolean rmiStubs;

    /** Log every class with what was done and why (otherwise only at debug level). */
    @Parameter(property = "ibis.rewrite.verbose", defaultValue = "false")
    private boolean verbose;

    /** Skip the goal. */
    @Parameter(property = "ibis.rewrite.skip", defaultValue = "false")
    private boolean skip;

    /** For Maven. */
    public RewriteMojo() {
    }

    @Override
    public void execute() throws MojoExecutionException {
        Log log = getLog();
        if (skip) {
            log.info("ibis rewrite: skipped (ibis.rewrite.skip)");
            return;
        }
        if (classesDirectory == null || !classesDirectory.isDirectory()) {
            log.info("ibis rewrite: no classes directory " + classesDirectory + ", nothing to rewrite");
            return;
        }
        Path classes = classesDirectory.toPath().toAbsolutePath().normalize();
        List<Path> classPath = new ArrayList<>();
        if (classpathElements != null) {
            for (String e : classpathElements) {
                Path p = new File(e).toPath().toAbsolutePath().normalize();
                if (!p.equals(classes)) {
                    classPath.add(p);
                }
            }
        }
        Rewriter rewriter = new Rewriter().classPath(classPath).javaRmi(javaRmi).rmiStubs(rmiStubs)
                .listener(c -> {
            String line = c.toString();
            if (verbose) {
                log.info(line);
            } else if (log.isDebugEnabled()) {
                log.debug(line);
            }
        });
        RewriteResult result;
        try {
            result = rewriter.rewrite(List.of(classes));
        } catch (RewriteException e) {
            throw new MojoExecutionException("ibis rewrite failed: " + e.getMessage(), e);
        }
        for (String w : result.warnings()) {
            log.warn("ibis rewrite: " + w);
        }
        log.info("ibis rewrite: " + result.count(ClassOutcome.Status.REWRITTEN) + " classes rewritten in " + classes
                + " (" + result.count(ClassOutcome.Status.ALREADY_REWRITTEN) + " already rewritten, "
                + result.count(ClassOutcome.Status.SKIPPED) + " skipped"
                + (javaRmi ? ", " + result.javaRmiRenamed() + " renamed from java.rmi to ibis.rmi" : "")
                + (rmiStubs ? ", " + result.rmiStubs() + " remote classes with RMI stubs" : "") + ")");
    }
}
