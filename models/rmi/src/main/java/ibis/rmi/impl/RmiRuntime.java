package ibis.rmi.impl;

import ibis.io.IbisSerializationOutput;
import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisConfigurationException;
import ibis.ipl.IbisCreationFailedException;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.impl.ImplSettings;
import ibis.rmi.server.RemoteStub;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.UnmarshalException;
import java.rmi.server.ExportException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Ibis RMI runtime of this JVM: one Ibis instance, created on first use from the
 * {@code ibis.*} properties (as set by {@code ibis-run}), with one port type for
 * requests (many-to-one, automatic upcalls, Ibis object serialization, connection upcalls) and one
 * for replies (one-to-one, explicit receipt). It keeps the exported objects (one receive port
 * each), the client references (one send port per remote object), one {@link ReplyChannel} per
 * server member (the reply receive port for that server and the calls waiting on it) and the
 * reply send ports to the callers of this JVM's objects.
 */
public final class RmiRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(RmiRuntime.class);

    /** Property: milliseconds a stub waits for its connection to a remote object. */
    public static final String CONNECT_TIMEOUT = "ibis.rmi.connect.timeout";

    /** Property: milliseconds a registry lookup waits for the registry member to be known. */
    public static final String REGISTRY_TIMEOUT = "ibis.rmi.registry.timeout";


    /** The port type of requests (many callers to one exported object, served by upcalls). */
    public static final PortType PORT_TYPE = new PortType(PortType.CONNECTION_MANY_TO_ONE,
            PortType.SERIALIZATION_OBJECT_IBIS, PortType.RECEIVE_AUTO_UPCALLS, PortType.COMMUNICATION_RELIABLE,
            PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS, PortType.CONNECTION_TIMEOUT);

    /**
     * The port type of replies: one server to one caller JVM, explicit receipt, so that a waiting
     * caller reads the connection in its own thread ({@link ReplyChannel}).
     */
    public static final PortType REPLY_TYPE = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_OBJECT_IBIS, PortType.RECEIVE_EXPLICIT, PortType.RECEIVE_TIMEOUT,
            PortType.COMMUNICATION_RELIABLE, PortType.COMMUNICATION_FIFO, PortType.CONNECTION_UPCALLS,
            PortType.CONNECTION_TIMEOUT);

    /**
     * The Ibis capabilities RMI asks for: strict elections for the registry, membership for failures,
     * and a malleable pool (processes come and go, as with {@code java.rmi}).
     */
    public static final IbisCapabilities CAPABILITIES = new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT,
            IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED, IbisCapabilities.MALLEABLE);

    /**
     * The capabilities RMI runs with where the pool's registry offers only a fixed pool (the registry
     * over MPI: the ranks of the job): the same without {@code malleable}.
     */
    public static final IbisCapabilities FIXED_POOL_CAPABILITIES = new IbisCapabilities(
            IbisCapabilities.ELECTIONS_STRICT, IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED);

    private static volatile RmiRuntime instance;

    /** Where incoming calls are logged ({@code setLog}), or null. */
    private static volatile PrintStream callLog;

    /**
     * Logs every incoming remote call of this JVM to {@code out} from now on, one line per call
     * (time, caller, object class, method); null turns the log off. As
     * {@code java.rmi.server.RemoteServer.setLog}: the application asked for these lines, on its
     * own stream.
     *
     * @param out the stream, or null
     */
    public static void setCallLog(OutputStream out) {
        callLog = out == null ? null
                : out instanceof PrintStream ps ? ps : new PrintStream(out, true);
    }

    /** @return the stream calls are logged to, or null when they are not logged */
    public static PrintStream callLog() {
        return callLog;
    }

    /** {@link GeneratedCode#WARN_PROPERTY} as this runtime's Ibis properties (or system properties) set it. */
    static volatile boolean warnGenerated;

    private final Ibis ibis;
    private final long connectTimeout;
    private final long registryTimeout;
    private final AtomicLong nextObject = new AtomicLong();
    private final Map<IbisIdentifier, ReplyChannel> channels = new ConcurrentHashMap<>();
    private final Map<IbisIdentifier, ReplySender> replySenders = new ConcurrentHashMap<>();
    private final Map<String, RemoteReference> references = new ConcurrentHashMap<>();
    private final Map<SendPort, RemoteReference> portOwners = new ConcurrentHashMap<>();
    private final Map<List<String>, RemoteInterfaces> interfaceTables = new ConcurrentHashMap<>();
    private final Set<IbisIdentifier> gone = ConcurrentHashMap.newKeySet();
    private final Map<Object, ExportedObject> exports = Collections.synchronizedMap(new IdentityHashMap<>());

    private RmiRuntime() throws IOException, IbisCreationFailedException {
        // Exported objects travel as stubs wherever they sit in a parameter or result.
        IbisSerializationOutput.replaceRemoteObjects(RmiRuntime::replaceExported);
        RmiEventHandler events = new RmiEventHandler(this);
        ibis = createIbis(events);
        Properties properties = ibis.properties();
        connectTimeout = ImplSettings.value(RmiPropertyTable.CONNECT_TIMEOUT_PROPERTY, properties);
        registryTimeout = ImplSettings.value(RmiPropertyTable.REGISTRY_TIMEOUT_PROPERTY, properties);
        warnGenerated = ImplSettings.value(RmiPropertyTable.WARN_GENERATED_PROPERTY, properties);
        ibis.registry().enableEvents();
        LOG.debug("Ibis RMI started as {}", ibis.identifier());
    }

    /**
     * Joins the pool with {@link #CAPABILITIES}, or with {@link #FIXED_POOL_CAPABILITIES} when the
     * registry refused a malleable pool (its refusal names the capability).
     */
    private static Ibis createIbis(RmiEventHandler events) throws IbisCreationFailedException {
        try {
            return IbisFactory.createIbis(CAPABILITIES, null, true, events, PORT_TYPE, REPLY_TYPE);
        } catch (IbisCreationFailedException e) {
            if (!refusesMalleable(e)) {
                throw e;
            }
            LOG.info("the pool's registry offers no malleable pool ({}): Ibis RMI runs in its fixed pool",
                    e.getMessage());
            return IbisFactory.createIbis(FIXED_POOL_CAPABILITIES, null, true, events, PORT_TYPE, REPLY_TYPE);
        }
    }

    private static boolean refusesMalleable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IbisConfigurationException && String.valueOf(t.getMessage()).contains(
                    IbisCapabilities.MALLEABLE)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Returns the runtime of this JVM, starting it (joining the pool given by the {@code ibis.*}
     * properties) on first use.
     *
     * @return the runtime
     * @throws RemoteException when Ibis cannot be started
     */
    public static synchronized RmiRuntime get() throws RemoteException {
        if (instance == null) {
            try {
                instance = new RmiRuntime();
            } catch (IbisCreationFailedException e) {
                throw new ExportException("cannot start Ibis RMI (check ibis.server.address and ibis.pool.name): "
                        + e.getMessage(), e);
            } catch (IOException | RuntimeException e) {
                throw new ExportException("cannot start Ibis RMI: " + e, e instanceof Exception ? e : null);
            }
            RmiRuntime started = instance;
            Runtime.getRuntime().addShutdownHook(new Thread(started::end, "ibis-rmi-shutdown"));
        }
        return instance;
    }

    /** @return the Ibis instance of RMI */
    public Ibis ibis() {
        return ibis;
    }

    long connectTimeout() {
        return connectTimeout;
    }

    /** @return ms to wait for the registry member */
    public long registryTimeout() {
        return registryTimeout;
    }

    /** Ends the Ibis instance (at JVM exit). */
    private void end() {
        try {
            ibis.end();
        } catch (IOException | RuntimeException e) {
            LOG.debug("ending Ibis RMI: {}", e.toString());
        }
    }

    // ------------------------------------------------------------------ exports

    /**
     * Exports an object under a generated port name.
     *
     * @param target the remote object
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public RemoteStub export(Remote target) throws RemoteException {
        return export(target, RmiProtocol.OBJECT_PORT_PREFIX + nextObject.incrementAndGet()).stub;
    }

    /**
     * Exports an object under a given receive port name (the registry's well-known name).
     *
     * @param target the remote object
     * @param portName the receive port name
     * @return the stub of the object
     * @throws RemoteException when it cannot be exported
     */
    public RemoteStub exportNamed(Remote target, String portName) throws RemoteException {
        return export(target, portName).stub;
    }

    private ExportedObject export(Remote target, String portName) throws RemoteException {
        if (target == null) {
            throw new NullPointerException("cannot export null");
        }
        if (target instanceof RemoteStub) {
            throw new ExportException("cannot export a stub: " + target);
        }
        synchronized (exports) {
            if (exports.containsKey(target)) {
                throw new ExportException("object already exported: " + target.getClass().getName());
            }
            RemoteInterfaces remote;
            Skeleton skeleton;
            try {
                remote = RemoteInterfaces.of(target.getClass());
                skeleton = GeneratedCode.skeleton(remote, target.getClass());
            } catch (IllegalArgumentException | ReflectiveOperationException | LinkageError e) {
                throw new ExportException("cannot export " + target.getClass().getName() + ": " + e.getMessage(),
                        e instanceof Exception ? (Exception) e : null);
            }
            ExportedObject export = new ExportedObject(this, target, skeleton, remote);
            try {
                export.port = ibis.createReceivePort(PORT_TYPE, portName, export, new AcceptAllCallers(), null);
            } catch (IOException e) {
                throw new ExportException("cannot create the receive port " + portName + ": " + e.getMessage(), e);
            }
            RemoteReference ref = reference(ibis.identifier(), portName, remote.interfaceNames(),
                    target.getClass().getName());
            try {
                export.stub = GeneratedCode.newStub(remote, target.getClass().getName(),
                        target.getClass().getClassLoader(), ref);
            } catch (ReflectiveOperationException | LinkageError e) {
                closeQuietly(export.port);
                throw new ExportException("cannot create the stub of " + target.getClass().getName() + ": " + e, null);
            }
            exports.put(target, export);
            export.port.enableConnections();
            export.port.enableMessageUpcalls();
            LOG.debug("exported {} as {}", target.getClass().getName(), portName);
            return export;
        }
    }

    /**
     * Takes back an export nobody was meant to call (the registry of a member that lost the
     * registry's election): unexports it and closes its receive port, so that the name is free
     * again.
     *
     * @param target the object (nothing happens when it is not exported)
     */
    public void withdraw(Remote target) {
        ExportedObject export;
        synchronized (exports) {
            export = exports.remove(target);
        }
        if (export != null) {
            export.unexported = true;
            closeQuietly(export.port);
        }
    }

    /**
     * Unexports an object: later calls fail with {@link NoSuchObjectException}. The receive port
     * stays open so that such calls get that answer instead of a connection failure.
     *
     * @param target the object
     * @param force when false and calls are running, nothing happens
     * @return true when the object is no longer exported
     * @throws NoSuchObjectException when the object is not exported
     */
    public boolean unexport(Remote target, boolean force) throws NoSuchObjectException {
        synchronized (exports) {
            ExportedObject export = exports.get(target);
            if (export == null) {
                throw new NoSuchObjectException("object not exported: " + target.getClass().getName());
            }
            if (!force && export.active.get() > 0) {
                return false;
            }
            export.unexported = true;
            exports.remove(target);
            return true;
        }
    }

    /**
     * The stub of an exported object.
     *
     * @param target the object
     * @return its stub
     * @throws NoSuchObjectException when the object is not exported
     */
    public RemoteStub stubOf(Remote target) throws NoSuchObjectException {
        ExportedObject export = exports.get(target);
        if (export == null) {
            throw new NoSuchObjectException("object not exported: " + target.getClass().getName());
        }
        return export.stub;
    }

    /**
     * Replaces an exported remote object by its stub; any other value is returned unchanged.
     * Does not start the runtime.
     *
     * @param value a parameter or result
     * @return the value or the stub
     */
    public static Object replaceExported(Object value) {
        if (value instanceof Remote && !(value instanceof RemoteStub)) {
            RmiRuntime r = instance;
            if (r != null) {
                ExportedObject export = r.exports.get(value);
                if (export != null) {
                    return export.stub;
                }
            }
        }
        return value;
    }

    // ------------------------------------------------------------------ stubs

    /**
     * A stub for a serialized stub handle.
     *
     * @param handle the handle
     * @return the stub
     * @throws RemoteException when the interfaces cannot be loaded or the stub generated
     */
    public RemoteStub stubFor(StubHandle handle) throws RemoteException {
        String[] names = handle.interfaceNames();
        RemoteInterfaces remote = interfaces(names);
        try {
            return GeneratedCode.newStub(remote, handle.remoteClass(), null,
                    reference(handle.member(), handle.portName(), names, handle.remoteClass()));
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new UnmarshalException("cannot create a stub for " + Arrays.toString(names) + ": " + e);
        }
    }

    /**
     * A stub for a remote object at a known member and receive port name.
     *
     * @param member the member
     * @param portName the receive port of the object
     * @param interfaces the remote interfaces
     * @return the stub
     * @throws RemoteException when the stub cannot be created
     */
    public RemoteStub stubFor(IbisIdentifier member, String portName, Class<?>... interfaces) throws RemoteException {
        String[] names = new String[interfaces.length];
        for (int i = 0; i < names.length; i++) {
            names[i] = interfaces[i].getName();
        }
        return stubFor(new StubHandle(member, portName, names, null));
    }

    private RemoteInterfaces interfaces(String[] names) throws RemoteException {
        List<String> key = List.of(names);
        RemoteInterfaces remote = interfaceTables.get(key);
        if (remote == null) {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader == null) {
                loader = RmiRuntime.class.getClassLoader();
            }
            List<Class<?>> classes = new ArrayList<>();
            try {
                for (String n : names) {
                    classes.add(Class.forName(n, false, loader));
                }
                remote = RemoteInterfaces.ofInterfaces(classes);
            } catch (ClassNotFoundException | IllegalArgumentException | LinkageError e) {
                throw new UnmarshalException("cannot load the remote interfaces " + key + " of a stub: " + e);
            }
            interfaceTables.put(key, remote);
        }
        return remote;
    }

    private RemoteReference reference(IbisIdentifier member, String portName, String[] names, String remoteClass) {
        return references.computeIfAbsent(portName + "@" + member.name(),
                k -> new RemoteReference(this, member, portName, names, remoteClass));
    }

    SendPort createSendPort(RemoteReference ref) throws IOException {
        SendPort port = ibis.createSendPort(PORT_TYPE, null, new StubConnectionLost(this), null);
        portOwners.put(port, ref);
        return port;
    }

    /** @return the reference whose send port {@code port} was, or null when forgotten already */
    RemoteReference forgetPort(SendPort port) {
        return portOwners.remove(port);
    }

    // ------------------------------------------------------------------ calls

    /** @return the reply channel of a server member (created on first use; its port opens with the first call) */
    ReplyChannel channel(IbisIdentifier member) {
        ReplyChannel c = channels.get(member);
        return c != null ? c : channels.computeIfAbsent(member, m -> new ReplyChannel(this, m));
    }

    boolean isGone(IbisIdentifier member) {
        return gone.contains(member);
    }

    // ------------------------------------------------------------------ replies (server side)

    /** @return the reply sender to a caller member (created on first use, connected on its first reply) */
    ReplySender replySender(IbisIdentifier caller) {
        ReplySender s = replySenders.get(caller);
        return s != null ? s : replySenders.computeIfAbsent(caller, c -> new ReplySender(this, c));
    }

    void replyFailed(ReplySender sender, SendPort failed, Throwable cause) {
        LOG.debug("cannot reply to {}: {}", sender.caller, cause.toString());
        if (failed != null) {
            sender.closeFailed(failed);
        }
    }

    /** A member left or died: the calls waiting for it fail, and its reply sender closes. */
    void memberGone(IbisIdentifier member, String what) {
        gone.add(member);
        ReplyChannel channel = channels.get(member);
        if (channel != null) {
            channel.serverGone(new IOException("member " + member + " " + what));
        }
        ReplySender sender = replySenders.remove(member);
        if (sender != null) {
            // Not in the registry's event thread: closing may wait for a reply being written.
            CompletableFuture.runAsync(sender::close);
        }
    }

    static void closeQuietly(ReceivePort port) {
        try {
            port.close(-1);
        } catch (IOException | RuntimeException e) {
            // Nothing more to release.
        }
    }

    static void closeQuietly(SendPort port) {
        try {
            port.close();
        } catch (IOException | RuntimeException e) {
            // Nothing more to release.
        }
    }
}
