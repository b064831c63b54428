package ibis.impl.mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

/**
 * Two ranks use {@link MpiProcess} as the transport and the registry will: both send at once, from two
 * threads each, checksummed messages of 0 bytes to 4 MiB on two {@link MpiTags#DATA} ids, and small
 * messages on {@link MpiTags#REGISTRY} whose receiver registers only after all data arrived (so they
 * are kept and handed over in order); a message longer than its receiver's room is refused with an
 * IOException; {@link MpiProcess#poll(java.util.function.BooleanSupplier)} returns after one small
 * message once its condition holds, however many have arrived; two threads that send messages
 * longer than a landing receive ({@link MpiLanding#SLOT_BYTES}: bulk messages, an announcement and
 * the bytes on a second communicator) on one tag at once each get their own bytes to the peer
 * (every message says its length and seed, the receiver checks both); a kept message that its late
 * receiver does not take is discarded, also right after a bulk message. Prints the {@link PingPong} result
 * line with a checksum over both directions, which {@link MpiJob} compares; started by
 * {@code mpirun}, the backend chosen by {@code -Dibis.mpi.backend}.
 */
public final class MpiProcessExchangeMain {

    private static final int[] SIZES = {0, 1, 7, 100, 4096, 65_536, 300_000, 1 << 20, 4 << 20};
    private static final int ROUNDS = 2;
    private static final int[] DATA_IDS = {7, 8};
    private static final int TOO_LONG_ID = 9;
    private static final int ONE_BY_ONE_ID = 10;
    private static final int ONE_BY_ONE_MESSAGES = 5;
    private static final int SAME_TAG_ID = 11;
    private static final int SAME_TAG_MESSAGES = 200;
    private static final int REGISTRY_MESSAGES = 20;
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private MpiProcessExchangeMain() {
    }

    /** Per DATA id: what arrived, in order. Touched only by the polling thread (one at a time). */
    private static final class Incoming {
        final CRC32 crc = new CRC32();
        int messages;
        long bytes;
        String error;
    }

