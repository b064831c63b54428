package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import ibis.testsupport.MemoryPipe;

import java.io.IOException;
import java.io.StreamCorruptedException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.Properties;

import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** The "data" and "byte" serializations and the {@link Serialization} factory. */
public class DataSerializationTest {

    private static final String[] STRINGS = {
        null, "", "a", "hello", "Grüße, 世界", "emoji \uD83D\uDE00 and a lone surrogate \uD800",
        "x".repeat(4096), "y".repeat(4097), "long-" + "0123456789".repeat(20_000),
    };

    @DataProvider
    public Object[][] names() {
        return new Object[][] {{"data"}, {"byte"}};
    }

    @Test(dataProvider = "names", timeOut = 60_000)
    public void primitivesArraysAndStringsRoundTripInBothByteOrders(String name) throws IOException {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            Wire wire = new Wire(61, 5, 17, order);
            SerializationOutput out = wire.output(name);
            SerializationInput in = wire.input(name);
            assertEquals(out.serializationName(), name);
            assertEquals(in.serializationName(), name);
            RandomData data = new RandomData(5, 300, 200);
            for (int m = 0; m < 3; m++) {
                data.writeAll(out);
                for (String s : STRINGS) {
                    out.writeString(s);
                }
                wire.endMessage(out);
            }
            for (int m = 0; m < 3; m++) {
                data.readAll(in);
                for (String s : STRINGS) {
                    assertEquals(in.readString(), s);
                }
                assertThrows(EndOfMessageException.class, in::readInt);
                wire.endMessage(in);
            }
        }
    }

    @Test
    public void stringWireFormatIsCharCountThenUtf16CharsInWriterOrder() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream blocks = BlockOutputStream.create(pipe.sink, 64, ByteOrder.BIG_ENDIAN);
        SerializationOutput out = Serialization.createOutput("data", blocks);
        out.writeString("Aé");
        out.writeString(null);
        out.writeString("");
        blocks.endMessage();
        assertEquals(HexFormat.of().formatHex(pipe.unread()),
                "80000010" + "00000002" + "004100e9" + "ffffffff" + "00000000");
    }

    @Test
    public void stringsThroughAGeneralDataOutputUseTheSameFormat() throws IOException {
        MemoryPipe pipe = new MemoryPipe();
        BlockOutputStream blocks = new BlockOutputStream(pipe.sink, 64);
        SerializationOutput out = Serialization.createOutput("data", new ForwardingOutput(blocks));
        SerializationInput in = Serialization.createInput("data",
                new BlockInputStream(pipe.source, 64, blocks.order()));
        for (String s : STRINGS) {
            out.writeString(s);
        }
        blocks.endMessage();
        for (String s : STRINGS) {
            assertEquals(in.readString(), s);
        }
    }

    @Test(dataProvider = "names")
    public void objectsNeedObjectSerialization(String name) throws IOException {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output(name);
        SerializationInput in = wire.input(name);
        IOException e = expectThrows(IOException.class, () -> out.writeObject("x"));
        assertTrue(e.getMessage().contains("serialization.object"), e.getMessage());
        assertThrows(IOException.class, () -> out.writeArray(new Object[1], 0, 1));
        out.reset();
        out.writeInt(1);
        wire.endMessage(out);
        e = expectThrows(IOException.class, in::readObject);
        assertTrue(e.getMessage().contains("serialization.object"), e.getMessage());
        assertThrows(IOException.class, () -> in.readArray(new Object[1], 0, 1));
        assertEquals(in.readInt(), 1);
    }

    @Test(timeOut = 60_000)
    public void aHugeClaimedStringLengthIsRejectedOrFailsWithoutAllocatingIt() throws IOException {
        // Claimed length above the maximum: rejected before reading anything else.
        byte[] tooLong = HexFormat.of().parseHex("80000008" + "7fffffff" + "00410042");
        SerializationInput in = Serialization.createInput("data",
                new BlockInputStream(MemoryPipe.of(tooLong, 0, 0).source, 64, ByteOrder.BIG_ENDIAN));
        StreamCorruptedException e = expectThrows(StreamCorruptedException.class, in::readString);
        assertTrue(e.getMessage().contains(IoProperties.STRING_MAX), e.getMessage());

        byte[] negative = HexFormat.of().parseHex("80000004" + "fffffffe");
        in = Serialization.createInput("data",
                new BlockInputStream(MemoryPipe.of(negative, 0, 0).source, 64, ByteOrder.BIG_ENDIAN));
        assertThrows(StreamCorruptedException.class, in::readString);

        // Within the maximum (60 Mi chars = 120 MB if allocated up front) but the data is not there:
        // ends with an end-of-message after a few chunks, not an OutOfMemoryError.
        byte[] liar = HexFormat.of().parseHex("80000008" + "03c00000" + "00410042");
        in = Serialization.createInput("data",
                new BlockInputStream(MemoryPipe.of(liar, 0, 0).source, 64, ByteOrder.BIG_ENDIAN));
        assertThrows(EndOfMessageException.class, in::readString);
    }

    @Test
    public void theStringMaximumComesFromThePropertiesGiven() throws IOException {
        Properties properties = new Properties();
        properties.setProperty(IoProperties.STRING_MAX, "3");
        for (String length : new String[] {"00000003", "00000004"}) {
            byte[] wire = HexFormat.of().parseHex("8000000c" + length + "004100420043" + "0044");
            SerializationInput in = Serialization.createInput("data",
                    new BlockInputStream(MemoryPipe.of(wire, 0, 0).source, 64, ByteOrder.BIG_ENDIAN), properties, null);
            if (length.endsWith("3")) {
                assertEquals(in.readString(), "ABC");
            } else {
                assertThrows(StreamCorruptedException.class, in::readString);
            }
        }
        properties.setProperty(IoProperties.STRING_MAX, "many");
        assertThrows(IllegalArgumentException.class, () -> Serialization.createInput("data",
                new BlockInputStream(new MemoryPipe().source, 64, ByteOrder.BIG_ENDIAN), properties, null));
    }

    @Test
    public void nameForPicksTheMostCapableSerialization() {
        assertEquals(Serialization.nameFor(new String[] {"serialization.byte", "serialization.data"}), "data");
        assertEquals(Serialization.nameFor(new String[] {"serialization.byte"}), "byte");
        assertEquals(Serialization.nameFor(new String[] {"connection.onetoone", "serialization.object"}), "ibis");
        assertEquals(Serialization.nameFor(new String[] {"serialization.object.sun", "serialization.data"}), "sun");
        assertEquals(Serialization.nameFor(new String[] {"serialization.object.sun", "serialization.object.ibis"}),
                "ibis");
        assertEquals(Serialization.nameFor(new String[] {"serialization.object", "serialization.object.sun"}), "sun");
        assertNull(Serialization.nameFor(new String[] {"communication.reliable"}));
        assertNull(Serialization.nameFor(new String[0]));
        assertNull(Serialization.nameFor(null));
    }

    @Test
    public void ibisAndObjectSelectTheIbisSerializationAndSunTheJdkOne() throws IOException {
        for (String name : new String[] {"ibis", "object", "sun"}) {
            Wire wire = new Wire(64, 0, 0);
            String expected = name.equals("sun") ? "sun" : "ibis";
            assertEquals(wire.output(name).serializationName(), expected);
            assertEquals(wire.input(name).serializationName(), expected);
        }
        Wire wire = new Wire(64, 0, 0);
        assertThrows(IllegalArgumentException.class, () -> wire.output("kryo"));
        assertThrows(IllegalArgumentException.class, () -> wire.input(null));
    }

    @Test
    public void flushAndCountersPassThrough() throws IOException {
        Wire wire = new Wire(64, 0, 0);
        SerializationOutput out = wire.output("data");
        SerializationInput in = wire.input("data");
        out.writeLong(1);
        out.flush();
        assertEquals(wire.pipe.unread().length, 12, "flush sent a non-final block");
        assertEquals(out.bytesWritten(), 8);
        out.resetBytesWritten();
        assertEquals(out.bytesWritten(), 0);
        wire.endMessage(out);
        in.readByteBuffer(ByteBuffer.allocate(8));
        assertEquals(in.bytesRead(), 8);
        in.resetBytesRead();
        assertEquals(in.bytesRead(), 0);
    }

    /** A DataOutput that is not a BlockOutputStream (exercises the general string path). */
    private static final class ForwardingOutput implements DataOutput {
        private final DataOutput out;

        ForwardingOutput(DataOutput out) {
            this.out = out;
        }

        @Override public void writeBoolean(boolean value) throws IOException { out.writeBoolean(value); }
        @Override public void writeByte(byte value) throws IOException { out.writeByte(value); }
        @Override public void writeChar(char value) throws IOException { out.writeChar(value); }
        @Override public void writeShort(short value) throws IOException { out.writeShort(value); }
        @Override public void writeInt(int value) throws IOException { out.writeInt(value); }
        @Override public void writeLong(long value) throws IOException { out.writeLong(value); }
        @Override public void writeFloat(float value) throws IOException { out.writeFloat(value); }
        @Override public void writeDouble(double value) throws IOException { out.writeDouble(value); }
        @Override public void writeArray(boolean[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(byte[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(char[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(short[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(int[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(long[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(float[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeArray(double[] source, int offset, int length) throws IOException {
            out.writeArray(source, offset, length);
        }
        @Override public void writeByteBuffer(ByteBuffer value) throws IOException { out.writeByteBuffer(value); }
        @Override public void flush() throws IOException { out.flush(); }
        @Override public long bytesWritten() { return out.bytesWritten(); }
        @Override public void resetBytesWritten() { out.resetBytesWritten(); }
        @Override public void close() throws IOException { out.close(); }
    }
}
