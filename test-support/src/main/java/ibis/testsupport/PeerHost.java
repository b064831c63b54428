package ibis.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link PeerMain.Role}s in this process for a test in another one, where a peer cannot be a
 * JVM of its own: the members of an MPI job are its ranks, fixed when the job starts, so a test in
 * rank 0 has the peers of its multi-process tests run in rank 1. The test side is
 * {@link HostedPeers}, whose {@link Process}es stand for the roles, so that the test handles them
 * with {@link ChildJvm} as it handles child JVMs.
 *
 * <p>Each role runs in a thread of its own (at the JVM's default stack size); its
 * {@link PeerMain#say} lines go to the test. Stopping a role ({@link Process#destroy} on the test
 * side, which is also what {@link ChildJvm#kill} does) wakes its {@link PeerMain#stayUntilParentGoes},
 * interrupts its thread and closes what it gave {@link PeerMain#closeWhenParentGoes} (its Ibis): a
 * regular end, not a crash, so tests that need a member to die cannot run this way. A role that
 * ends by itself reports status 0 (1 when it threw, after a {@code FAILED} line and the stack
 * trace, as {@link PeerMain} does), a stopped one 143.
 *
 * <p>The channel is a pair of byte streams (for example named pipes): commands in, events out,
 * {@link java.io.DataOutput} records. {@link #serve} returns when the commands end (the test
 * closed them), after stopping the roles still running.
 */
public final class PeerHost {

    private static final Logger LOG = LoggerFactory.getLogger(PeerHost.class);

    /** Command: start a role ({@code int id, UTF role class, int n, n x UTF argument}). */
    static final int START = 1;
    /** Command: stop a role ({@code int id}). */
    static final int STOP = 2;
    /** Event: a line a role said ({@code int id, UTF line}). */
    static final int LINE = 3;
    /** Event: a role ended ({@code int id, int status}). */
    static final int ENDED = 4;
    /** The status of a role its parent stopped (as a JVM ended by SIGTERM). */
    static final int STOPPED = 143;
    /** How long a stopped role's thread may take to end before it is reported ended anyway. */
    private static final long STOP_WAIT_SECONDS = 30;

    private final DataOutputStream events;
    private final Map<Integer, Running> running = new ConcurrentHashMap<>();

    /** A role running here. */
    private final class Running {
        final int id;
        final PeerMain.Hosted session;
        Thread thread;
        volatile boolean stopped;

        Running(int id) {
            this.id = id;
            this.session = new PeerMain.Hosted(line -> send(LINE, id, line));
        }
    }

    private PeerHost(OutputStream events) {
        this.events = new DataOutputStream(events);
    }

    /**
     * Runs the roles {@code commands} asks for until the commands end, sending their lines and ends
     * to {@code events}.
     *
     * @throws IOException when the events cannot be written or the commands are malformed
     */
    public static void serve(InputStream commands, OutputStream events) throws IOException {
        PeerHost host = new PeerHost(events);
        DataInputStream in = new DataInputStream(commands);
        try {
            while (true) {
                int command;
                try {
                    command = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                int id = in.readInt();
                if (command == START) {
                    String role = in.readUTF();
                    int n = in.readInt();
                    if (n < 0 || n > 1000) {
                        throw new IOException("a peer command with " + n + " arguments");
                    }
                    String[] args = new String[n];
                    for (int i = 0; i < n; i++) {
                        args[i] = in.readUTF();
                    }
                    host.start(id, role, args);
                } else if (command == STOP) {
                    host.stop(id);
                } else {
                    throw new IOException("unknown peer command " + command);
                }
            }
        } finally {
            for (Running r : new ArrayList<>(host.running.values())) {
                host.stop(r.id);
            }
            host.awaitAll();
            // The events first: closing one stream of a socket closes both.
            host.events.close();
            in.close();
        }
    }

    private void start(int id, String roleClass, String[] args) {
        Running r = new Running(id);
        running.put(id, r);
        r.thread = new Thread(() -> PeerMain.runHosted(r.session, () -> {
            int status = 0;
            try {
                PeerMain.Role role = Class.forName(roleClass).asSubclass(PeerMain.Role.class)
                        .getDeclaredConstructor().newInstance();
                role.run(args);
            } catch (Throwable t) {
                if (!r.stopped) {
                    status = 1;
                    StringWriter trace = new StringWriter();
                    t.printStackTrace(new PrintWriter(trace));
                    PeerMain.say(PeerMain.FAILED + " " + t);
                    trace.toString().lines().forEach(PeerMain::say);
                }
            }
            Exception closing = r.session.closeAll();
            if (closing != null) {
                LOG.warn("closing what hosted peer {} ({}) left failed", id, roleClass, closing);
            }
            if (!r.stopped) {
                ended(r, status);
            }
        }), "hosted-peer-" + id);
        r.thread.setDaemon(true);
        r.thread.start();
    }

    private void stop(int id) {
        Running r = running.get(id);
        if (r == null || r.stopped) {
            return;
        }
        r.stopped = true;
        Thread stopper = new Thread(() -> {
            r.session.parentGone();
            r.thread.interrupt();
            Exception closing = r.session.closeAll();
            if (closing != null) {
                LOG.warn("closing what hosted peer {} left failed", id, closing);
            }
            try {
                r.thread.join(TimeUnit.SECONDS.toMillis(STOP_WAIT_SECONDS));
                if (r.thread.isAlive()) {
                    LOG.warn("hosted peer {} did not end within {} s of its stop", id, STOP_WAIT_SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ended(r, STOPPED);
        }, "hosted-peer-stop-" + id);
        stopper.setDaemon(true);
        stopper.start();
    }

    private void ended(Running r, int status) {
        // Sent before the role leaves the table: the channel closes once the table is empty.
        synchronized (running) {
            if (running.containsKey(r.id)) {
                send(ENDED, r.id, status);
                running.remove(r.id);
                running.notifyAll();
            }
        }
    }

    /** Waits until every role reported its end (bounded: stopped roles are reported within their wait). */
    private void awaitAll() {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_WAIT_SECONDS + 5);
        synchronized (running) {
            while (!running.isEmpty()) {
                long left = TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime());
                if (left <= 0) {
                    LOG.warn("hosted peers {} did not end", running.keySet());
                    return;
                }
                try {
                    running.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void send(int event, int id, Object value) {
        synchronized (events) {
            try {
                events.writeInt(event);
                events.writeInt(id);
                if (value instanceof String line) {
                    events.writeUTF(line.length() > 16_000 ? line.substring(0, 16_000) : line);
                } else {
                    events.writeInt((Integer) value);
                }
                events.flush();
            } catch (IOException e) {
                LOG.warn("the test side of the hosted peers is gone: {}", e.toString());
            }
        }
    }
}
