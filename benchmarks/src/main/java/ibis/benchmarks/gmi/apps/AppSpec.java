package ibis.benchmarks.gmi.apps;

import java.util.ArrayList;
import java.util.List;

/**
 * One application run: which application, its problem size {@code n}, its step count and the seed
 * of its input. Written on command lines as {@code name:n:steps:seed}.
 *
 * <ul>
 * <li>{@code asp}: {@code n} vertices (an n x n distance matrix); steps unused (n iterations).</li>
 * <li>{@code lufact}: an n x n matrix; steps unused (n - 1 elimination steps).</li>
 * <li>{@code moldyn}: {@code n} particles, {@code steps} time steps.</li>
 * <li>{@code leq}: n equations; at most {@code steps} Jacobi iterations.</li>
 * <li>{@code qr}: an n x n matrix; {@code steps} Householder steps (at most n).</li>
 * </ul>
 *
 * @param app the application's name, one of {@link #APPS}
 * @param n the problem size
 * @param steps the step or iteration count, where the application has one
 * @param seed the seed of the input
 */
public record AppSpec(String app, int n, int steps, long seed) {

    /** The applications, in the order the suites run them. */
    public static final List<String> APPS = List.of("asp", "lufact", "moldyn", "leq", "qr");

    /** Checks the fields. */
    public AppSpec {
        if (!APPS.contains(app)) {
            throw new IllegalArgumentException("unknown application " + app + "; known: " + APPS);
        }
        if (n < 1 || steps < 0) {
            throw new IllegalArgumentException(app + ": n " + n + " and steps " + steps + " must be positive");
        }
    }

    /** @return {@code name:n:steps:seed} */
    @Override
    public String toString() {
        return app + ":" + n + ":" + steps + ":" + seed;
    }

    /**
     * Parses {@code name:n:steps:seed}.
     *
     * @param text the text
     * @return the spec
     */
    public static AppSpec parse(String text) {
        String[] f = text.split(":");
        if (f.length != 4) {
            throw new IllegalArgumentException("expected name:n:steps:seed, got " + text);
        }
        return new AppSpec(f[0], Integer.parseInt(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]));
    }

    /**
     * Parses every argument as a spec.
     *
     * @param args the arguments
     * @return the specs, in order
     */
    public static List<AppSpec> parseAll(String[] args) {
        List<AppSpec> specs = new ArrayList<>();
        for (String a : args) {
            specs.add(parse(a));
        }
        return specs;
    }

    /**
     * Sizes that run in well under a second per application (tests).
     *
     * @param app the application
     * @return its small spec
     */
    public static AppSpec small(String app) {
        return switch (app) {
            case "asp" -> new AppSpec(app, 96, 0, 19);
            case "lufact" -> new AppSpec(app, 96, 0, 19);
            case "moldyn" -> new AppSpec(app, 125, 4, 19);
            case "leq" -> new AppSpec(app, 96, 1000, 19);
            default -> new AppSpec(app, 64, 64, 19);
        };
    }

    /**
     * Sizes for the quick suite: about a tenth of {@link #benchmark}'s time (ASP, LUFact and QR at
     * half the order, MolDyn at half the particles and steps, LEQ at half the equations).
     *
     * @param app the application
     * @return its quick spec
     */
    public static AppSpec quick(String app) {
        return switch (app) {
            case "asp" -> new AppSpec(app, 1000, 0, 2002);
            case "lufact" -> new AppSpec(app, 1000, 0, 2002);
            case "moldyn" -> new AppSpec(app, 2048, 10, 2002);
            case "leq" -> new AppSpec(app, 1000, 1000, 2002);
            default -> new AppSpec(app, 750, 750, 2002);
        };
    }

    /**
     * Sizes for benchmark runs: seconds each on one process of this 2-core machine (the paper's:
     * ASP 2000, LEQ 1000, QR 2000, Java Grande's largest LUFact and MolDyn).
     *
     * @param app the application
     * @return its benchmark spec
     */
    public static AppSpec benchmark(String app) {
        return switch (app) {
            case "asp" -> new AppSpec(app, 2000, 0, 2002);
            case "lufact" -> new AppSpec(app, 2000, 0, 2002);
            case "moldyn" -> new AppSpec(app, 4096, 20, 2002);
            case "leq" -> new AppSpec(app, 2000, 1000, 2002);
            default -> new AppSpec(app, 1500, 1500, 2002);
        };
    }
}
