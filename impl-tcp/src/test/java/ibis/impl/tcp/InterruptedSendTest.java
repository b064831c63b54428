package ibis.impl.tcp;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import ibis.ipl.Ibis;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.PoolFixture;
import ibis.testsupport.Waits;

import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.testng.annotations.Test;

/**
 * A sender interrupted while its send waits for room in a full socket buffer (the receiver is not
 * reading) keeps its connection: the send completes once the receiver reads, every byte arrives
 * intact, later messages go through the same connection, and the sender's interrupt status is
 * set when its call returns.
 */
public class InterruptedSendTest {

    /** Far more than the 64 KiB socket buffers of both ends (and the kernel's doubling) hold. */
    private static final int MESSAGE_BYTES = 8 << 20;

    @Test(timeOut = 120_000)
    public void anInterruptWhileASendWaitsForBufferRoomKeepsTheConnectionAndTheData() throws Exception {
        try (PoolFixture pool = new PoolFixture("tcp")) {
            Properties small = pool.properties();
            small.setProperty(TcpPropertyTable.SOCKET_BUFFER_SIZE, "65536");
            Ibis receiverIbis = pool.create(small, new ibis.ipl.IbisCapabilities(), null, PortTypes.ONE_TO_ONE);
            Ibis senderIbis = pool.create(small, new ibis.ipl.IbisCapabilities(), null, PortTypes.ONE_TO_ONE);
            ReceivePort rp = receiverIbis.createReceivePort(PortTypes.ONE_TO_ONE, "in");
            rp.enableConnections();
            SendPort sp = senderIbis.createSendPort(PortTypes.ONE_TO_ONE);
            sp.connect(rp.identifier());

            byte[] payload = new byte[MESSAGE_BYTES];
            for (int i = 0; i < payload.length; i++) {
                payload[i] = (byte) (i * 31 + (i >>> 13));
            }
            CompletableFuture<Boolean> interruptSeen = new CompletableFuture<>();
            Thread sender = new Thread(() -> {
                try {
                    WriteMessage w = sp.newMessage();
                    w.writeInt(1);
                    w.writeArray(payload);
                    w.finish();
                    boolean interrupted = Thread.interrupted(); // cleared: the next message must not see it
                    WriteMessage second = sp.newMessage();
                    second.writeInt(2);
                    second.finish();
                    interruptSeen.complete(interrupted);
                } catch (Throwable t) {
                    interruptSeen.completeExceptionally(t);
                }
            }, "interrupted sender");
            sender.start();
            try {
                // Inside a write of a TCP connection and in a JDK native call (the write that found the
                // buffer full, or the wait for room); the receiver reads nothing, so it stays there.
                // The same for a blocking write (the old sink) and a wait in a selector.
                Waits.untilStack(sender, "blocked in a send", false,
                        stack -> Waits.inNativeCallUnder(stack, TcpByteSink.class.getName()));
                sender.interrupt(); // as a thread pool's cancel(true) would
                assertEquals(sender.getState() == Thread.State.TERMINATED, false, "the send was still waiting");

                ReadMessage first = rp.receive(60_000);
                assertEquals(first.readInt(), 1);
                byte[] got = new byte[MESSAGE_BYTES];
                first.readArray(got);
                first.finish();
                assertTrue(Arrays.equals(got, payload), "every byte arrives intact");
                ReadMessage second = rp.receive(60_000);
                assertEquals(second.readInt(), 2, "the connection carries the next message");
                second.finish();
                assertTrue(interruptSeen.get(60, TimeUnit.SECONDS), "the sender's interrupt status is kept");
                assertEquals(rp.connectedTo().length, 1, "still connected");
                assertEquals(sp.lostConnections().length, 0, "no connection lost");
            } finally {
                sender.interrupt();
                sender.join(30_000);
            }
            assertNull(rp.poll(), "nothing more arrived");
        }
    }
}
