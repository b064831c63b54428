package ibis.ipl.impl;

/**
 * How the reading of an auto-upcall port goes on after {@code finish()} inside an upcall:
 * {@link UpcallDelivery} (a reader per connection) or {@link SharedUpcallReader} (one for the port).
 */
interface UpcallReaders {

    /**
     * finish() was called inside an upcall for a message of {@code c}: the reading may go on in
     * another thread while the upcall runs on (after a delay, {@link UpcallHandOffs}).
     */
    void handOff(ReceiveConnection c);

    /**
     * Goes on reading on a pooled thread after such a hand-off, unless the upcall's thread took the
     * reading back first.
     */
    void continueReading(ReceiveConnection c);
}
