package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface WriteMessage {
    int send() throws IOException;

    void sync(int ticket) throws IOException;

    void flush() throws IOException;

    void reset() throws IOException;

    long finish() throws IOException;

    void finish(IOException exception);

    long bytesWritten() throws IOException;

    int capacity() throws IOException;

    int remaining() throws IOException;

    SendPort localPort();

    void writeBoolean(boolean value) throws IOException;

    void writeByte(byte value) throws IOException;

    void writeChar(char value) throws IOException;

    void writeShort(short value) throws IOException;

    void writeInt(int value) throws IOException;

    void writeLong(long value) throws IOException;

    void writeFloat(float value) throws IOException;

    void writeDouble(double value) throws IOException;

    void writeString(String value) throws IOException;

    void writeObject(Object value) throws IOException;

    void writeArray(boolean[] value) throws IOException;

    void writeArray(byte[] value) throws IOException;

    void writeArray(char[] value) throws IOException;

    void writeArray(short[] value) throws IOException;

    void writeArray(int[] value) throws IOException;

    void writeArray(long[] value) throws IOException;

    void writeArray(float[] value) throws IOException;

    void writeArray(double[] value) throws IOException;

    void writeArray(Object[] value) throws IOException;

    void writeArray(boolean[] value, int offset, int length) throws IOException;

    void writeArray(byte[] value, int offset, int length) throws IOException;

    void writeArray(char[] value, int offset, int length) throws IOException;

    void writeArray(short[] value, int offset, int length) throws IOException;

    void writeArray(int[] value, int offset, int length) throws IOException;

    void writeArray(long[] value, int offset, int length) throws IOException;

    void writeArray(float[] value, int offset, int length) throws IOException;

    void writeArray(double[] value, int offset, int length) throws IOException;

    void writeArray(Object[] value, int offset, int length) throws IOException;

    void writeByteBuffer(ByteBuffer value) throws IOException;
}
