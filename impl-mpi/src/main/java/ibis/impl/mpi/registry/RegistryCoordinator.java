package ibis.impl.mpi.registry;

import static ibis.impl.mpi.registry.RegistryWire.FAILED;
import static ibis.impl.mpi.registry.RegistryWire.OK;

import ibis.impl.mpi.registry.RegistryWire.Reader;
import ibis.impl.mpi.registry.RegistryWire.Writer;
import ibis.ipl.impl.MemberIdentifier;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's state and decisions, kept by rank 0: who joined, who is still a member, election
 * winners, sequence counters, token pools and the terminator. Only rank 0's receive thread calls
 * it, one request at a time, so it needs no lock; the order in which it sends is the pool's one
 * order of events. Events caused by a request are sent before the reply to it, so a caller whose
 * call returned has its consequences already in its view.
 */
final class RegistryCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(RegistryCoordinator.class);

    /** Upper bound on election and sequence names, and on token names that have tokens. */
    static final int MAX_ENTRIES = 1 << 16;

    private final RegistryChannel channel;
    private final int size;

    private final MemberIdentifier[] joined;
    private final String[] joinedPools;
    private final int[] expectedSizes;
    private int joins;
    private boolean welcomed;

    /** Ranks still in the pool (joined, not left, not declared dead). */
    private final TreeSet<Integer> members = new TreeSet<>();
    private final Map<String, Integer> elections = new HashMap<>();
    private final Map<String, Long> sequences = new HashMap<>();
    /** Per token name, how many of its tokens are left (more than 0: a name whose last one went is forgotten). */
    private final Map<String, Long> tokens = new HashMap<>();
    private Integer terminator;

    RegistryCoordinator(RegistryChannel channel) {
        this.channel = channel;
        this.size = channel.size();
        this.joined = new MemberIdentifier[size];
        this.joinedPools = new String[size];
        this.expectedSizes = new int[size];
    }

    /** True once the pool was complete and every member has left or was declared dead. */
    boolean finished() {
        return welcomed && members.isEmpty();
    }

    /** The ranks still in the pool (for the linger at shutdown and for messages). */
    TreeSet<Integer> remaining() {
        return new TreeSet<>(members);
    }

    /** Handles one request from a rank. */
    void handle(int source, Reader request) throws IOException {
        if (request.kind == RegistryWire.JOIN) {
            join(source, request.readString(), request.readInt(), request.readMember());
            request.expectEnd();
            return;
        }
        int id = request.readInt();
        if (!members.contains(source) && request.kind != RegistryWire.LEAVE) {
            send(source, reply(id, false).writeString("rank " + source + " is no longer a member of the"
                    + " pool (it left or was declared dead)").bytes());
            return;
        }
        switch (request.kind) {
            case RegistryWire.ELECT -> elect(source, id, request.readString());
            case RegistryWire.SEQUENCE -> sequence(source, id, request.readString());
            case RegistryWire.SIGNAL -> {
                String signal = request.readString();
                int n = request.readInt();
                if (n < 0 || n > size) {
                    throw new IOException("signal from rank " + source + " names " + n + " targets");
                }
                int[] targets = new int[n];
                for (int i = 0; i < n; i++) {
                    targets[i] = request.readInt();
                }
                signal(source, id, signal, targets);
            }
            case RegistryWire.ADD_TOKENS -> addTokens(source, id, request.readString(), request.readInt());
            case RegistryWire.GET_TOKEN -> getToken(source, id, request.readString());
            case RegistryWire.TERMINATE -> terminate(source, id);
            case RegistryWire.LEAVE -> leave(source, id);
            case RegistryWire.ASSUME_DEAD -> assumeDead(source, id, request.readInt());
            default -> throw new IOException("unknown registry request kind " + request.kind + " from rank " + source);
        }
        request.expectEnd();
    }

    // ---------------------------------------------------------------- join

    private void join(int source, String pool, int expectedSize, MemberIdentifier member) throws IOException {
        if (welcomed || joined[source] != null) {
            send(source, new Writer(RegistryWire.REFUSED).writeString("rank " + source + " joined the pool over MPI"
                    + " already: it has one member per rank (for several Ibis instances per process use"
                    + " ibis.registry.implementation=central)").bytes());
            return;
        }
        joined[source] = member;
        joinedPools[source] = pool;
        expectedSizes[source] = expectedSize;
        joins++;
        LOG.debug("rank {} joined ({} of {})", source, joins, size);
        if (joins < size) {
            return;
        }
        String problem = null;
        for (int r = 0; r < size && problem == null; r++) {
            if (!joinedPools[r].equals(joinedPools[0])) {
                problem = "rank " + r + " joins pool '" + joinedPools[r] + "' but rank 0 pool '" + joinedPools[0]
                        + "': give every rank the same ibis.pool.name";
            } else if (expectedSizes[r] != -1 && expectedSizes[r] != size) {
                problem = "rank " + r + " has ibis.pool.size=" + expectedSizes[r] + " but the MPI job has " + size
                        + " ranks (mpirun -np): the pool over MPI is the whole job; leave ibis.pool.size unset or"
                        + " make it " + size;
            }
        }
        welcomed = true;
        if (problem != null) {
            byte[] refused = new Writer(RegistryWire.REFUSED).writeString(problem).bytes();
            for (int r = 0; r < size; r++) {
                send(r, refused);
            }
            return;
        }
        Writer welcome = new Writer(RegistryWire.WELCOME).writeInt(size);
        for (int r = 0; r < size; r++) {
            welcome.writeMember(joined[r]);
            members.add(r);
        }
        byte[] bytes = welcome.bytes();
        for (int r = 0; r < size; r++) {
            send(r, bytes);
        }
    }

    // ---------------------------------------------------------------- requests

    private void elect(int source, int id, String election) throws IOException {
        Integer winner = elections.get(election);
        if (winner == null) {
            if (elections.size() >= MAX_ENTRIES) {
                send(source, reply(id, false).writeString("too many elections (" + MAX_ENTRIES + ")").bytes());
                return;
            }
            winner = source;
            elections.put(election, winner);
            broadcast(new Writer(RegistryWire.ELECTED).writeString(election).writeInt(winner).bytes());
        }
        send(source, reply(id, true).writeInt(winner).bytes());
    }

    private void sequence(int source, int id, String name) throws IOException {
        Long value = sequences.get(name);
        if (value == null && sequences.size() >= MAX_ENTRIES) {
            send(source, reply(id, false).writeString("too many sequences (" + MAX_ENTRIES + ")").bytes());
            return;
        }
        long next = value == null ? 0 : value;
        sequences.put(name, next + 1);
        send(source, reply(id, true).writeLong(next).bytes());
    }

    /** No targets: every current member, the sender included (IPL 2.x {@code signal(s, null)}). */
    private void signal(int source, int id, String signal, int[] targets) throws IOException {
        byte[] event = new Writer(RegistryWire.SIGNALLED).writeString(signal).writeInt(source).bytes();
        if (targets.length == 0) {
            targets = members.stream().mapToInt(Integer::intValue).toArray();
        }
        for (int target : targets) {
            if (members.contains(target)) {
                send(target, event);
            }
        }
        send(source, reply(id, true).bytes());
    }

    private void addTokens(int source, int id, String name, int count) throws IOException {
        Long left = tokens.get(name);
        if (count < 0) {
            send(source, reply(id, false).writeString("negative token count " + count).bytes());
            return;
        }
        if (count > 0) {
            if (left == null && tokens.size() >= MAX_ENTRIES) {
                send(source, reply(id, false).writeString("too many token names (" + MAX_ENTRIES + ")").bytes());
                return;
            }
            long now = left == null ? 0 : left;
            if (now > Long.MAX_VALUE - count) {
                send(source, reply(id, false).writeString("too many tokens '" + name + "' (" + now + " left, " + count
                        + " more would overflow)").bytes());
                return;
            }
            tokens.put(name, now + count);
        }
        send(source, reply(id, true).bytes());
    }

    /** Answered at once (IPL 2.x): 1 when a token was taken, 0 when the name had none. */
    private void getToken(int source, int id, String name) throws IOException {
        Long left = tokens.get(name);
        if (left != null && left == 1) {
            tokens.remove(name);
        } else if (left != null) {
            tokens.put(name, left - 1);
        }
        send(source, reply(id, true).writeByte(left != null ? 1 : 0).bytes());
    }

    private void terminate(int source, int id) throws IOException {
        if (terminator == null) {
            terminator = source;
            broadcast(new Writer(RegistryWire.TERMINATED).writeInt(source).bytes());
        }
        send(source, reply(id, true).bytes());
    }

    private void leave(int source, int id) throws IOException {
        if (members.contains(source)) {
            remove(source);
            broadcast(new Writer(RegistryWire.LEFT).writeInt(source).bytes());
        }
        // The last message the leaving rank reads: its receive thread ends with it.
        send(source, reply(id, true).bytes());
    }

    private void assumeDead(int source, int id, int dead) throws IOException {
        if (dead < 0 || dead >= size) {
            send(source, reply(id, false).writeString("no rank " + dead + " in a job of " + size).bytes());
            return;
        }
        if (members.contains(dead)) {
            byte[] died = new Writer(RegistryWire.DIED).writeInt(dead).bytes();
            // The declared rank learns it too (its receive thread ends with it), then the others.
            send(dead, died);
            remove(dead);
            broadcast(died);
        }
        if (source != dead) {
            send(source, reply(id, true).bytes());
        }
    }

    private void remove(int rank) {
        members.remove(rank);
        elections.values().removeIf(winner -> winner == rank);
    }

    // ---------------------------------------------------------------- sending

    /** A REPLY to a request, its status written; the caller adds the result and sends it. */
    private static Writer reply(int id, boolean ok) {
        return new Writer(RegistryWire.REPLY).writeInt(id).writeByte(ok ? OK : FAILED);
    }

    private void broadcast(byte[] event) throws IOException {
        for (int r : members) {
            send(r, event);
        }
    }

    private void send(int destination, byte[] message) throws IOException {
        channel.send(destination, message);
    }
}
