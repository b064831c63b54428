package ibis.impl.mpi;

import java.io.IOException;

/**
 * Takes the messages of one tag kind ({@link MpiTags}) in this process; registered with
 * {@link MpiProcess#register}. Called by whichever thread is in {@link MpiProcess#poll()} (one at a
 * time, in the order MPI matched the messages), so it must not block on anything but its own short
 * locks: receive the message, record it, wake whoever waits for it.
 */
@FunctionalInterface
public interface MpiReceiver {

    /**
     * A message of this receiver's kind was matched. Receive it with {@link MpiMatch#receive} or
     * {@link MpiMatch#receiveBytes} before returning; a message not received is discarded (with a
     * warning in the log).
     *
     * @throws IOException when receiving fails; {@link MpiProcess#poll()} passes it on
     */
    void matched(MpiMatch match) throws IOException;
}
