package ibis.registry.protocol;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import org.testng.annotations.Test;

/** Parsing of ibis.server.address and bounded frame reading. */
public class ServerAddressTest {

    @Test
    public void hostAloneUsesTheDefaultPort() {
        assertEquals(ServerAddress.parse("node1"), new ServerAddress("node1", 8888));
        assertEquals(ServerAddress.parse(" 10.0.0.1:9000 "), new ServerAddress("10.0.0.1", 9000));
        assertEquals(ServerAddress.parse("[::1]:7"), new ServerAddress("::1", 7));
        assertEquals(ServerAddress.parse("::1"), new ServerAddress("::1", 8888));
        assertEquals(ServerAddress.parse("[::1]:7").toString(), "[::1]:7");
    }

    @Test
    public void badAddressesAreRejectedWithAReason() {
        expectThrows(IllegalArgumentException.class, () -> ServerAddress.parse(""));
        expectThrows(IllegalArgumentException.class, () -> ServerAddress.parse("host:port"));
        expectThrows(IllegalArgumentException.class, () -> ServerAddress.parse("host:70000"));
        expectThrows(IllegalArgumentException.class, () -> ServerAddress.parse(":80"));
        expectThrows(IllegalArgumentException.class, () -> ServerAddress.parse("[::1"));
    }

    @Test
    public void framesRoundTripAndBadFramesAreRejected() throws IOException {
        byte[] frame = new MessageBuilder(RegistryProtocol.REPLY).writeInt(5).writeString("x").writeLong(9).frame();
        MessageReader r = MessageReader.readFrame(new ByteArrayInputStream(frame), 100);
        assertEquals(r.type(), RegistryProtocol.REPLY);
        assertEquals(r.readInt(), 5);
        assertEquals(r.readString(), "x");
        assertEquals(r.readLong(), 9L);
        r.expectEnd();
        expectThrows(MalformedMessageException.class, r::readInt);

        expectThrows(MalformedMessageException.class,
                () -> MessageReader.readFrame(new ByteArrayInputStream(frame), frame.length - 5));
        expectThrows(MalformedMessageException.class,
                () -> MessageReader.readFrame(new ByteArrayInputStream(frame, 0, frame.length - 1), 100));
        byte[] lyingCount = new MessageBuilder(RegistryProtocol.SIGNAL).writeInt(Integer.MAX_VALUE).frame();
        MessageReader counts = MessageReader.readFrame(new ByteArrayInputStream(lyingCount), 100);
        expectThrows(MalformedMessageException.class, () -> counts.readCount(Integer.MAX_VALUE, 1));
        assertEquals(MessageReader.readFrame(new ByteArrayInputStream(new byte[0]), 100), null, "clean end of stream");
    }
}
