package ibis.ipl.contract;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link PeerMain} process started by a test; {@link #close()} kills it. */
final class Peer implements AutoCloseable {

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    Peer(String mode, ContractPool pool) throws IOException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                PeerMain.class.getName(), mode, pool.serverAddress(), pool.poolName());
        File log = new File("target", "contract-peer-" + mode + "-" + ProcessHandle.current().pid() + ".log");
        log.getParentFile().mkdirs();
        pb.redirectError(ProcessBuilder.Redirect.appendTo(log));
        process = pb.start();
        Thread pump = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // process gone
            }
        }, "peer-output");
        pump.setDaemon(true);
        pump.start();
    }

    /** Waits for the next output line starting with {@code prefix}; returns the rest of it. */
    String await(String prefix) throws InterruptedException {
        long deadline = System.currentTimeMillis() + Waits.EVENTUALLY_MILLIS;
        while (true) {
            long left = deadline - System.currentTimeMillis();
            String line = left > 0 ? lines.poll(left, TimeUnit.MILLISECONDS) : null;
            if (line == null) {
                throw new AssertionError("peer process never printed " + prefix + " (alive: " + process.isAlive()
                        + "; see target/contract-peer-*.log)");
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    /** Kills the process (SIGKILL) and waits until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
