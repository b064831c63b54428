package ibis.impl.ucx;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.testng.annotations.Test;

/**
 * The contact data and the side channel's set-up messages come from the network: malformed bytes
 * are rejected with an IOException before anything is allocated from a length in them.
 */
public class UcxContactDataTest {

    private static final byte[] WORKER = {1, 2, 3, 4, 5, 6, 7};

    private static byte[] valid() throws IOException {
        return new UcxContactData(WORKER, new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 4711)).toBytes();
    }

    @Test
    public void contactDataRoundTrips() throws IOException {
        UcxContactData parsed = UcxContactData.parse(valid());
        assertEquals(parsed.workerAddress(), WORKER);
        assertEquals(parsed.sideAddress(), new InetSocketAddress(InetAddress.getByName("10.1.2.3"), 4711));
        byte[] v6 = new UcxContactData(WORKER, new InetSocketAddress(InetAddress.getByName("::1"), 1)).toBytes();
        assertEquals(UcxContactData.parse(v6).sideAddress().getAddress(), InetAddress.getByName("::1"));
    }

    @Test
    public void malformedContactDataIsRejected() throws IOException {
        byte[] good = valid();
        expectThrows(IOException.class, () -> UcxContactData.parse(null));
        expectThrows(IOException.class, () -> UcxContactData.parse(new byte[0]));
        expectThrows(IOException.class, () -> UcxContactData.parse(Arrays.copyOf(good, 4)));
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, good.length - cut);
            expectThrows(IOException.class, () -> UcxContactData.parse(truncated));
        }
        byte[] longer = Arrays.copyOf(good, good.length + 1);
        expectThrows(IOException.class, () -> UcxContactData.parse(longer));

        byte[] version = good.clone();
        version[0] = 2;
        expectThrows(IOException.class, () -> UcxContactData.parse(version));

        for (int length : new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, UcxContactData.MAX_WORKER_ADDRESS + 1,
            WORKER.length + 1}) {
            byte[] bad = good.clone();
            ByteBuffer.wrap(bad).putInt(1, length);
            expectThrows(IOException.class, () -> UcxContactData.parse(bad));
        }

        byte[] ipLength = good.clone();
        ipLength[1 + 4 + WORKER.length] = 5;
        expectThrows(IOException.class, () -> UcxContactData.parse(ipLength));

        byte[] portZero = good.clone();
        portZero[good.length - 1] = 0;
        portZero[good.length - 2] = 0;
        expectThrows(IOException.class, () -> UcxContactData.parse(portZero));
    }

    @Test
    public void contactDataOfAnotherImplementationIsRejected() {
        byte[] tcpContactData = {1, 4, 127, 0, 0, 1, 0x12, 0x34}; // TcpContactData's coded form
        expectThrows(IOException.class, () -> UcxContactData.parse(tcpContactData));
    }

    private static byte[] request(int id, int window, byte[] worker) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UcxHello.writeRequest(out, new UcxHello.Request(id, window, UcxNative.ERROR_MODE_NONE, worker));
        return out.toByteArray();
    }

    @Test
    public void setUpMessagesRoundTrip() throws IOException {
        UcxHello.Request r = UcxHello.readRequest(new ByteArrayInputStream(request(7, 4 << 20, WORKER)));
        assertEquals(r.connectionId(), 7);
        assertEquals(r.window(), 4 << 20);
        assertEquals(r.workerAddress(), WORKER);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UcxHello.writeReply(out, new UcxHello.Reply(-2, 8 << 20, UcxNative.ERROR_MODE_PEER));
        UcxHello.Reply reply = UcxHello.readReply(new ByteArrayInputStream(out.toByteArray()));
        assertEquals(reply.connectionId(), -2, "ids are unsigned 32-bit numbers");
        assertEquals(reply.window(), 8 << 20);
        assertEquals(reply.errorMode(), UcxNative.ERROR_MODE_PEER);
    }

    @Test
    public void malformedSetUpMessagesAreRejected() throws IOException {
        byte[] good = request(7, 4 << 20, WORKER);
        for (int cut = 1; cut < good.length; cut++) {
            byte[] truncated = Arrays.copyOf(good, good.length - cut);
            expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(truncated)));
        }
        byte[] magic = good.clone();
        magic[0] ^= 1;
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(magic)));
        byte[] version = good.clone();
        version[4] = 9;
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(version)));
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(request(0, 4 << 20,
                WORKER))));
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(request(1, 1 << 20,
                WORKER))));
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(request(1, -1,
                WORKER))));
        for (int length : new int[] {0, -5, UcxContactData.MAX_WORKER_ADDRESS + 1, Integer.MAX_VALUE}) {
            byte[] bad = good.clone();
            ByteBuffer.wrap(bad).putInt(4 + 1 + 4 + 4 + 1, length);
            expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(bad)));
        }
        byte[] mode = good.clone();
        mode[4 + 1 + 4 + 4] = 7;
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(mode)));
        // A reply is not a request.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        UcxHello.writeReply(out, new UcxHello.Reply(3, 4 << 20, UcxNative.ERROR_MODE_NONE));
        expectThrows(IOException.class, () -> UcxHello.readRequest(new ByteArrayInputStream(out.toByteArray())));
    }
}
