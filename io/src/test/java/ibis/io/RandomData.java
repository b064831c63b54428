package ibis.io;

import static org.testng.Assert.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * A reproducible random sequence of typed writes (every primitive, every array type, slices,
 * byte buffers) that can be written to a {@link DataOutput} and checked against a
 * {@link DataInput}.
 */
final class RandomData {

    /** One write and the matching checked read. */
    interface Op {
        void write(DataOutput out) throws IOException;

        void readAndCheck(DataInput in) throws IOException;
    }

    private final List<Op> ops = new ArrayList<>();

    /**
     * @param count number of operations
     * @param maxArray largest array length
     */
    RandomData(long seed, int count, int maxArray) {
        Random r = new Random(seed);
        for (int i = 0; i < count; i++) {
            ops.add(randomOp(r, maxArray));
        }
    }

    void writeAll(DataOutput out) throws IOException {
        for (Op op : ops) {
            op.write(out);
        }
    }

    void readAll(DataInput in) throws IOException {
        for (int i = 0; i < ops.size(); i++) {
            try {
                ops.get(i).readAndCheck(in);
            } catch (AssertionError e) {
                throw new AssertionError("operation " + i + " (" + ops.get(i) + "): " + e.getMessage(), e);
            }
        }
    }

    int size() {
        return ops.size();
    }

    private static Op randomOp(Random r, int maxArray) {
        int length = r.nextInt(maxArray + 1);
        int offset = r.nextInt(4);
        int total = offset + length + r.nextInt(3);
        switch (r.nextInt(17)) {
            case 0: {
                boolean v = r.nextBoolean();
                return op("boolean " + v, out -> out.writeBoolean(v), in -> assertEquals(in.readBoolean(), v));
            }
            case 1: {
                byte v = (byte) r.nextInt();
                return op("byte " + v, out -> out.writeByte(v), in -> assertEquals(in.readByte(), v));
            }
            case 2: {
                char v = (char) r.nextInt();
                return op("char " + (int) v, out -> out.writeChar(v), in -> assertEquals(in.readChar(), v));
            }
            case 3: {
                short v = (short) r.nextInt();
                return op("short " + v, out -> out.writeShort(v), in -> assertEquals(in.readShort(), v));
            }
            case 4: {
                int v = r.nextInt();
                return op("int " + v, out -> out.writeInt(v), in -> assertEquals(in.readInt(), v));
            }
            case 5: {
                long v = r.nextLong();
                return op("long " + v, out -> out.writeLong(v), in -> assertEquals(in.readLong(), v));
            }
            case 6: {
                float v = r.nextBoolean() ? Float.intBitsToFloat(r.nextInt()) : r.nextFloat();
                return op("float " + v, out -> out.writeFloat(v),
                        in -> assertEquals(Float.floatToRawIntBits(in.readFloat()), Float.floatToRawIntBits(v)));
            }
            case 7: {
                double v = r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : r.nextDouble();
                return op("double " + v, out -> out.writeDouble(v),
                        in -> assertEquals(Double.doubleToRawLongBits(in.readDouble()), Double.doubleToRawLongBits(v)));
            }
            case 8: {
                boolean[] a = new boolean[total];
                for (int i = 0; i < total; i++) {
                    a[i] = r.nextBoolean();
                }
                return op("boolean[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    boolean[] b = new boolean[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 9: {
                byte[] a = new byte[total];
                r.nextBytes(a);
                return op("byte[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    byte[] b = new byte[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 10: {
                char[] a = new char[total];
                for (int i = 0; i < total; i++) {
                    a[i] = (char) r.nextInt();
                }
                return op("char[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    char[] b = new char[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 11: {
                short[] a = new short[total];
                for (int i = 0; i < total; i++) {
                    a[i] = (short) r.nextInt();
                }
                return op("short[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    short[] b = new short[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 12: {
                int[] a = r.ints(total).toArray();
                return op("int[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    int[] b = new int[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 13: {
                long[] a = r.longs(total).toArray();
                return op("long[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    long[] b = new long[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 14: {
                float[] a = new float[total];
                for (int i = 0; i < total; i++) {
                    a[i] = r.nextFloat() * r.nextInt();
                }
                return op("float[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    float[] b = new float[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            case 15: {
                double[] a = r.doubles(total).map(d -> d * r.nextLong()).toArray();
                return op("double[" + offset + "+" + length + "]", out -> out.writeArray(a, offset, length), in -> {
                    double[] b = new double[total];
                    in.readArray(b, offset, length);
                    assertEquals(Arrays.copyOfRange(b, offset, offset + length),
                            Arrays.copyOfRange(a, offset, offset + length));
                });
            }
            default: {
                byte[] a = new byte[length];
                r.nextBytes(a);
                boolean direct = r.nextBoolean();
                return op("ByteBuffer " + length + (direct ? " direct" : " heap"), out -> {
                    ByteBuffer b = direct ? ByteBuffer.allocateDirect(length + 2) : ByteBuffer.allocate(length + 2);
                    b.position(1);
                    b.put(a);
                    b.flip().position(1);
                    out.writeByteBuffer(b);
                    assertEquals(b.remaining(), 0, "writeByteBuffer consumes the buffer");
                }, in -> {
                    ByteBuffer b = direct ? ByteBuffer.allocateDirect(length + 1) : ByteBuffer.allocate(length + 1);
                    b.position(1);
                    in.readByteBuffer(b);
                    assertEquals(b.position(), length + 1);
                    byte[] got = new byte[length];
                    b.position(1);
                    b.get(got);
                    assertEquals(got, a);
                });
            }
        }
    }

    interface Writer {
        void write(DataOutput out) throws IOException;
    }

    interface Reader {
        void read(DataInput in) throws IOException;
    }

    private static Op op(String description, Writer writer, Reader reader) {
        return new Op() {
            @Override
            public void write(DataOutput out) throws IOException {
                writer.write(out);
            }

            @Override
            public void readAndCheck(DataInput in) throws IOException {
                reader.read(in);
            }

            @Override
            public String toString() {
                return description;
            }
        };
    }
}
