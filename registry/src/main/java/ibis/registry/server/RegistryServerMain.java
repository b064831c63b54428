package ibis.registry.server;

import ibis.io.config.PropertyTables;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.ServerAddress;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Command-line entry of the registry server ({@code bin/ibis-server}):
 * {@code ibis-server [--port P] [--events] [--errors] [--stats] [--help]}. Runs until the process
 * is killed. Server settings may also be given as system properties
 * ({@code -Dibis.registry.server.*}). Options are matched without regard to case, and IPL 2.x's
 * server options that concern SmartSockets hubs or its remote control ({@code --no-hub},
 * {@code --hub-only}, {@code --hub-addresses A}, {@code --hub-address-file F}, {@code --remote}) are
 * accepted and ignored with a note, so that a 2.x start script works unchanged.
 */
public final class RegistryServerMain {

    private RegistryServerMain() {
    }

    /**
     * Starts the server.
     *
     * @param args {@code --port P} (default 8888, 0 = any free port), {@code --events} (print every
     *        pool event), {@code --help}
     */
    public static void main(String[] args) {
        int port = ServerAddress.DEFAULT_PORT;
        boolean events = false;
        boolean stats = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i].toLowerCase(Locale.ROOT)) {
                case "--port":
                case "-p":
                    if (i + 1 >= args.length) {
                        fail("--port needs a value");
                    }
                    try {
                        port = Integer.parseInt(args[++i]);
                    } catch (NumberFormatException e) {
                        fail("--port: '" + args[i] + "' is not a number");
                    }
                    if (port < 0 || port > 65535) {
                        fail("--port: " + port + " outside 0..65535");
                    }
                    break;
                case "--events":
                    events = true;
                    break;
                case "--errors":
                    // The details of errors (stack traces) are logged at debug level.
                    System.setProperty("org.slf4j.simpleLogger.log.ibis.registry", "debug");
                    break;
                case "--stats":
                    stats = true;
                    break;
                case "--no-hub":
                    break; // there are no hubs: nothing to leave out
                case "--hub-only":
                case "--remote":
                    System.err.println("ibis-server: " + args[i] + " (an IPL 2.x option) is ignored: this server"
                            + " has no SmartSockets hub and no remote control");
                    break;
                case "--hub-addresses":
                case "--hub-address-file":
                    if (i + 1 >= args.length) {
                        fail(args[i] + " needs a value");
                    }
                    System.err.println("ibis-server: " + args[i] + " " + args[++i] + " (an IPL 2.x option) is"
                            + " ignored: this server has no SmartSockets hub");
                    break;
                case "--help":
                case "-help":
                case "-h":
                case "/?":
                    usage(System.out);
                    return;
                default:
                    fail("unknown argument '" + args[i] + "'");
            }
        }
        Properties properties = new Properties();
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(RegistryProperties.PREFIX)) {
                properties.setProperty(name, System.getProperty(name));
            }
        }
        CentralRegistryServer server;
        try {
            server = new CentralRegistryServer(port, properties);
            if (events) {
                server.addEventListener(line -> System.out.println(line));
            }
            server.start();
            if (stats) {
                printStatisticsEvery(server, STATS_INTERVAL_MILLIS);
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("ibis-server: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "ibis-server-shutdown"));
        System.out.println("Ibis registry server listening on " + publicHost() + ":" + server.port());
        System.out.flush();
        try {
            new CountDownLatch(1).await(); // serve until killed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How often {@code --stats} prints the pools (IPL 2.x printed statistics "once in a while"). */
    static final long STATS_INTERVAL_MILLIS = 60_000;

    /** {@code --stats}: a line per pool (members, events), and the connection count, now and then. */
    private static void printStatisticsEvery(CentralRegistryServer server, long millis) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ibis-server-stats");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            System.out.println(statistics(server));
            System.out.flush();
        }, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** What {@code --stats} prints. */
    static String statistics(CentralRegistryServer server) {
        StringBuilder b = new StringBuilder("statistics: " + server.poolCount() + " pool(s), "
                + server.connectionCount() + " connection(s)");
        for (Map.Entry<String, String> pool : server.describePools().entrySet()) {
            b.append(System.lineSeparator()).append("  ").append(pool.getValue());
        }
        return b.toString();
    }

    private static String publicHost() {
        String bind = RegistryProperties.SERVER_BIND_PROPERTY.get(null);
        if (bind != null) {
            return bind;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "127.0.0.1";
        }
    }

    private static void usage(PrintStream out) {
        out.println("Usage: ibis-server [--port P] [--events] [--errors] [--stats] [--help]");
        out.println("  Runs the Ibis registry server until killed; it serves any number of pools.");
        out.println(
                "  --port P   TCP port to listen on (default " + ServerAddress.DEFAULT_PORT + "; 0 = any free port)");
        out.println("  --events   print every pool event (join, leave, died, election, signal, closed, terminated)");
        out.println("  --errors   log the details of errors (stack traces; slf4j-simple's level for ibis.registry)");
        out.println("  --stats    print the pools and connections once a minute");
        out.println("  --help     print this text");
        out.println("  IPL 2.x's --no-hub, --hub-only, --hub-addresses A, --hub-address-file F and --remote are"
                + " accepted and ignored (no SmartSockets hubs here).");
        out.println("  Server settings are system properties (-Dname=value):");
        for (var entry : new RegistryProperties().properties()) {
            if (entry.name().startsWith(RegistryProperties.PREFIX + "server.")) {
                out.println("    " + entry.name() + " (default "
                        + (entry.defaultText() == null ? "none" : entry.defaultText())
                        + "): " + PropertyTables.describe(entry));
            }
        }
    }

    private static void fail(String message) {
        System.err.println("ibis-server: " + message);
        usage(System.err);
        System.exit(2);
    }
}
