package ibis.benchmarks.rmi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.rmi.NotBoundException;
import java.rmi.RemoteException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.util.HashMap;
import java.util.Map;

/**
 * A client JVM of the rmi suite, a plain {@code java.rmi} program:
 * {@code RmiBenchClient PORT NAME [--callback]} looks up {@code NAME} in the registry on
 * 127.0.0.1:{@code PORT} (with {@code --callback} it also exports a {@link CallbackImpl} and
 * registers it for {@code pingpong}), prints {@code READY <stub class>}, then runs the commands
 * the driver writes to its standard input, one per line, answering each with one line
 * {@code OK <nanoseconds>} (the time of the measured calls only) or {@code ERR <message>}:
 * <ul>
 * <li>{@code RUN <op> <payload spec> <n>}: {@code n} calls of {@code op} = {@code ping0},
 * {@code ping2i}, {@code ping2i2f} (payload spec {@code -}), {@code ping}, {@code echo},
 * {@code pingpong}, {@code send} (with a {@link PayloadSpec}). Each run is checked afterwards:
 * the server counted {@code n} calls, and the last value that arrived (at the server, in the
 * echo, or at the callback) has the checksum of the value sent.</li>
 * <li>{@code STAR <parties> <n>}: server barrier, {@code n} null RMIs, server barrier; the time
 * is from leaving the first barrier to leaving the second, so it includes the slowest client.</li>
 * </ul>
 * The program ends when its standard input closes.
 */
public final class RmiBenchClient {

    private final BenchService server;
    private final CallbackImpl callback;
    private final Map<String, Object> values = new HashMap<>();

    private RmiBenchClient(BenchService server, CallbackImpl callback) {
        this.server = server;
        this.callback = callback;
    }

    /** Runs commands until standard input closes. */
    public static void main(String[] args) throws IOException, NotBoundException {
        if (args.length < 2 || args.length > 3 || (args.length == 3 && !args[2].equals("--callback"))) {
            System.err.println("usage: RmiBenchClient <registry port> <name> [--callback]");
            System.exit(2);
        }
        Registry registry = LocateRegistry.getRegistry("127.0.0.1", Integer.parseInt(args[0]));
        BenchService server = (BenchService) registry.lookup(args[1]);
        CallbackImpl callback = null;
        if (args.length == 3) {
            callback = new CallbackImpl();
            server.setCallback(callback);
        }
        RmiBenchClient client = new RmiBenchClient(server, callback);
        System.out.println("READY " + server.getClass().getName());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                answer = "OK " + client.execute(line.trim().split("\\s+"));
            } catch (Exception | AssertionError e) {
                answer = "ERR " + (e.toString() + (e.getCause() != null ? " caused by " + e.getCause() : ""))
                        .replace('\n', ' ');
            }
            System.out.println(answer);
            System.out.flush();
        }
        System.exit(0);
    }

    /** Runs one command; returns the nanoseconds of its measured part. */
    private long execute(String[] cmd) throws RemoteException {
        switch (cmd[0]) {
            case "RUN":
                if (cmd.length != 4) {
                    throw new IllegalArgumentException("RUN <op> <payload> <n>");
                }
                return run(cmd[1], cmd[2], Integer.parseInt(cmd[3]));
            case "STAR":
                if (cmd.length != 3) {
                    throw new IllegalArgumentException("STAR <parties> <n>");
                }
                return star(Integer.parseInt(cmd[1]), Integer.parseInt(cmd[2]));
            default:
                throw new IllegalArgumentException("unknown command " + cmd[0]);
        }
    }

    private Object value(String spec) {
        return values.computeIfAbsent(spec, s -> PayloadSpec.parse(s).newValue());
    }

    private long run(String op, String spec, int n) throws RemoteException {
        BenchService s = server;
        long callsBefore = s.calls();
        long pongsBefore = callback == null ? 0 : callback.pongs();
        Object v = spec.equals("-") ? null : value(spec);
        Object result = null;
        long start = System.nanoTime();
        switch (op) {
            case "ping0":
                for (int i = 0; i < n; i++) {
                    s.ping();
                }
                break;
            case "ping2i":
                for (int i = 0; i < n; i++) {
                    s.ping(i, n);
                }
                break;
            case "ping2i2f":
                for (int i = 0; i < n; i++) {
                    s.ping(i, n, 0.5f, i * 0.25f);
                }
                break;
            case "ping":
                for (int i = 0; i < n; i++) {
                    s.ping(v);
                }
                break;
            case "echo":
                for (int i = 0; i < n; i++) {
                    result = s.echo(v);
                }
                break;
            case "pingpong":
                if (callback == null) {
                    throw new IllegalStateException("pingpong needs a client started with --callback");
                }
                for (int i = 0; i < n; i++) {
                    s.pingpong(v);
                }
                break;
            case "send":
                for (int i = 0; i < n; i++) {
                    s.send(v);
                }
                break;
            default:
                throw new IllegalArgumentException("unknown operation " + op);
        }
        long nanos = System.nanoTime() - start;
        check(op, v, result, n, callsBefore, pongsBefore);
        return nanos;
    }

    /** Checks a run: the server counted every call, and the last value arrived intact. */
    private void check(String op, Object sent, Object result, int n, long callsBefore, long pongsBefore)
            throws RemoteException {
        long served = server.calls() - callsBefore;
        if (served != n) {
            throw new IllegalStateException(op + ": the server counted " + served + " calls, not " + n);
        }
        long expected = PayloadSpec.checksum(sent);
        long got;
        switch (op) {
            case "ping", "send" -> got = server.lastChecksum();
            case "echo" -> {
                got = PayloadSpec.checksum(result);
                if (sent != null && result == sent) {
                    throw new IllegalStateException("echo returned the very object sent, not a copy");
                }
            }
            case "pingpong" -> {
                long pongs = callback.pongs() - pongsBefore;
                if (pongs != n) {
                    throw new IllegalStateException("pingpong: the callback got " + pongs + " calls, not " + n);
                }
                got = PayloadSpec.checksum(callback.last());
            }
            default -> got = expected;
        }
        if (n > 0 && got != expected) {
            throw new IllegalStateException(op + ": the value that arrived has checksum " + got + ", sent " + expected);
        }
    }

    private long star(int parties, int n) throws RemoteException {
        BenchService s = server;
        s.barrier(parties);
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            s.ping();
        }
        s.barrier(parties);
        return System.nanoTime() - start;
    }
}
