package ibis.ipl.impl;

import ibis.io.ByteSource;

import java.io.Closeable;
import java.io.IOException;

/**
 * Lets one thread block until any of several connection sources of a transport has data, so that
 * the {@code receive()} caller of a many-to-one receive port can wait for all its connections
 * itself instead of having one reader thread per connection hand it each message (a thread
 * wake-up per message). Offered by a transport through {@link Transport#newSourceWaitSet()}; a
 * transport without it gets the reader threads.
 *
 * <p>Threads: {@link #add}, {@link #remove} and {@link #await} are called by one thread at a time
 * (the receive port makes sure of that); {@link #wakeup()} and {@link #close()} by any thread.
 */
public interface SourceWaitSet extends Closeable {

    /**
     * Adds the source of one of this transport's accepted connections (the one handed to the
     * {@link IncomingConnectionHandler}). Adding a source twice has no effect.
     *
     * @throws IOException when the source cannot be watched (it was closed, or is not one of this
     *         transport's receiving sources)
     */
    void add(ByteSource source) throws IOException;

    /** Stops watching a source; a closed source may also be dropped by the set itself. */
    void remove(ByteSource source);

    /**
     * Blocks until at least one added source has data or has reached its end (it may return
     * earlier, spuriously), {@link #wakeup()} is called, or {@code timeoutMillis} passed
     * ({@code 0}: no limit). Consumes nothing: the caller then polls the sources.
     *
     * @throws java.io.InterruptedIOException when the calling thread is interrupted (its
     *         interrupt status stays set; nothing was consumed)
     * @throws IOException when the set was closed meanwhile
     */
    void await(long timeoutMillis) throws IOException;

    /**
     * Polls the added sources for up to {@code spin}'s polling time without blocking, as cheaply as
     * the transport can look at all of them at once; consumes nothing (a {@link #wakeup()} counts
     * as ready, and is consumed). Default: false at once (the caller polls the sources itself).
     *
     * @return whether a source may have data or have reached its end
     * @throws IOException when the set was closed meanwhile
     */
    default boolean poll(SpinWait spin) throws IOException {
        return false;
    }

    /** Makes the current {@link #await} return at once, or the next one if none is waiting. */
    void wakeup();

    /** Frees the set; a thread in {@link #await} returns with an IOException. Idempotent. */
    @Override
    void close() throws IOException;
}
