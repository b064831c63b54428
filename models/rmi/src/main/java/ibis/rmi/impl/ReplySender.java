package ibis.rmi.impl;

import ibis.ipl.ConnectionRefusedException;
import ibis.ipl.ConnectionTimedOutException;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.ReceivePortIdentifier;
import ibis.ipl.SendPort;
import ibis.ipl.SendPortDisconnectUpcall;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The send port of the replies to one caller JVM, connected on first use to the caller's reply
 * port for this member, of the epoch announced by the caller's last PING.
 */
final class ReplySender implements SendPortDisconnectUpcall {
    final IbisIdentifier caller;
    /** The connected port, or null; replaced under the lock of this. */
    private volatile SendPort port;
    /** Guarded by this: the epoch of the caller's reply port that {@code port} is connected to. */
    private int portEpoch;
    /** The newest epoch of the caller's reply port for us, from its PINGs (only grows). */
    private final AtomicInteger newestEpoch = new AtomicInteger();

    /** The longest single attempt to connect a reply port (see {@link #connect()}). */
    private static final long REPLY_CONNECT_ATTEMPT_MILLIS = 250;

    private final RmiRuntime runtime;

    ReplySender(RmiRuntime runtime, IbisIdentifier caller) {
        this.runtime = runtime;
        this.caller = caller;
    }

    /** A PING announced the caller's reply port of an epoch: a newer one replaces the connection. */
    void announce(int announced) {
        newestEpoch.accumulateAndGet(announced, Math::max);
        SendPort old = null;
        synchronized (this) {
            if (port != null && portEpoch < newestEpoch.get()) {
                old = port;
                port = null;
            }
        }
        if (old != null) {
            RmiRuntime.closeQuietly(old);
        }
    }

    /** @return the port, connected (again) if needed */
    SendPort port() throws IOException {
        SendPort p = port;
        return p != null ? p : connect();
    }

    /**
     * Connects to the caller's newest reply port. Attempts are short, so that a newer epoch
     * announced meanwhile is used soon (and a PING waiting for this lock is not held long).
     */
    private synchronized SendPort connect() throws IOException {
        if (port != null) {
            return port;
        }
        SendPort p = runtime.ibis().createSendPort(RmiRuntime.REPLY_TYPE, null, this, null);
        long deadline = System.nanoTime() + runtime.connectTimeout() * 1_000_000L;
        while (true) {
            int epoch = newestEpoch.get();
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            try {
                p.connect(caller, ReplyChannel.portName(runtime.ibis().identifier().name(), epoch),
                        Math.max(1, Math.min(left, REPLY_CONNECT_ATTEMPT_MILLIS)), false);
                portEpoch = epoch;
                port = p;
                return p;
            } catch (ConnectionRefusedException | ConnectionTimedOutException e) {
                // Refused: one sender per reply port, and the caller has not yet read the end of
                // our previous connection (closed after a failed reply). Timed out: no such port
                // yet, or an epoch the caller gave up. Try again (with the newest epoch).
                if (System.nanoTime() - deadline >= 0) {
                    RmiRuntime.closeQuietly(p);
                    throw e;
                }
                if (e instanceof ConnectionRefusedException) {
                    pauseBeforeRetry();
                }
            } catch (IOException e) {
                RmiRuntime.closeQuietly(p);
                throw e;
            }
        }
    }

    /**
     * A reply on {@code failed} failed: that port is closed, and when it is still the current one
     * the next reply connects again. A port that another call connected meanwhile (to the caller's
     * newer reply port, announced by a PING while this reply went to the old one) stays: closing it
     * would end that call's reply connection and its reply with it.
     */
    void closeFailed(SendPort failed) {
        synchronized (this) {
            if (port == failed) {
                port = null;
            }
        }
        RmiRuntime.closeQuietly(failed);
    }

    /** Drops the connection (the caller is gone): the next reply connects again. */
    void close() {
        SendPort p;
        synchronized (this) {
            p = port;
            port = null;
        }
        if (p != null) {
            RmiRuntime.closeQuietly(p);
        }
    }

    @Override
    public void lostConnection(SendPort origin, ReceivePortIdentifier receiver, Throwable cause) {
        // The caller closed or lost its reply port: the next reply connects anew (never into
        // a connection the caller gave up). Closed elsewhere: this runs in the port's own thread.
        boolean mine;
        synchronized (this) {
            mine = port == origin;
            if (mine) {
                port = null;
            }
        }
        if (mine) {
            CompletableFuture.runAsync(() -> RmiRuntime.closeQuietly(origin));
        }
    }

    private static void pauseBeforeRetry() throws IOException {
        try {
            Thread.sleep(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting a reply port");
        }
    }
}
