package org.example.loop;

import ibis.io.ByteSink;
import ibis.io.ByteSource;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

/** Both ends of one socket: a sink writing to it and a source fed by a reader thread. */
final class LoopConnection {

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final int limit;
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private int buffered;
    private boolean eof;
    private IOException error;
    private boolean sourceClosed;
    private boolean sinkClosed;
    private final byte[] copy = new byte[65536];

    LoopConnection(Socket socket, int limit) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        this.limit = limit;
        Thread reader = new Thread(this::pump, "loop-reader " + socket.getRemoteSocketAddress());
        reader.setDaemon(true);
        reader.start();
    }

    private void pump() {
        try {
            while (true) {
                byte[] b = new byte[65536];
                int n = in.read(b);
                synchronized (this) {
                    if (n < 0) {
                        eof = true;
                        notifyAll();
                        return;
                    }
                    chunks.add(ByteBuffer.wrap(b, 0, n));
                    buffered += n;
                    notifyAll();
                    while (buffered >= limit && !sourceClosed) {
                        wait();
                    }
                    if (sourceClosed) {
                        return;
                    }
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                error = e;
                notifyAll();
            }
        } catch (InterruptedException e) {
            // daemon reader, ends
        }
    }

    ByteSink sink() {
        return new ByteSink() {
            @Override
            public void write(ByteBuffer[] buffers, int offset, int count) throws IOException {
                synchronized (out) {
                    for (int i = offset; i < offset + count; i++) {
                        ByteBuffer b = buffers[i];
                        if (b.hasArray()) {
                            out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
                            b.position(b.limit());
                        } else {
                            while (b.hasRemaining()) {
                                int n = Math.min(copy.length, b.remaining());
                                b.get(copy, 0, n);
                                out.write(copy, 0, n);
                            }
                        }
                    }
                    out.flush();
                }
            }

            @Override
            public void close() throws IOException {
                synchronized (LoopConnection.this) {
                    sinkClosed = true;
                }
                closeIfDone();
            }
        };
    }

    ByteSource source() {
        return new ByteSource() {
            @Override
            public int read(ByteBuffer destination, int minimum) throws IOException {
                boolean interrupted = false;
                int total = 0;
                try {
                    synchronized (LoopConnection.this) {
                        while (true) {
                            while (!chunks.isEmpty() && destination.hasRemaining()) {
                                ByteBuffer c = chunks.peek();
                                int n = Math.min(c.remaining(), destination.remaining());
                                int old = c.limit();
                                c.limit(c.position() + n);
                                destination.put(c);
                                c.limit(old);
                                if (!c.hasRemaining()) {
                                    chunks.poll();
                                }
                                buffered -= n;
                                total += n;
                            }
                            LoopConnection.this.notifyAll();
                            if (total >= minimum) {
                                return total;
                            }
                            if (sourceClosed) {
                                throw new IOException("source closed");
                            }
                            if (error != null) {
                                throw new IOException("connection broken", error);
                            }
                            if (eof) {
                                throw new EOFException("connection closed by peer (" + total + " of " + minimum + ")");
                            }
                            try {
                                LoopConnection.this.wait();
                            } catch (InterruptedException e) {
                                interrupted = true; // a read inside a message waits on
                            }
                        }
                    }
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }

            @Override
            public int available() {
                synchronized (LoopConnection.this) {
                    return buffered;
                }
            }

            @Override
            public boolean awaitData(long timeoutMillis) throws IOException {
                synchronized (LoopConnection.this) {
                    long deadline = System.currentTimeMillis() + timeoutMillis;
                    while (true) {
                        if (buffered > 0 || eof || error != null || sourceClosed) {
                            return true;
                        }
                        if (timeoutMillis < 0) {
                            return false;
                        }
                        long wait = 0;
                        if (timeoutMillis > 0) {
                            wait = deadline - System.currentTimeMillis();
                            if (wait <= 0) {
                                return false;
                            }
                        }
                        try {
                            LoopConnection.this.wait(wait);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new InterruptedIOException("interrupted while waiting for data");
                        }
                    }
                }
            }

            @Override
            public void close() throws IOException {
                synchronized (LoopConnection.this) {
                    sourceClosed = true;
                    LoopConnection.this.notifyAll();
                }
                closeIfDone();
            }
        };
    }

    private void closeIfDone() throws IOException {
        boolean both;
        synchronized (this) {
            both = sinkClosed && sourceClosed;
        }
        if (both) {
            socket.close();
        } else if (sourceClosed) {
            socket.shutdownInput();
        }
    }
}
