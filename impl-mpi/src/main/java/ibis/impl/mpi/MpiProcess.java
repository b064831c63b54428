package ibis.impl.mpi;

import ibis.ipl.impl.HostLoad;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MPI in this process: initialized once, shared by every user (transport instances, the registry over
 * MPI), finalized once. MPI can be initialized only once per process and never again after
 * {@code MPI_Finalize}, so this is a process-wide singleton.
 *
 * <h2>Life cycle</h2>
 * {@link #get(Properties)} initializes MPI on its first call ({@code MPI_Init_thread} with
 * {@code MPI_THREAD_MULTIPLE}, through the backend {@code ibis.mpi.backend} chooses: {@code glue},
 * {@code bindings} or {@code auto}, see {@link MpiPropertyTable}) and counts a user; every later call
 * returns the same object and counts another user. Each user calls {@link #release()} once when it
 * ends. MPI is finalized by a shutdown hook ({@code ibis.mpi.finalize=exit}, the default: Ibis
 * instances may come and go in one process, as the TCK's do) or when the last user released it
 * ({@code ibis.mpi.finalize=release}); after that {@link #get} throws. A failed initialization is
 * not retried: every later {@link #get} throws the same reason. The JVM runs shutdown hooks
 * concurrently, so another hook (RMI's, a user's {@code Ibis.end()}) may still send while MPI is
 * finalized: the backend is wrapped in a {@link FinalizeGuard}, which lets calls inside MPI end
 * first and fails later ones with an IOException (an MPI call after {@code MPI_Finalize} would
 * abort the job).
 *
 * <h2>Tags and receiving</h2>
 * Every Ibis message travels on Ibis' own duplicate of {@code MPI_COMM_WORLD} with a tag laid out by
 * {@link #tags()}: a kind ({@link MpiTags#CONTROL}, {@link MpiTags#DATA}, {@link MpiTags#CREDIT},
 * {@link MpiTags#WAKE}, {@link MpiTags#REGISTRY}) and an id. A user {@link #register registers} one
 * {@link MpiReceiver} per kind it receives; messages are received only by {@link #poll()}, which
 * takes the next message of any source and tag from the receives posted ahead ({@link MpiLanding}:
 * messages of up to 4 KiB land there; a longer one is announced there and its bytes received from a
 * second communicator when its receiver asks, {@link MpiMatch#receive}) and hands it to the receiver
 * of its kind. So users never take each other's messages, and nobody may probe or receive with
 * {@code MPI_ANY_TAG} on its own. A message of a kind nobody registered yet is kept (copied into a
 * byte array) and handed over when its receiver registers, in the order it arrived.
 *
 * <p>{@link #poll()} runs in one thread at a time (others return at once), so a receiver sees the
 * messages of one source and tag in MPI's order. A receiver must not wait for MPI itself: a
 * {@link #poll()} or {@link #await} from inside a receiver does not poll (it would be nested).
 * A thread that waits for something a receiver provides drives progress itself: {@link #await}
 * polls, spins for {@code ibis.mpi.spin.micros} (2 ms) and then parks with growing back-off. It spins
 * only while the host is not crowded ({@link HostLoad}: no more runnable threads than cores when more
 * ranks run on the host than it has cores; at most {@value #SPARE_RUNNABLE} more with a core per
 * rank); while it is crowded, it yields the processor between polls for that time instead, as Open
 * MPI's {@code mpi_yield_when_idle} does. A receiver that
 * makes a waiter's condition true should {@link LockSupport#unpark} it; the back-off bounds the
 * delay anyway.
 *
 * <h2>Sending</h2>
 * Every message goes out through {@link #isendTest} (into the sender's own request slots), which
 * sends one longer than a landing receive as a bulk message; a message of at most
 * {@link MpiLanding#SLOT_BYTES} may also go straight to the backend (the transport's CREDIT).
 * {@link #send} is a blocking convenience for rare messages (the registry's).
 *
 * <h2>Example: a user of its own kind (as the registry over MPI)</h2>
 * <pre>{@code
 * MpiProcess mpi = MpiProcess.get(properties);               // once per user
 * MpiTags tags = mpi.tags();
 * Queue<byte[]> inbox = new ConcurrentLinkedQueue<>();
 * mpi.register(MpiTags.REGISTRY, match -> inbox.add(match.receiveBytes()));  // match.source(), .id()
 * MpiBuffer out = MpiBuffer.allocate(mpi, 1024);
 * out.buffer().put(0, bytes);
 * mpi.send(0, tags.tag(MpiTags.REGISTRY, 1), out, 0, bytes.length);          // to rank 0, id 1
 * mpi.await(() -> !inbox.isEmpty(), timeoutNanos);         // polls MPI while waiting
 * mpi.release();                                             // when done
 * }</pre>
 *
 * <h2>Failures</h2>
 * MPI is fail-stop: a rank that dies ends the whole job ({@code mpirun} kills the others), so no user
 * ever sees a peer's death as an error it could handle. {@link #abort} ends the job on purpose.
 */
public final class MpiProcess {

    private static final Logger LOG = LoggerFactory.getLogger(MpiProcess.class);

    /** The longest park of the back-off, and the background poller's period ({@link #awaitInBackground}). */
    static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * The longest park of {@link #awaitDelivery} while a thread polls in the background: its wait
     * ends by an unpark, and the background poller looks at MPI every millisecond when nobody else
     * does.
     */
    static final long DELIVERY_MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The largest message after which {@link #poll(BooleanSupplier)} may return early. */
    static final int EARLY_RETURN_MAX = 4096;
    /** MPI tests in a row of one {@link #pollWaiting} (about a microsecond of shared-memory polling). */
    static final int SPIN_POLLS = 32;
    /**
     * The default spin before parking (spinning while the host is not crowded, yielding between polls
     * while it is, {@link #nextStep}). Nobody wakes a parked
     * waiter when its message comes (it polls MPI itself), so a park lasts its whole time, and the
     * shortest one takes 60-100 µs here (timer slack and the hypervisor's wake-up). A spin shorter
     * than that lets one late answer make the peer park too, and the pair stays in that regime:
     * in a 1-byte ping-pong (RankPingPong, this VM) 50 µs gave 14,000-15,000 parks per rank and 1.40-1.51
     * µs one-way, 200 µs 6,000 and 1.28, 500 µs 2,100-2,700 and 1.19-1.24, 1 ms 800-900 and 1.25.
     * With 4 ranks on 2 cores most ranks wait at a time, so the host is seldom crowded: spinning
     * there too took GMI's single/return from 400-480 to 51-83 µs (GmiRank over mpi, 4 ranks), where
     * waiters of an oversubscribed host used not to spin at all.
     *
     * <p>Twice the background poller's period ({@link #MAX_PARK_NANOS}): a parked waiter whose
     * message comes is woken by the background poller, up to a period later, when no other thread of
     * its rank polls; a peer that spins for less than that parks in turn, and the pair stays in that
     * regime. With 500 µs a 1-byte ping-pong of 20,000 round trips (2 ranks, shared memory, bindings
     * backend) had 35-170 round trips of 0.5-4 ms after a first late answer (JIT, GC), 1.2-3.0 µs
     * one way against 0.43-0.45 in runs without one; with 2 ms none above 130 µs.
     */
    static final long DEFAULT_SPIN_NANOS = 2 * MAX_PARK_NANOS;

    /**
     * On a host with a core for every rank, the runnable threads beyond its processors that still
     * let waiters spin: a snapshot counts the spinning ranks themselves, and one thread waking up
     * now and then (the JIT, a background poller) used to stop them (1-byte ping-pong 1.34-1.58 µs
     * against 1.22-1.27). More than that means threads of the ranks compute beside their waiters.
     */
    static final int SPARE_RUNNABLE = 1;
    private static final BooleanSupplier CROWDED = HostLoad::crowded;
    private static final BooleanSupplier CROWDED_BEYOND_SPARE = () -> HostLoad.crowdedBeyond(SPARE_RUNNABLE);
    private static MpiProcess instance;
    /** Run at exit before MPI_Finalize ({@link #beforeFinalizeAtExit}). */
    private static final List<Runnable> EXIT_HOOKS = new ArrayList<>();
    private static IOException failure;
    private static boolean finalized;

    private final MpiBackend backend;
    /** {@link #backend} without its guard: {@link #unguardedBackend}. */
    private final MpiBackend unguarded;
    private final MpiTags tags;
    private final boolean finalizeOnRelease;
    private final boolean oversubscribed;
    private final long spinNanos;
    /** Whether waiters spin even while the host is crowded: when {@code ibis.mpi.spin.micros} is set. */
    private final boolean spinAlways;
    /**
     * Whether the host is crowded, so that waiters yield between polls instead of spinning (within
     * the spin time, {@link #nextStep}): more runnable threads than cores on an oversubscribed host,
     * more than {@value #SPARE_RUNNABLE} beyond them with a core per rank.
     */
    private final BooleanSupplier crowded;
    private int users;
    /** Set before MPI_Finalize: polling stops. */
    private volatile boolean closing;

    /** Held by the one thread in {@link #poll()}; {@link #register} takes it to keep the order. */
    private final PollLock pollLock = new PollLock();
    /**
     * How many times {@link #poll()} looked at MPI; written under pollLock, read by
     * {@link #awaitInBackground}, both opaque ({@link #POLLS}): a count that is a little late only
     * delays a background look, and a volatile write would cost every poll a fence.
     */
    private long polls;
    private static final VarHandle POLLS;

    static {
        try {
            POLLS = MethodHandles.lookup().findVarHandle(MpiProcess.class, "polls", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    /** Threads in {@link #awaitInBackground} now. */
    private final AtomicInteger backgroundPollers = new AtomicInteger();
    private volatile MpiReceiver[] receivers = new MpiReceiver[MpiTags.KINDS];
    /** Per kind, messages that arrived before their receiver registered. Guarded by pollLock. */
    private final List<ArrayDeque<Held>> held = new ArrayList<>();
    /** The message being handed over: used under pollLock only (poll and register, never nested). */
    private final MpiMatch match;
    private final ThreadLocal<Sender> senders;
    /** The receives posted ahead that messages land in; used under pollLock. */
    private final MpiLanding landing;
    /** Keeps a bulk message's announcement and bytes together ({@link #isendTest}). */
    private final Object bulkLock = new Object();
    private final int bulkAnnounceTag;

    /** A message kept for a receiver that has not registered yet. */
    private static final class Held {
        final int source;
        final int tag;
        final byte[] bytes;

        Held(int source, int tag, byte[] bytes) {
            this.source = source;
            this.tag = tag;
            this.bytes = bytes;
        }
    }

    /** One thread's request slot and status for {@link #send}. */
    private static final class Sender {
        final MpiSlots request;
        final MpiStatus status;

        Sender(MpiBackend backend) {
            request = backend.newRequests(1);
            status = backend.newStatus();
        }
    }

    private MpiProcess(MpiBackend backend, boolean finalizeOnRelease, long spinMicros) {
        this.backend = new FinalizeGuard(backend);
        this.unguarded = backend;
        this.tags = new MpiTags(backend.tagUpperBound());
        this.finalizeOnRelease = finalizeOnRelease;
        this.oversubscribed = localRanks() > Runtime.getRuntime().availableProcessors();
        this.spinNanos = spinMicros >= 0 ? TimeUnit.MICROSECONDS.toNanos(spinMicros) : DEFAULT_SPIN_NANOS;
        this.spinAlways = spinMicros >= 0;
        this.crowded = oversubscribed ? CROWDED : CROWDED_BEYOND_SPARE;
        for (int kind = 0; kind < MpiTags.KINDS; kind++) {
            held.add(new ArrayDeque<>());
        }
        this.senders = ThreadLocal.withInitial(() -> new Sender(backend));
        this.landing = new MpiLanding(this);
        this.bulkAnnounceTag = tags.tag(MpiTags.BULK, 0);
        this.match = new MpiMatch(this);
    }

    /**
     * MPI in this process, initialized on the first call; counts a user, who must {@link #release()}
     * it once.
     *
     * @param properties where {@code ibis.mpi.*} are looked up first (then system properties); may be
     *     null
     * @throws IOException when MPI cannot be initialized (the message names the reason and the fix),
     *     was finalized already, or a later call names another backend than the one in use
     */
    public static synchronized MpiProcess get(Properties properties) throws IOException {
        if (finalized) {
            throw new IOException("MPI was finalized in this process and cannot be initialized again");
        }
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
        String choice = MpiPropertyTable.BACKEND_PROPERTY.get(properties).toLowerCase(Locale.ROOT);
        if (instance == null) {
            try {
                String finalize = MpiPropertyTable.FINALIZE_PROPERTY.get(properties).toLowerCase(Locale.ROOT);
                if (!finalize.equals("exit") && !finalize.equals("release")) {
                    throw new IOException(MpiPropertyTable.FINALIZE + "=" + finalize + ": use exit or release");
                }
                MpiBackend backend = openBackend(choice);
                if (backend.threadLevel() < MpiNative.THREAD_MULTIPLE) {
                    String reason = "MPI provides thread level " + backend.threadLevel() + " only, Ibis needs"
                            + " MPI_THREAD_MULTIPLE (" + backend + ")";
                    backend.finish();
                    finalized = true;
                    throw new IOException(reason);
                }
                instance = new MpiProcess(backend, finalize.equals("release"),
                        MpiPropertyTable.SPIN_MICROS_PROPERTY.get(properties));
                Runtime.getRuntime().addShutdownHook(new Thread(MpiProcess::finishAtExit, "ibis-mpi-finalize"));
                LOG.info("MPI initialized: rank {} of {}, {} ({}), {}, spin {} us{}", backend.rank(),
                        backend.size(), backend.name(), backend.libraryVersion(), instance.tags,
                        instance.spinNanos / 1000, instance.oversubscribed ? ", oversubscribed host" : "");
            } catch (IOException | RuntimeException e) {
                failure = e instanceof IOException ? (IOException) e : new IOException(e.getMessage(), e);
                throw failure;
            }
        } else if (!choice.equals("auto") && !instance.backend.name().startsWith(choice + "/")) {
            throw new IOException(MpiPropertyTable.BACKEND + "=" + choice + ", but this process uses MPI through "
                    + instance.backend.name() + " already (MPI is initialized once per process)");
        }
        instance.users++;
        return instance;
    }

    /**
     * Why {@link #get} would fail, without initializing MPI: null when it may work (MPI may still fail
     * to initialize), else a one-line reason. For starters that must decide whether {@code mpi} is
     * available.
     */
    public static synchronized String unavailableReason(Properties properties) {
        if (finalized) {
            return "MPI was finalized in this process";
        }
        if (failure != null) {
            return failure.getMessage();
        }
        if (instance != null) {
            return null;
        }
        String choice = MpiPropertyTable.BACKEND_PROPERTY.get(properties).toLowerCase(Locale.ROOT);
        if (choice.equals("bindings")) {
            return bindingsUnavailableReason();
        }
        String glue = NativeLibrary.unavailableReason();
        if (glue == null || choice.equals("auto") && bindingsUnavailableReason() == null) {
            return null;
        }
        return glue;
    }

    /** Why the bindings backend cannot work here (not on the class path, no libmpi_java), or null. */
    private static String bindingsUnavailableReason() {
        if (provider("bindings") == null) {
            return "the Open MPI Java bindings' backend is not on the class path (fetch the classes with"
                    + " scripts/fetch-ompi-java and rebuild impl-mpi)";
        }
        String library = System.mapLibraryName("mpi_java");
        for (String folder : System.getProperty("java.library.path", "").split(java.io.File.pathSeparator)) {
            if (!folder.isEmpty() && new java.io.File(folder, library).isFile()) {
                return null;
            }
        }
        return library + " (Open MPI's Java bindings) is not in java.library.path: pass"
                + " -Djava.library.path=/usr/lib/x86_64-linux-gnu (Debian) or install libopenmpi3";
    }

    private static MpiBackend openBackend(String choice) throws IOException {
        switch (choice) {
            case "glue":
                return GlueBackend.open(MpiNative.THREAD_MULTIPLE);
            case "bindings": {
                MpiBackendProvider provider = provider("bindings");
                if (provider == null) {
                    throw new IOException(MpiPropertyTable.BACKEND + "=bindings: the Open MPI Java bindings'"
                            + " backend is not on the class path (fetch the classes with scripts/fetch-ompi-java"
                            + " and rebuild impl-mpi)");
                }
                return provider.open(MpiNative.THREAD_MULTIPLE);
            }
            case "auto": {
                String glue = NativeLibrary.unavailableReason();
                if (glue == null) {
                    return GlueBackend.open(MpiNative.THREAD_MULTIPLE);
                }
                MpiBackendProvider provider = provider("bindings");
                if (provider == null) {
                    throw new NativeLibrary.UnavailableException(glue);
                }
                LOG.info("MPI glue unavailable ({}): using {}", glue, provider.name());
                return provider.open(MpiNative.THREAD_MULTIPLE);
            }
            default:
                throw new IOException(MpiPropertyTable.BACKEND + "=" + choice + ": use auto, glue or bindings");
        }
    }

    private static MpiBackendProvider provider(String name) {
        for (MpiBackendProvider provider : ServiceLoader.load(MpiBackendProvider.class,
                MpiProcess.class.getClassLoader())) {
            if (provider.name().equals(name)) {
                return provider;
            }
        }
        return null;
    }

    /**
     * Ends one user's use of MPI. With {@code ibis.mpi.finalize=release}, the last release finalizes
     * MPI; by default that happens at exit.
     *
     * @throws IOException when finalizing fails
     * @throws IllegalStateException when there are no users left to release
     */
    public void release() throws IOException {
        synchronized (MpiProcess.class) {
            if (users <= 0) {
                throw new IllegalStateException("MpiProcess released more often than got");
            }
            users--;
            if (users == 0 && finalizeOnRelease && !finalized) {
                finalized = true;
                closing = true;
                boolean locked = false;
                try {
                    // Wait (briefly) for a thread in poll() to leave MPI before finalizing.
                    locked = pollLock.tryLock(1, TimeUnit.SECONDS);
                    if (locked) {
                        stopLanding();
                    }
                    backend.finish();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    backend.finish();
                } finally {
                    if (locked) {
                        pollLock.unlock();
                    }
                }
                LOG.info("MPI finalized: its last user released it");
            }
        }
    }

    /**
     * Runs {@code hook} at exit before MPI is finalized there ({@code ibis.mpi.finalize=exit}), without
     * holding this class's lock, so the hook may still use MPI and release its user: the registry over
     * MPI leaves the pool there, and its rank 0 keeps coordinating until the other ranks left.
     */
    public static void beforeFinalizeAtExit(Runnable hook) {
        synchronized (EXIT_HOOKS) {
            EXIT_HOOKS.add(hook);
        }
    }

    private static void finishAtExit() {
        List<Runnable> hooks;
        synchronized (EXIT_HOOKS) {
            hooks = new ArrayList<>(EXIT_HOOKS);
        }
        for (Runnable hook : hooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                LOG.warn("a hook before MPI_Finalize failed: {}", e.toString());
            }
        }
        synchronized (MpiProcess.class) {
            if (instance == null || finalized) {
                return;
            }
            finalized = true;
            instance.closing = true;
            boolean locked = false;
            try {
                // Wait (briefly) for a thread in poll() to leave MPI before finalizing.
                locked = instance.pollLock.tryLock(1, TimeUnit.SECONDS);
                if (locked) {
                    instance.stopLanding();
                }
                instance.backend.finish();
            } catch (IOException | RuntimeException e) {
                LOG.warn("MPI_Finalize at exit failed: {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (locked) {
                    instance.pollLock.unlock();
                }
            }
        }
    }

    /** Cancels the landing receives before MPI_Finalize (holding pollLock). */
    private void stopLanding() {
        try {
            landing.stop();
        } catch (IOException e) {
            LOG.debug("cancelling the landing receives before MPI_Finalize failed: {}", e.toString());
        }
    }

    /** The backend in use. */
    public MpiBackend backend() {
        return backend;
    }

    /**
     * The backend without the {@link FinalizeGuard}, for the calls made while holding the poll lock
     * only ({@link MpiLanding}, {@link MpiMatch}): the poll lock keeps them apart from
     * {@code MPI_Finalize} itself (finalizing takes it, and a poll that gets it afterwards sees
     * {@link #closing}), which saves the guard's two atomic operations per poll, a tenth of an idle
     * poll's time.
     */
    MpiBackend unguardedBackend() {
        return unguarded;
    }

    /** The receives messages land in (used by {@link MpiMatch} under the poll lock). */
    MpiLanding landing() {
        return landing;
    }

    /**
     * Starts sending a message of any length ({@link MpiBackend#isendTest}) and tests it: one of at
     * most {@link MpiLanding#SLOT_BYTES} bytes goes as it is, a longer one as a bulk message
     * ({@link MpiBackend#isendBulkTest}: an announcement the receiver's landing receives take, the
     * bytes on the bulk communicator), its announcement and bytes kept together against other
     * threads' bulk messages. Every message that {@link #poll} is to receive must be sent this way
     * (or be that short). The bytes must stay untouched until the request completed.
     *
     * @return whether the send completed at once
     * @throws IOException when MPI fails
     */
    public boolean isendTest(MpiBuffer buffer, int offset, int length, int destination, int tag, MpiSlots requests,
            int slot) throws IOException {
        if (length <= MpiLanding.SLOT_BYTES) {
            return backend.isendTest(buffer, offset, length, destination, tag, requests, slot);
        }
        synchronized (bulkLock) {
            return backend.isendBulkTest(buffer, offset, length, destination, tag, bulkAnnounceTag, requests, slot);
        }
    }

    /** The tag layout for this MPI's tag upper bound. */
    public MpiTags tags() {
        return tags;
    }

    /** This process' rank in {@code MPI_COMM_WORLD}. */
    public int rank() {
        return backend.rank();
    }

    /** The number of ranks in {@code MPI_COMM_WORLD}. */
    public int size() {
        return backend.size();
    }

    /**
     * Whether more ranks run on this host than it has cores. Waiters then spin only while no more
     * threads are runnable than the host has cores ({@link HostLoad}), and yield between polls while
     * more are: most ranks wait at any time, and a parked waiter is woken by nobody. (With a core per
     * rank they yield only beyond {@value #SPARE_RUNNABLE} more.)
     */
    public boolean oversubscribed() {
        return oversubscribed;
    }

    /**
     * Registers the receiver of a tag kind, and hands it the messages of that kind that arrived before,
     * in order (from the calling thread, before this method returns).
     *
     * @throws IllegalStateException when the kind has a receiver already
     * @throws IOException when handing over a kept message fails
     */
    public void register(int kind, MpiReceiver receiver) throws IOException {
        if (kind < 0 || kind >= MpiTags.KINDS) {
            throw new IllegalArgumentException("no tag kind " + kind);
        }
        pollLock.lock();
        try {
            if (receivers[kind] != null) {
                throw new IllegalStateException("tag kind " + kind + " has a receiver already: " + receivers[kind]);
            }
            ArrayDeque<Held> queue = held.get(kind);
            while (!queue.isEmpty()) {
                Held message = queue.poll();
                match.hold(message.source, message.tag, message.bytes);
                deliver(receiver, match);
            }
            MpiReceiver[] next = receivers.clone();
            next[kind] = receiver;
            receivers = next;
        } finally {
            pollLock.unlock();
        }
    }

    /**
     * Removes the receiver of a kind (when it is {@code receiver}); messages of that kind are kept again
     * until the next registration.
     */
    public void unregister(int kind, MpiReceiver receiver) {
        pollLock.lock();
        try {
            if (receivers[kind] == receiver) {
                MpiReceiver[] next = receivers.clone();
                next[kind] = null;
                receivers = next;
            }
        } finally {
            pollLock.unlock();
        }
    }

    /**
     * Matches the messages that have arrived and hands each to the receiver of its kind; returns at
     * once when another thread is polling. Allocates nothing per message (except for kinds nobody
     * registered yet).
     *
     * @return the number of messages handled
     * @throws IOException when MPI or a receiver fails
     */
    public int poll() throws IOException {
        return poll(null);
    }

    /**
     * As {@link #poll()}, but returns as soon as {@code until} holds after a small message (at most
     * {@value #EARLY_RETURN_MAX} bytes) was handled: a waiter whose message came goes on without
     * first asking MPI once more for the next one (a probe that finds nothing costs about a tenth of
     * a microsecond, a sixth of a one-way latency). After a larger message it goes on receiving
     * what has arrived: large messages travel by rendezvous, and their senders wait until this side
     * receives them (returning early cost a stream of 100 KB messages a tenth of its throughput).
     *
     * @param until the caller's condition, or null to handle everything that has arrived
     * @return the number of messages handled
     * @throws IOException when MPI or a receiver fails
     */
    public int poll(BooleanSupplier until) throws IOException {
        return poll(until, 1);
    }

    /**
     * As {@link #poll(BooleanSupplier)}, for a thread that waits for a message and would poll again
     * at once: MPI is tested for the next message up to {@value #SPIN_POLLS} times in a row before
     * this returns empty-handed ({@link MpiBackend#testSpin}, in native code with our glue), so a
     * message is seen at the pace of {@code MPI_Test} rather than at that of the caller's loop (its
     * calls, checks, pauses and clock reads: 60-100 ns a turn against some 30). Only while waiters
     * may spin (not on a crowded oversubscribed host, {@link #nextStep}); a single test otherwise.
     * For waits that a delivery ends (a reader's, {@link #awaitDelivery}), not for a send's
     * completion: the spin returns early only when a message lands.
     */
    public int pollWaiting(BooleanSupplier until) throws IOException {
        return poll(until, spinNanos > 0 && (spinAlways || !crowded.getAsBoolean()) ? SPIN_POLLS : 1);
    }

    private int poll(BooleanSupplier until, int polls) throws IOException {
        // Not nested (a receiver that waits would reuse the match), not after MPI_Finalize.
        if (closing || pollLock.isHeldByCurrentThread() || !pollLock.tryLock()) {
            return 0;
        }
        try {
            if (closing) {
                return 0; // finalizing got the lock first (MPI may be finalized): no MPI call now
            }
            POLLS.setOpaque(this, (long) POLLS.getOpaque(this) + 1);
            int handled = 0;
            while (handled < 64 && match.probe(handled == 0 ? polls : 1)) {
                handled++;
                int kind = match.kind();
                MpiReceiver receiver = kind < MpiTags.KINDS ? receivers[kind] : null;
                if (receiver != null) {
                    deliver(receiver, match);
                } else if (kind < MpiTags.KINDS) {
                    held.get(kind).add(new Held(match.source(), match.tag(), match.receiveBytes()));
                } else {
                    match.discard();
                    LOG.warn("dropped a message of {} bytes from rank {} with tag {}: not an Ibis tag",
                            match.length(), match.source(), match.tag());
                }
                if (until != null && (match.length() <= EARLY_RETURN_MAX || match.hasFilledReader())
                        && until.getAsBoolean()) {
                    break;
                }
            }
            return handled;
        } finally {
            pollLock.unlock();
        }
    }

    private static void deliver(MpiReceiver receiver, MpiMatch match) throws IOException {
        try {
            receiver.matched(match);
        } finally {
            if (!match.received()) {
                match.discard();
                LOG.warn("{} did not receive a message of {} bytes from rank {} (tag {}): discarded", receiver,
                        match.length(), match.source(), match.tag());
            }
        }
    }

    /**
     * Waits until {@code done} is true, polling MPI meanwhile: spins for the configured time (yields
     * between polls instead while an oversubscribed host is crowded, {@link #nextStep}), then parks
     * with growing back-off up to 1 ms.
     *
     * @param timeoutNanos the longest wait; 0 or less: no limit
     * @return true when {@code done} became true, false on time-out
     * @throws InterruptedIOException when the thread is interrupted (its interrupt status stays set)
     * @throws IOException when MPI or a receiver fails
     */
    public boolean await(BooleanSupplier done, long timeoutNanos) throws IOException {
        return await(done, timeoutNanos, false);
    }

    /**
     * {@link #await} for a condition that only a receiver makes true, and that receiver unparks the
     * waiting thread (as a source does for its reader), or a close or interrupt does: while another
     * thread polls in the background ({@link #awaitInBackground}, the connection acceptor), the
     * back-off grows up to 50 ms ({@link #DELIVERY_MAX_PARK_NANOS}) instead of 1 ms, since the
     * message that ends the wait is taken in by that thread (or any other that polls) and the
     * receiver unparks this one. So threads that wait for data that does not come (receive threads
     * of idle ports) do not wake a thousand times a second each: thirty of them doubled the one-way
     * latency of a ping-pong beside them on two cores.
     *
     * @param timeoutNanos the longest wait; 0 or less: no limit
     * @return true when {@code done} became true, false on time-out
     * @throws InterruptedIOException when the thread is interrupted (its interrupt status stays set)
     * @throws IOException when MPI or a receiver fails
     */
    public boolean awaitDelivery(BooleanSupplier done, long timeoutNanos) throws IOException {
        return await(done, timeoutNanos, true);
    }

    /** A spinning waiter reads the clock at every this many polls that found nothing ({@link #await}). */
    private static final int CLOCK_POLLS = 8;

    /** What a waiter does between polls: {@link #nextStep}. */
    static final int SPIN = 0;
    static final int YIELD = 1;
    static final int PARK = 2;

    /**
     * What a waiter that has waited {@code waited} ns does before it polls again: within the spin
     * time it spins ({@link #SPIN}), unless the host is {@code crowded} and it does not spin
     * {@code always} (an explicit spin time); then it yields the processor ({@link #YIELD}), so that
     * the ranks it waits for, or the threads of its own rank that compute, which want to run, run
     * first. After the spin time it parks ({@link #PARK}).
     *
     * <p>Why with a core per rank too: a waiter that spins beside a thread of its rank that computes
     * takes half that thread's processor. GMI's LUFact over mpi on 2 ranks (2000 x 2000; each rank's
     * upcall reader waits for the next column's pivot while its main thread updates the matrix, a
     * millisecond a column) took 3.11-3.22 s with waiters spinning regardless of the load, 1.43-1.59
     * s yielding while more than {@value #SPARE_RUNNABLE} thread beyond the processors is runnable
     * (1 rank: 1.28 s); a 1-byte ping-pong stayed at 0.29-0.31 µs, GMI's single/return at 1.20-1.26.
     *
     * <p>Why yield rather than park on a crowded host: nobody wakes a parked waiter when its message
     * comes (it polls MPI itself), so a park lasts its whole time, 60-100 µs at least here, and each
     * step of a collective among more ranks than cores waited that long. An allreduce of 8 bytes
     * (GMI's collectives, 2000 per run, this VM, `--mca mpi_yield_when_idle 1` as the gmi suite
     * runs): with 4 ranks on 2 cores 230-290 µs parking, 40-80 µs yielding (the Open MPI Java
     * bindings' allReduce: 38 µs); with 8 ranks 680-790 against 300-460 (166). A yield hands the
     * processor to a runnable thread, or returns at once when there is none, and the spin time bounds
     * it as it bounds spinning.
     */
    static int nextStep(long waited, long spinNanos, boolean always, BooleanSupplier crowded) {
        if (waited >= spinNanos) {
            return PARK;
        }
        return always || !crowded.getAsBoolean() ? SPIN : YIELD;
    }

    private boolean await(BooleanSupplier done, long timeoutNanos, boolean delivered) throws IOException {
        long start = System.nanoTime();
        long park = 1_000;
        long waited = 0;
        int unclocked = 0;
        int step = SPIN;
        while (!done.getAsBoolean()) {
            // Only a wait for a delivery spins inside MPI: a send's completion (a staging slot, a
            // buffer sent in place) is seen by testing that send, which a spin on the landing
            // receives would put off by up to a turn of SPIN_POLLS tests.
            if ((step == SPIN && delivered ? pollWaiting(done) : poll(done)) > 0) {
                continue;
            }
            // A spinning waiter reads the clock at every CLOCK_POLLS-th poll only (a read costs about
            // 30 ns on this VM's kvm-clock, a sixth of an idle poll); a yield or park may take long.
            if (step != SPIN || ++unclocked >= CLOCK_POLLS) {
                unclocked = 0;
                waited = System.nanoTime() - start;
            }
            if (timeoutNanos > 0 && waited >= timeoutNanos) {
                return done.getAsBoolean();
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for MPI");
            }
            step = nextStep(waited, spinNanos, spinAlways, crowded);
            if (step == SPIN) {
                Thread.onSpinWait();
            } else if (step == YIELD) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(this, timeoutNanos > 0 ? Math.min(park, timeoutNanos - waited) : park);
                park = Math.min(park * 2, delivered && backgroundPollers.get() > 0 ? DELIVERY_MAX_PARK_NANOS
                        : MAX_PARK_NANOS);
            }
        }
        return true;
    }

    /**
     * Waits until {@code done} is true, polling MPI only when no other thread polled since this one
     * last looked, and parking a millisecond between looks: for a thread that must see
     * messages arrive while nobody else waits for any (the connection acceptor: a rank whose threads
     * all compute, or wait for something other than MPI, still answers a connect within about a
     * millisecond) without taking the poll, and with it the messages, from threads that wait for
     * their own.
     *
     * @param timeoutNanos the longest wait; 0 or less: no limit
     * @return true when {@code done} became true, false on time-out
     * @throws InterruptedIOException when the thread is interrupted (its interrupt status stays set)
     * @throws IOException when MPI or a receiver fails
     */
    public boolean awaitInBackground(BooleanSupplier done, long timeoutNanos) throws IOException {
        backgroundPollers.incrementAndGet();
        try {
            return awaitPollingWhenNobodyDoes(done, timeoutNanos);
        } finally {
            backgroundPollers.decrementAndGet();
        }
    }

    private long polls() {
        return (long) POLLS.getOpaque(this);
    }

    private boolean awaitPollingWhenNobodyDoes(BooleanSupplier done, long timeoutNanos) throws IOException {
        long start = System.nanoTime();
        long seen = polls() - 1;
        while (!done.getAsBoolean()) {
            if (polls() == seen && poll() > 0) {
                seen = polls();
                continue;
            }
            seen = polls();
            long waited = System.nanoTime() - start;
            if (timeoutNanos > 0 && waited >= timeoutNanos) {
                return done.getAsBoolean();
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new InterruptedIOException("interrupted while waiting for MPI");
            }
            LockSupport.parkNanos(this, timeoutNanos > 0 ? Math.min(MAX_PARK_NANOS, timeoutNanos - waited)
                    : MAX_PARK_NANOS);
        }
        return true;
    }

    /**
     * Sends {@code length} bytes of {@code buffer} from {@code offset} and waits until MPI is done with
     * them, polling meanwhile (so two ranks sending to each other both make progress). A convenience
     * for rare messages: it allocates per call.
     *
     * @throws IOException when MPI fails
     */
    public void send(int destination, int tag, MpiBuffer buffer, int offset, int length) throws IOException {
        Sender sender = senders.get();
        if (isendTest(buffer, offset, length, destination, tag, sender.request, 0)) {
            return;
        }
        boolean[] complete = new boolean[1];
        IOException[] error = new IOException[1];
        boolean interrupted = false;
        while (true) {
            try {
                await(() -> {
                    try {
                        complete[0] = complete[0] || backend.test(sender.request, 0, sender.status);
                    } catch (IOException e) {
                        error[0] = e;
                    }
                    return complete[0] || error[0] != null;
                }, 0);
                break;
            } catch (InterruptedIOException e) {
                // The bytes belong to MPI until the send completed: finish it, then restore the interrupt.
                interrupted = Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (error[0] != null) {
            throw error[0];
        }
    }

    /** Ends every process of the job ({@code MPI_Abort}); does not return. */
    public void abort(int exitCode) {
        LOG.error("aborting the MPI job with exit code {}", exitCode);
        backend.abort(exitCode);
    }

    /**
     * The number of ranks on this host, from the launcher's environment (Open MPI's
     * {@code OMPI_COMM_WORLD_LOCAL_SIZE}, MPICH's {@code MPI_LOCALNRANKS}); 1 when neither says.
     */
    static int localRanks() {
        for (String name : new String[] {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
            String value = System.getenv(name);
            if (value != null) {
                try {
                    return Integer.parseInt(value.strip());
                } catch (NumberFormatException e) {
                    LOG.debug("{}={} is no number", name, value);
                }
            }
        }
        return 1;
    }

    @Override
    public String toString() {
        return "MPI rank " + rank() + " of " + size() + " through " + backend.name();
    }
}
