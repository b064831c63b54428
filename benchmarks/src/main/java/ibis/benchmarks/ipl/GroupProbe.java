package ibis.benchmarks.ipl;

import ibis.benchmarks.ipl.BenchPorts.Stream;
import ibis.registry.server.CentralRegistryServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Looks closely at a few figures of the ipl suite: runs them in turn (A, B, A, B, ...) for a given
 * time each and prints every run's value with the load average, in the suite's process layout.
 * Arguments: {@code SECONDS ROUNDS FIGURE...}; figures: {@code ibis1} (the one-to-one data stream
 * of 100 KB byte[]), {@code ibisM<n>} (many-to-one from n send ports), {@code ibisC<n>} (multicast to
 * n), {@code raw1}, {@code rawM<n>} (raw many-to-one, selector receiver), {@code rawT<n>} (raw
 * many-to-one, a receiver thread each), {@code rawC<n>} (raw multicast), {@code ibisS<n>} and
 * {@code rawS<n>} (streams of n-byte messages).
 */
public final class GroupProbe {

    private GroupProbe() {
    }

    /** Runs the probe. */
    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Properties serverProps = new Properties();
        serverProps.setProperty("ibis.registry.server.bind", "127.0.0.1");
        String pool = "ibis-probe-" + ProcessHandle.current().pid();
        try (CentralRegistryServer server = new CentralRegistryServer(0, serverProps)) {
            server.start();
            String implementation = System.getProperty("ibis.implementation", "tcp");
            Process peer = IplSuite.startPeer(server.address(), pool, implementation);
            int[] ports = IplSuite.awaitReady(peer);
            IbisDriver ibis = new IbisDriver(server.address(), pool, implementation);
            Map<String, Workload> figures = new LinkedHashMap<>();
            Map<String, Integer> bytes = new LinkedHashMap<>();
            for (int i = 2; i < args.length; i++) {
                String f = args[i];
                int n = f.matches(".*\\d+") ? Integer.parseInt(f.replaceAll("^\\D+", "")) : 1;
                int index = java.util.Arrays.binarySearch(BenchPorts.GROUP_SIZES, n);
                Workload w;
                int copies = 1;
                int messageBytes = ArrayKind.MESSAGE_BYTES;
                if (f.equals("ibis1")) {
                    w = ibis.stream(Payload.BYTES, Stream.DATA);
                } else if (f.startsWith("ibisM")) {
                    w = ibis.manyToOne(index);
                } else if (f.startsWith("ibisC")) {
                    w = ibis.multicast(index);
                    copies = n;
                } else if (f.startsWith("ibisS")) {
                    w = ibis.sizedStream(n);
                    messageBytes = n;
                } else if (f.equals("raw1")) {
                    w = new RawGroups.Multicast(ports[0], 1);
                } else if (f.startsWith("rawM")) {
                    w = new RawGroups.ManyToOne(ports[0], ports[2], n, true);
                } else if (f.startsWith("rawR")) {
                    w = new RawGroups.ManyToOne(ports[0], ports[2], n, true, true);
                } else if (f.startsWith("rawT")) {
                    w = new RawGroups.ManyToOne(ports[0], ports[2], n, false);
                } else if (f.startsWith("rawC")) {
                    w = new RawGroups.Multicast(ports[0], n);
                    copies = n;
                } else if (f.startsWith("rawS")) {
                    w = new SizedMessages.RawStream(ports[0], n);
                    messageBytes = n;
                } else {
                    throw new IllegalArgumentException(f);
                }
                figures.put(f, w);
                bytes.put(f, messageBytes * copies);
            }
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (Map.Entry<String, Workload> e : figures.entrySet()) { // warm-up and calibration
                int n = 2;
                long elapsed = 0;
                long end = System.nanoTime() + 2_000_000_000L;
                while (System.nanoTime() < end) {
                    long t = System.nanoTime();
                    e.getValue().run(n);
                    elapsed = System.nanoTime() - t;
                    if (elapsed < 100_000_000L) {
                        n *= 2;
                    }
                }
                counts.put(e.getKey(), (int) Math.max(2, n * (seconds * 1e9 / elapsed)));
            }
            Map<String, List<Double>> values = new LinkedHashMap<>();
            for (int r = 0; r < rounds; r++) {
                StringBuilder line = new StringBuilder("round " + r + ":");
                for (Map.Entry<String, Workload> e : figures.entrySet()) {
                    int n = counts.get(e.getKey());
                    long t = System.nanoTime();
                    e.getValue().run(n);
                    double mbs = (double) bytes.get(e.getKey()) * n / ((System.nanoTime() - t) / 1e9) / 1e6;
                    values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(mbs);
                    line.append(String.format(Locale.ROOT, " %s=%.0f", e.getKey(), mbs));
                }
                line.append("  load ").append(Files.readString(Path.of("/proc/loadavg")).trim());
                System.out.println(line);
            }
            StringBuilder summary = new StringBuilder("median:");
            for (Map.Entry<String, List<Double>> e : values.entrySet()) {
                List<Double> v = new ArrayList<>(e.getValue());
                v.sort(null);
                summary.append(String.format(Locale.ROOT, " %s=%.0f", e.getKey(), v.get(v.size() / 2)));
            }
            System.out.println(summary);
            for (Workload w : figures.values()) {
                w.close();
            }
            IplSuite.closeBounded(ibis);
            peer.getOutputStream().close();
            peer.waitFor();
        }
        System.exit(0);
    }
}