    /** Runs the exchange; exits with 0 when it passed. */
    public static void main(String[] args) {
        int rank = -1;
        try {
            MpiProcess process = MpiProcess.get(null);
            rank = process.rank();
            String result = run(process);
            System.out.println("pingpong rank=" + rank + " of 2 process " + process.backend().name()
                    + " thread=" + process.backend().threadLevel() + ": " + result + " OK");
            System.out.flush();
            process.release();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println("pingpong rank=" + rank + " FAILED: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    /** Waits for the sending threads; throws when one is still running or one failed. */
    private static void joinSenders(List<Thread> senders, AtomicReference<Throwable> failed, String failure)
            throws IOException, InterruptedException {
        for (Thread sender : senders) {
            sender.join(TimeUnit.NANOSECONDS.toMillis(WAIT_NANOS));
            if (sender.isAlive()) {
                throw new IOException(sender.getName() + " did not finish");
            }
        }
        if (failed.get() != null) {
            throw new IOException(failure, failed.get());
        }
    }

    /** Writes {@code n} bytes: their length, a seed, and bytes from that seed. */
    private static void fillSelfDescribing(ByteBuffer out, int n, int seed) {
        byte[] rest = new byte[n - 8];
        new Random(seed).nextBytes(rest);
        out.putInt(0, n).putInt(4, seed).put(8, rest);
    }

    /** Null when {@code n} bytes are what {@link #fillSelfDescribing} wrote, else what is wrong. */
    private static String checkSelfDescribing(ByteBuffer in, int n) {
        if (n < 8 || in.getInt(0) != n) {
            return n + " bytes arrived, the message says " + (n < 8 ? "nothing" : in.getInt(0));
        }
        byte[] rest = new byte[n - 8];
        new Random(in.getInt(4)).nextBytes(rest);
        for (int i = 0; i < rest.length; i++) {
            if (in.get(8 + i) != rest[i]) {
                return "byte " + (8 + i) + " of " + n + " differs";
            }
        }
        return null;
    }

    private static byte[] payload(int source, int id, int index, int size) {
        byte[] bytes = new byte[size];
        new Random(source * 1_000_003L + id * 10_007L + index).nextBytes(bytes);
        return bytes;
    }

    private static String run(MpiProcess process) throws Exception {
        if (process.size() != 2) {
            throw new IOException("needs 2 ranks, has " + process.size());
        }
        int rank = process.rank();
        int peer = 1 - rank;
        MpiTags tags = process.tags();
        Incoming[] incoming = new Incoming[SAME_TAG_ID + 1];
        for (int id : new int[] {7, 8, 9, ONE_BY_ONE_ID, SAME_TAG_ID}) {
            incoming[id] = new Incoming();
        }
        MpiBuffer staging = MpiBuffer.allocate(process, 4 << 20);
        byte[] copy = new byte[4 << 20];
        process.register(MpiTags.DATA, match -> {
            Incoming in = incoming[match.id()];
            if (match.source() != peer) {
                in.error = "DATA from rank " + match.source();
                return;
            }
            if (match.id() == ONE_BY_ONE_ID) {
                match.receive(staging, 0, staging.capacity());
                in.messages++;
                return;
            }
            if (match.id() == SAME_TAG_ID) {
                int n = match.receive(staging, 0, staging.capacity());
                String wrong = checkSelfDescribing(staging.buffer(), n);
                if (wrong != null) {
                    in.error = "message " + in.messages + " on one tag from two threads: " + wrong;
                }
                in.messages++;
                return;
            }
            if (match.id() == TOO_LONG_ID) {
                try {
                    match.receive(staging, 0, 100);
                    in.error = "a " + match.length() + "-byte message fit in 100 bytes";
                } catch (IOException expected) {
                    in.messages++;
                }
                return;
            }
            int expected = SIZES[in.messages % SIZES.length];
            int n = match.receive(staging, 0, staging.capacity());
            if (n != expected) {
                in.error = "message " + in.messages + " of id " + match.id() + " has " + n + " bytes, expected "
                        + expected;
            }
            staging.buffer().get(0, copy, 0, n);
            in.crc.update(copy, 0, n);
            in.messages++;
            in.bytes += n;
        });

        // Registry messages first: the peer has no receiver for them yet, so its process keeps them.
        CRC32 registrySent = new CRC32();
        MpiBuffer small = MpiBuffer.allocate(process, 256);
        // And one WAKE message, kept until the very end, when a receiver that does not take it registers.
        process.send(peer, tags.tag(MpiTags.WAKE, 1), small, 0, 3);
        for (int i = 0; i < REGISTRY_MESSAGES; i++) {
            byte[] bytes = payload(rank, 99, i, 1 + i * 10);
            small.buffer().put(0, bytes);
            process.send(peer, tags.tag(MpiTags.REGISTRY, 3), small, 0, bytes.length);
            registrySent.update(bytes);
        }

        // Two threads send DATA at once, while the peer does the same.
        CRC32[] dataSent = {new CRC32(), new CRC32()};
        AtomicReference<Throwable> failed = new AtomicReference<>();
        List<Thread> senders = new ArrayList<>();
        for (int t = 0; t < DATA_IDS.length; t++) {
            int id = DATA_IDS[t];
            CRC32 crc = dataSent[t];
            Thread sender = new Thread(() -> {
                try {
                    MpiBuffer out = MpiBuffer.allocate(process, 4 << 20);
                    for (int i = 0; i < ROUNDS * SIZES.length; i++) {
                        byte[] bytes = payload(rank, id, i, SIZES[i % SIZES.length]);
                        out.buffer().put(0, bytes);
                        process.send(peer, tags.tag(MpiTags.DATA, id), out, 0, bytes.length);
                        crc.update(bytes);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "sender-" + id);
            sender.start();
            senders.add(sender);
        }
        joinSenders(senders, failed, "a sender failed");
        MpiBuffer tooLong = MpiBuffer.allocate(process, 5000);
        process.send(peer, tags.tag(MpiTags.DATA, TOO_LONG_ID), tooLong, 0, 5000);

        int expected = ROUNDS * SIZES.length;
        boolean arrived = process.await(() -> incoming[7].messages == expected && incoming[8].messages == expected
                && incoming[TOO_LONG_ID].messages == 1, WAIT_NANOS);
        for (Incoming in : incoming) {
            if (in != null && in.error != null) {
                throw new IOException(in.error);
            }
        }
        if (!arrived) {
            throw new IOException("DATA did not arrive: " + incoming[7].messages + " and " + incoming[8].messages
                    + " of " + expected);
        }

        // Now the registry's receiver: the kept messages arrive first, in order.
        CRC32 registryReceived = new CRC32();
        int[] registryCount = {0};
        String[] registryError = {null};
        process.register(MpiTags.REGISTRY, match -> {
            byte[] bytes = match.receiveBytes();
            if (match.id() != 3 || match.source() != peer || bytes.length != 1 + registryCount[0] * 10) {
                registryError[0] = "registry message " + registryCount[0] + ": id " + match.id() + " from "
                        + match.source() + ", " + bytes.length + " bytes";
            }
            registryReceived.update(bytes);
            registryCount[0]++;
        });
        if (!process.await(() -> registryCount[0] == REGISTRY_MESSAGES, WAIT_NANOS)) {
            throw new IOException("registry messages: " + registryCount[0] + " of " + REGISTRY_MESSAGES);
        }
        if (registryError[0] != null) {
            throw new IOException(registryError[0]);
        }

        // Small messages sent back to back: a poll whose condition holds takes one at a time.
        for (int i = 0; i < ONE_BY_ONE_MESSAGES; i++) {
            process.send(peer, tags.tag(MpiTags.DATA, ONE_BY_ONE_ID), small, 0, 1);
        }
        long deadline = System.nanoTime() + WAIT_NANOS;
        while (incoming[ONE_BY_ONE_ID].messages < ONE_BY_ONE_MESSAGES) {
            int handled = process.poll(() -> true);
            if (handled > 1) {
                throw new IOException("poll(until) handled " + handled
                        + " small messages, its condition held after one");
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("small messages: " + incoming[ONE_BY_ONE_ID].messages + " of "
                        + ONE_BY_ONE_MESSAGES);
            }
        }

        // Two threads send bulk messages on one tag at once: each announcement meets its own bytes.
        List<Thread> sameTag = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int thread = t;
            Thread sender = new Thread(() -> {
                try {
                    MpiBuffer out = MpiBuffer.allocate(process, 64 * 1024);
                    Random sizes = new Random(rank * 31 + thread);
                    for (int i = 0; i < SAME_TAG_MESSAGES; i++) {
                        int n = MpiLanding.SLOT_BYTES + 1 + sizes.nextInt(60_000);
                        fillSelfDescribing(out.buffer(), n, rank * 1_000_000 + thread * 10_000 + i);
                        process.send(peer, tags.tag(MpiTags.DATA, SAME_TAG_ID), out, 0, n);
                    }
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "same-tag-" + t);
            sender.start();
            sameTag.add(sender);
        }
        joinSenders(sameTag, failed, "a sender on one tag failed");
        boolean sameTagArrived = process.await(() -> incoming[SAME_TAG_ID].messages == 2 * SAME_TAG_MESSAGES
                || incoming[SAME_TAG_ID].error != null, WAIT_NANOS);
        if (incoming[SAME_TAG_ID].error != null) {
            throw new IOException(incoming[SAME_TAG_ID].error);
        }
        if (!sameTagArrived) {
            throw new IOException("messages on one tag from two threads: " + incoming[SAME_TAG_ID].messages + " of "
                    + 2 * SAME_TAG_MESSAGES);
        }

        // The kept WAKE message goes to a receiver that does not take it: it is discarded, although
        // the message handed over before it (the peer's last bulk message) came from the bulk
        // communicator, which has nothing for this one.
        int[] wakes = {0};
        process.register(MpiTags.WAKE, match -> wakes[0] += match.length());
        if (wakes[0] != 3) {
            throw new IOException("the kept WAKE message: " + wakes[0] + " bytes handed over, expected 3");
        }

        // A checksum over both directions that both ranks compute alike: rank 0's streams first.
        long[] fromMe = {dataSent[0].getValue(), dataSent[1].getValue(), registrySent.getValue()};
        long[] fromPeer = {incoming[7].crc.getValue(), incoming[8].crc.getValue(), registryReceived.getValue()};
        ByteBuffer all = ByteBuffer.allocate(6 * 8);
        for (long v : rank == 0 ? fromMe : fromPeer) {
            all.putLong(v);
        }
        for (long v : rank == 0 ? fromPeer : fromMe) {
            all.putLong(v);
        }
        CRC32 total = new CRC32();
        total.update(all.array());
        long bytes = incoming[7].bytes + incoming[8].bytes;
        return "messages=" + (2 * expected + REGISTRY_MESSAGES) + " bytes=" + bytes + " crc="
                + String.format("%08x", total.getValue());
    }
}
