package ibis.benchmarks.rmi;

import java.rmi.Remote;
import java.rmi.RemoteException;

/**
 * The remote interface of the rmi suite's server, plain {@code java.rmi}: the JDK side calls it
 * as compiled, the Ibis side through the copy rewritten by {@code ibisc --java-rmi}. Object
 * parameters are declared {@code Object}, so every payload (null, arrays, small objects, trees)
 * travels through the same methods with the same marshalling ({@code writeObject}) on both sides.
 */
public interface BenchService extends Remote {

    /** Null RMI. */
    void ping() throws RemoteException;

    /** Null RMI with two ints. */
    void ping(int a, int b) throws RemoteException;

    /** Null RMI with two ints and two floats. */
    void ping(int a, int b, float c, float d) throws RemoteException;

    /** Sends a value, returns nothing; the server keeps it as the last value received. */
    void ping(Object value) throws RemoteException;

    /** Sends a value and gets it back (a copy made by the server's unmarshalling). */
    Object echo(Object value) throws RemoteException;

    /** The server calls {@link Callback#pong} of the registered callback with the value, then returns. */
    void pingpong(Object value) throws RemoteException;

    /** Registers the callback of {@link #pingpong}. */
    void setCallback(Callback callback) throws RemoteException;

    /** Throughput: sends a value; the server keeps it as the last value received. */
    void send(Object value) throws RemoteException;

    /**
     * The checksum ({@link PayloadSpec#checksum}) of the last value received by
     * {@code ping(Object)} or {@code send}.
     */
    long lastChecksum() throws RemoteException;

    /** How many {@code ping}, {@code echo}, {@code pingpong} and {@code send} calls the server has served. */
    long calls() throws RemoteException;

    /** Returns when {@code parties} callers are inside (one barrier at a time; reusable). */
    void barrier(int parties) throws RemoteException;
}
