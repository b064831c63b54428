package ibis.gmi.impl;

import ibis.ipl.ReadMessage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The group directory, served by the process of pool rank 0: which groups exist, which process
 * holds each rank, and who waits for a group to be complete. Requests for a group that is not
 * created yet wait for its creation.
 *
 * <p>Control message: {@code byte CONTROL, byte op, long callId, int fromProcess, String group},
 * then for create {@code String interface, int size}, for join, ready and installed
 * {@code int rank}, for exit nothing more. Ready is answered when every member is ready (joined), lookups when every
 * member has installed the complete group (after its ready answer and groupInit), so that
 * no invocation through a stub reaches a member before its join is done. Exit is answered when
 * every process of the pool has exited or is gone (a barrier, as the earlier GMI's exit). Reply:
 * {@code byte CONTROL_REPLY, long callId, boolean ok, String errorOrInterface, int groupId, int size,
 * int rank, int n, int[n] processOfRank} (n is 0 until the group is complete; for exit an empty
 * interface name, group 0, rank 0, n 0).
 */
final class GroupDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(GroupDirectory.class);

    private final GmiRuntime runtime;
    private final Map<String, Entry> groups = new HashMap<>();
    private final Map<String, List<Request>> early = new HashMap<>();
    private int nextId = 1;
    /** The processes that called {@code Group.exit()}. */
    private final boolean[] exited;
    /** Their exit requests, answered together once every process has exited or is gone. */
    private final List<Request> exits = new ArrayList<>();

    private record Request(byte op, long callId, int from, String name, String type, int number) {
    }

    /** A reply to send once the directory's lock is released. */
    record Reply(int to, long callId, String error, Entry group, int rank, boolean complete) {
    }

    static final class Entry {
        final int id;
        final String type;
        final int[] process;
        final boolean[] ready;
        int readyCount;
        final boolean[] installed;
        int installedCount;
        /** Ready requests waiting for the group to be complete. */
        final List<Request> waiting = new ArrayList<>();
        /** Lookups waiting for every member to have installed the group. */
        final List<Request> lookups = new ArrayList<>();

        Entry(int id, String type, int size) {
            this.id = id;
            this.type = type;
            this.process = new int[size];
            this.ready = new boolean[size];
            this.installed = new boolean[size];
            Arrays.fill(process, -1);
        }

        boolean complete() {
            return readyCount == process.length;
        }

        boolean usable() {
            return installedCount == process.length;
        }
    }

    GroupDirectory(GmiRuntime runtime) {
        this.runtime = runtime;
        this.exited = new boolean[runtime.processCount()];
    }

    /** Reads a control message (the caller finishes it) and answers it. */
    void handle(ReadMessage m) throws IOException {
        byte op = m.readByte();
        long callId = m.readLong();
        int from = m.readInt();
        String name = m.readString();
        String type = null;
        int number = 0;
        if (op == GmiProtocol.OP_CREATE) {
            type = m.readString();
            number = m.readInt();
        } else if (op == GmiProtocol.OP_JOIN || op == GmiProtocol.OP_READY || op == GmiProtocol.OP_INSTALLED) {
            number = m.readInt();
        } else if (op != GmiProtocol.OP_LOOKUP && op != GmiProtocol.OP_EXIT) {
            throw new IOException("unknown directory operation " + op + " from process " + from);
        }
        if (name == null || from < 0 || from >= runtime.processCount()) {
            throw new IOException("bad directory request from process " + from);
        }
        m.finish();
        List<Reply> replies = new ArrayList<>();
        synchronized (this) {
            handle(new Request(op, callId, from, name, type, number), replies);
        }
        for (Reply r : replies) {
            runtime.sendControlReply(r);
        }
    }

    /**
     * A process is gone: it counts as exited, which may end the exit barrier.
     *
     * @throws IOException when an answer cannot be sent
     */
    void processGone() throws IOException {
        List<Reply> replies = new ArrayList<>();
        synchronized (this) {
            exitIfAllDone(replies);
        }
        for (Reply r : replies) {
            runtime.sendControlReply(r);
        }
    }

    private void exitIfAllDone(List<Reply> out) {
        if (exits.isEmpty()) {
            return;
        }
        for (int p = 0; p < exited.length; p++) {
            if (!exited[p] && !runtime.isGone(p)) {
                return;
            }
        }
        for (Request w : exits) {
            out.add(new Reply(w.from, w.callId, null, null, 0, false));
        }
        exits.clear();
    }

    private void handle(Request q, List<Reply> out) {
        if (q.op == GmiProtocol.OP_EXIT) {
            exited[q.from] = true;
            exits.add(q);
            if (LOG.isDebugEnabled()) {
                List<Integer> still = new ArrayList<>();
                for (int p = 0; p < exited.length; p++) {
                    if (!exited[p] && !runtime.isGone(p)) {
                        still.add(p);
                    }
                }
                LOG.debug("process {} is in Group.exit(); waiting for processes {}", q.from, still);
            }
            exitIfAllDone(out);
            return;
        }
        Entry g = groups.get(q.name);
        switch (q.op) {
        case GmiProtocol.OP_CREATE:
            if (g != null) {
                out.add(new Reply(q.from, q.callId, "group " + q.name + " exists already", null, 0, false));
                return;
            }
            if (q.number < 1) {
                out.add(new Reply(q.from, q.callId, "group " + q.name + ": size " + q.number + " < 1", null, 0, false));
                return;
            }
            g = new Entry(nextId++, q.type, q.number);
            groups.put(q.name, g);
            out.add(new Reply(q.from, q.callId, null, g, 0, false));
            List<Request> parked = early.remove(q.name);
            if (parked != null) {
                for (Request p : parked) {
                    handle(p, out);
                }
            }
            return;
        case GmiProtocol.OP_JOIN:
            if (g == null) {
                early.computeIfAbsent(q.name, k -> new ArrayList<>()).add(q);
                return;
            }
            join(g, q, out);
            return;
        case GmiProtocol.OP_READY:
            if (g == null || q.number < 0 || q.number >= g.process.length || g.process[q.number] != q.from) {
                out.add(new Reply(q.from, q.callId, "ready for a rank not held", null, 0, false));
                return;
            }
            if (!g.ready[q.number]) {
                g.ready[q.number] = true;
                g.readyCount++;
            }
            g.waiting.add(q);
            completeIfReady(g, out);
            return;
        case GmiProtocol.OP_INSTALLED:
            if (g == null || q.number < 0 || q.number >= g.process.length || g.process[q.number] != q.from
                    || !g.complete()) {
                out.add(new Reply(q.from, q.callId, "installed a rank not held, or before the group was complete",
                        null, 0, false));
                return;
            }
            if (!g.installed[q.number]) {
                g.installed[q.number] = true;
                g.installedCount++;
            }
            out.add(new Reply(q.from, q.callId, null, g, q.number, true));
            answerLookupsIfUsable(g, out);
            return;
        default:
            if (g == null) {
                early.computeIfAbsent(q.name, k -> new ArrayList<>()).add(q);
                return;
            }
            g.lookups.add(q);
            answerLookupsIfUsable(g, out);
        }
    }

    private static void answerLookupsIfUsable(Entry g, List<Reply> out) {
        if (!g.usable()) {
            return;
        }
        for (Request w : g.lookups) {
            out.add(new Reply(w.from, w.callId, null, g, -1, true));
        }
        g.lookups.clear();
    }

    private void join(Entry g, Request q, List<Reply> out) {
        int size = g.process.length;
        for (int r = 0; r < size; r++) {
            if (g.process[r] == q.from) {
                out.add(new Reply(q.from, q.callId, "process " + q.from + " holds rank " + r + " of group " + q.name
                        + " already (one member per group per process)", null, 0, false));
                return;
            }
        }
        int rank = q.number;
        if (rank < 0) {
            rank = 0;
            while (rank < size && g.process[rank] >= 0) {
                rank++;
            }
            if (rank == size) {
                out.add(new Reply(q.from, q.callId, "group " + q.name + " is full (" + size + " members)", null, 0,
                        false));
                return;
            }
        } else if (rank >= size) {
            out.add(new Reply(q.from, q.callId, "group " + q.name + " has " + size + " members, no rank " + rank, null,
                    0, false));
            return;
        } else if (g.process[rank] >= 0) {
            out.add(new Reply(q.from, q.callId, "rank " + rank + " of group " + q.name + " is taken by process "
                    + g.process[rank], null, 0, false));
            return;
        }
        g.process[rank] = q.from;
        out.add(new Reply(q.from, q.callId, null, g, rank, false));
    }

    private static void completeIfReady(Entry g, List<Reply> out) {
        if (!g.complete()) {
            return;
        }
        for (Request w : g.waiting) {
            out.add(new Reply(w.from, w.callId, null, g, w.number, true)); // (only ready requests wait here)
        }
        g.waiting.clear();
    }
}
