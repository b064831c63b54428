package ibis.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The test side of a {@link PeerHost}: starts roles in the host's process and stands for each with
 * a {@link Process} (its standard output: the lines the role said; {@link Process#destroy}: stop
 * the role; its exit value: the role's status), which {@link ChildJvm#of} wraps. {@link #close}
 * ends the channel, and with it the host, after stopping the roles.
 */
public final class HostedPeers implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HostedPeers.class);

    private final DataOutputStream commands;
    private final Map<Integer, HostedProcess> processes = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final Thread reader;

    /**
     * Uses a host's channel: {@code events} from it, {@code commands} to it.
     *
     * @param events the host's events
     * @param commands the host's commands
     */
    public HostedPeers(InputStream events, OutputStream commands) {
        this.commands = new DataOutputStream(commands);
        DataInputStream in = new DataInputStream(events);
        reader = new Thread(() -> read(in), "hosted-peers-events");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code role} with {@code args} in the host.
     *
     * @return the process that stands for it
     * @throws IOException when the host cannot be told
     */
    public Process start(Class<? extends PeerMain.Role> role, List<String> args) throws IOException {
        int id = ids.incrementAndGet();
        HostedProcess p = new HostedProcess(id);
        processes.put(id, p);
        synchronized (commands) {
            commands.writeInt(PeerHost.START);
            commands.writeInt(id);
            commands.writeUTF(role.getName());
            commands.writeInt(args.size());
            for (String a : args) {
                commands.writeUTF(a);
            }
            commands.flush();
        }
        return p;
    }

    private void read(DataInputStream in) {
        try {
            while (true) {
                int event = in.readInt();
                int id = in.readInt();
                HostedProcess p = processes.get(id);
                if (event == PeerHost.LINE) {
                    String line = in.readUTF();
                    if (p != null) {
                        p.line(line);
                    }
                } else if (event == PeerHost.ENDED) {
                    int status = in.readInt();
                    if (p != null) {
                        processes.remove(id);
                        p.ended(status);
                    }
                } else {
                    throw new IOException("unknown event " + event + " from the peer host");
                }
            }
        } catch (EOFException end) {
            // the host closed its events
        } catch (IOException e) {
            LOG.warn("the peer host's events failed: {}", e.toString());
        } finally {
            for (HostedProcess p : processes.values()) {
                p.line(PeerMain.FAILED + " the peer host went away");
                p.ended(1);
            }
            processes.clear();
        }
    }

    /** Stops the roles still running and ends the channel; the host then returns from {@link PeerHost#serve}. */
    @Override
    public void close() throws IOException {
        synchronized (commands) {
            commands.close();
        }
        try {
            reader.join(TimeUnit.SECONDS.toMillis(60));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void stop(int id) {
        synchronized (commands) {
            try {
                commands.writeInt(PeerHost.STOP);
                commands.writeInt(id);
                commands.flush();
            } catch (IOException e) {
                // the host is gone: the reader ends every process
            }
        }
    }

    /** A role in the host, as a process. */
    private final class HostedProcess extends Process {
        private final int id;
        private final PipedInputStream output = new PipedInputStream(1 << 16);
        private final PipedOutputStream lines;
        private final CountDownLatch ended = new CountDownLatch(1);
        private volatile int status;
        private boolean destroyed;

        HostedProcess(int id) throws IOException {
            this.id = id;
            this.lines = new PipedOutputStream(output);
        }

        /** Called by the reader thread only (the pipe's one writer). */
        void line(String line) {
            try {
                lines.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                lines.flush();
            } catch (IOException e) {
                // nobody reads the output any more
            }
        }

        /** Called by the reader thread only. */
        void ended(int exitStatus) {
            status = exitStatus;
            try {
                lines.close();
            } catch (IOException e) {
                // nobody reads the output any more
            }
            ended.countDown();
        }

        @Override
        public OutputStream getOutputStream() {
            return OutputStream.nullOutputStream();
        }

        @Override
        public InputStream getInputStream() {
            return output;
        }

        @Override
        public InputStream getErrorStream() {
            return InputStream.nullInputStream();
        }

        @Override
        public int waitFor() throws InterruptedException {
            ended.await();
            return status;
        }

        @Override
        public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
            return ended.await(timeout, unit);
        }

        @Override
        public int exitValue() {
            if (ended.getCount() > 0) {
                throw new IllegalThreadStateException("hosted peer " + id + " is running");
            }
            return status;
        }

        @Override
        public boolean isAlive() {
            return ended.getCount() > 0;
        }

        @Override
        public void destroy() {
            synchronized (this) {
                if (destroyed || !isAlive()) {
                    return;
                }
                destroyed = true;
            }
            stop(id);
        }

        @Override
        public String toString() {
            return "hosted peer " + id;
        }
    }
}
