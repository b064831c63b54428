package ibis.ipl;

import java.io.*;
import java.nio.*;
import java.util.*;

/** TODO javadoc. */
public interface ReadMessage {
    public static final long INITIAL_SEQNO = 1;

    long finish() throws IOException;

    void finish(IOException exception);

    long bytesRead() throws IOException;

    int size() throws IOException;

    int remaining() throws IOException;

    ReceivePort localPort();

    long sequenceNumber();

    SendPortIdentifier origin();

    boolean readBoolean() throws IOException;

    byte readByte() throws IOException;

    char readChar() throws IOException;

    short readShort() throws IOException;

    int readInt() throws IOException;

    long readLong() throws IOException;

    float readFloat() throws IOException;

    double readDouble() throws IOException;

    String readString() throws IOException;

    Object readObject() throws IOException, ClassNotFoundException;

    void readArray(boolean[] destination) throws IOException;

    void readArray(byte[] destination) throws IOException;

    void readArray(char[] destination) throws IOException;

    void readArray(short[] destination) throws IOException;

    void readArray(int[] destination) throws IOException;

    void readArray(long[] destination) throws IOException;

    void readArray(float[] destination) throws IOException;

    void readArray(double[] destination) throws IOException;

    void readArray(Object[] destination) throws IOException, ClassNotFoundException;

    void readArray(boolean[] destination, int offset, int size) throws IOException;

    void readArray(byte[] destination, int offset, int size) throws IOException;

    void readArray(char[] destination, int offset, int size) throws IOException;

    void readArray(short[] destination, int offset, int size) throws IOException;

    void readArray(int[] destination, int offset, int size) throws IOException;

    void readArray(long[] destination, int offset, int size) throws IOException;

    void readArray(float[] destination, int offset, int size) throws IOException;

    void readArray(double[] destination, int offset, int size) throws IOException;

    void readArray(Object[] destination, int offset, int size) throws IOException, ClassNotFoundException;

    void readByteBuffer(ByteBuffer value) throws IOException, ReadOnlyBufferException;
}
