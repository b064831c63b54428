package ibis.impl.tcp;

import ibis.io.ByteSource;
import ibis.ipl.impl.SourceWaitSet;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.function.Consumer;

/**
 * A {@link SourceWaitSet} of the TCP transport: one {@link Selector} in which the non-blocking
 * channels of the receiving sources ({@link TcpByteSource#polling}) are registered for reading, besides
 * each source's own selector. Waiting allocates nothing (ready keys go to a no-op consumer; the
 * caller polls the sources afterwards).
 */
final class TcpSourceWaitSet implements SourceWaitSet {

    /** Ready keys are not collected: the caller polls its sources after a wake-up. */
    private static final Consumer<SelectionKey> IGNORE_READY_KEY = key -> { };

    private final Selector selector;

    TcpSourceWaitSet() throws IOException {
        this.selector = Selector.open();
    }

    @Override
    public void add(ByteSource source) throws IOException {
        if (!(source instanceof TcpByteSource tcp)) {
            throw new IOException(source + " is not a receiving source of the tcp transport");
        }
        try {
            tcp.channel().register(selector, SelectionKey.OP_READ);
        } catch (ClosedSelectorException e) {
            throw new AsynchronousCloseException();
        } catch (ClosedChannelException e) {
            throw new IOException("the connection of " + source + " is closed", e);
        }
    }

    @Override
    public void remove(ByteSource source) {
        if (source instanceof TcpByteSource tcp) {
            SelectionKey key = tcp.channel().keyFor(selector);
            if (key != null) {
                key.cancel();
            }
        }
    }

    @Override
    public void await(long timeoutMillis) throws IOException {
        try {
            selector.select(IGNORE_READY_KEY, timeoutMillis);
        } catch (ClosedSelectorException e) {
            throw new AsynchronousCloseException();
        }
        if (Thread.currentThread().isInterrupted()) {
            // A selector returns at once for an interrupted thread; do not spin on that.
            throw new InterruptedIOException("interrupted while waiting for data on several connections");
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public void close() throws IOException {
        selector.close();
    }
}
