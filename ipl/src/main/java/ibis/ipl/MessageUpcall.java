package ibis.ipl;

import java.io.IOException;

/**
 * Receives the messages of a receive port that was created with it (see
 * {@link Ibis#createReceivePort(PortType, String, MessageUpcall)}); its port type must have
 * {@link PortType#RECEIVE_AUTO_UPCALLS} or {@link PortType#RECEIVE_POLL_UPCALLS}. Upcalls start
 * only after {@link ReceivePort#enableMessageUpcalls()}.
 *
 * <p>Threading: at most one upcall of a receive port runs at a time, so messages of one port are
 * handled one by one. An upcall may call {@link ReadMessage#finish()} once it has read what it
 * needs; from then on it no longer holds the port, the next message may be delivered to another
 * upcall in another thread, and this upcall may block (for example to send a reply and wait for
 * something) without stopping the port. An upcall that returns without finishing its message has it
 * finished for it. Upcalls of different ports may run at the same time.
 */
public interface MessageUpcall {

    /**
     * Handles one received message. The message may only be read by this thread and only until it
     * is finished; it must not be used after this method returns.
     *
     * @param readMessage the message
     * @throws IOException when reading fails; the message is then finished with that exception
     * @throws ClassNotFoundException when an object in the message has an unknown class
     */
    void upcall(ReadMessage readMessage) throws IOException, ClassNotFoundException;
}
