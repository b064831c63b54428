package ibis.rmi.testing;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The remote interface the tests call: every parameter and result type, failures, callbacks. */
public interface Echo extends Remote {
    void ping() throws RemoteException;
    boolean echoBoolean(boolean v) throws RemoteException;
    byte echoByte(byte v) throws RemoteException;
    char echoChar(char v) throws RemoteException;
    short echoShort(short v) throws RemoteException;
    int echoInt(int v) throws RemoteException;
    long echoLong(long v) throws RemoteException;
    float echoFloat(float v) throws RemoteException;
    double echoDouble(double v) throws RemoteException;
    String echoString(String v) throws RemoteException;
    Object echoObject(Object v) throws RemoteException;
    int[] echoInts(int[] v) throws RemoteException;
    double[] echoDoubles(double[] v) throws RemoteException;
    Payload[] echoPayloads(Payload[] v) throws RemoteException;
    /** Overloads: both must reach their own implementation. */
    String over(int v) throws RemoteException;
    String over(long v) throws RemoteException;
    String over(Object v) throws RemoteException;
    double mix(boolean z, byte b, char c, short s, int i, long l, float f, double d, String str) throws RemoteException;
    /** True when both parameters are the same object at the server. */
    boolean same(Object a, Object b) throws RemoteException;
    /** Returns {a, b, a}: identity within the result. */
    Object[] triple(Object a, Object b) throws RemoteException;
    /** Changes the payload at the server and returns its new value (the caller's copy stays). */
    int mutate(Payload p) throws RemoteException;
    void fail(String message) throws RemoteException, TestFailure;
    int failRuntime(String message) throws RemoteException;
    void failError(String message) throws RemoteException;
    /** Calls back the given remote object. */
    int callBack(Callback cb, int x) throws RemoteException;
    /** A new remote object exported by the server. */
    Callback newCallback(int base) throws RemoteException;
    /** A new exported Echo, which {@link #retire()} can unexport. */
    Echo spawn() throws RemoteException;
    /** Unexports this object. */
    boolean retire() throws RemoteException;
    /** Deterministic work: a checkable function of the arguments. */
    long work(int client, long sequence, byte[] data) throws RemoteException;
    /** Announces itself on standard output and blocks until the JVM dies. */
    void block() throws RemoteException;
    /**
     * Waits until {@code parties} calls of it are running at the same time (true), or gives up
     * after 30 s (false): true only when the server runs calls concurrently.
     */
    boolean meet(int parties) throws RemoteException;
    /** Counts {@link EchoImpl#held} down, waits for {@link EchoImpl#release}, returns x. */
    int hold(int x) throws RemoteException;
    /** Makes the server JVM exit normally (System.exit, so Ibis ends and leaves the pool) after returning. */
    void exitJvm() throws RemoteException;
    /** The process id of the server. */
    long pid() throws RemoteException;
}
