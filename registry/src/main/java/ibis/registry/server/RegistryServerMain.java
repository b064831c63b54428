package ibis.registry.server;

import ibis.io.config.PropertyTables;
import ibis.registry.RegistryProperties;
import ibis.registry.protocol.ServerAddress;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * Command-line entry of the registry server ({@code bin/ibis-server}):
 * {@code ibis-server [--port P] [--events] [--help]}. Runs until the process is killed. Server
 * settings may also be given as system properties ({@code -Dibis.registry.server.*}).
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
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
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
                case "--help":
                case "-h":
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
        out.println("Usage: ibis-server [--port P] [--events] [--help]");
        out.println("  Runs the Ibis registry server until killed; it serves any number of pools.");
        out.println(
                "  --port P   TCP port to listen on (default " + ServerAddress.DEFAULT_PORT + "; 0 = any free port)");
        out.println("  --events   print every pool event (join, leave, died, election, signal, closed, terminated)");
        out.println("  --help     print this text");
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
