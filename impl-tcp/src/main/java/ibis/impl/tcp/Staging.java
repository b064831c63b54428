package ibis.impl.tcp;

import ibis.io.ByteViews;

import java.nio.ByteBuffer;

/**
 * A direct buffer of one thread and its typed views: where array parts are copied on their way to
 * or from a channel.
 */
final class Staging {

    final ByteBuffer buffer;
    final ByteViews views;

    Staging(int capacity) {
        buffer = ByteBuffer.allocateDirect(capacity);
        views = new ByteViews(buffer);
    }
}
