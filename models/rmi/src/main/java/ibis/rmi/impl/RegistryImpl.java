package ibis.rmi.impl;

import ibis.rmi.registry.Registry;

import java.io.NotSerializableException;
import java.io.Serializable;
import java.rmi.AlreadyBoundException;
import java.rmi.MarshalException;
import java.rmi.NotBoundException;
import java.rmi.Remote;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bindings of one registry, served as a remote object by the member that won the
 * registry's election. An exported object is bound as its stub (a remote bind sends the stub
 * anyway), so that a lookup in the serving JVM, too, gives a stub whose calls copy their
 * parameters and results, as {@code java.rmi}'s registry does.
 */
public final class RegistryImpl implements Registry {

    private final Map<String, Remote> bindings = new TreeMap<>();

    @Override
    public synchronized Remote lookup(String name) throws NotBoundException {
        Remote r = bindings.get(checkName(name));
        if (r == null) {
            throw new NotBoundException(name);
        }
        return r;
    }

    @Override
    public synchronized void bind(String name, Remote obj) throws AlreadyBoundException, MarshalException {
        checkName(name);
        if (obj == null) {
            throw new NullPointerException("cannot bind null to " + name);
        }
        if (bindings.containsKey(name)) {
            throw new AlreadyBoundException(name);
        }
        bindings.put(name, bindable(name, obj));
    }

    @Override
    public synchronized void unbind(String name) throws NotBoundException {
        if (bindings.remove(checkName(name)) == null) {
            throw new NotBoundException(name);
        }
    }

    @Override
    public synchronized void rebind(String name, Remote obj) throws MarshalException {
        checkName(name);
        if (obj == null) {
            throw new NullPointerException("cannot bind null to " + name);
        }
        bindings.put(name, bindable(name, obj));
    }

    @Override
    public synchronized String[] list() {
        return bindings.keySet().toArray(new String[0]);
    }

    /**
     * What is bound for {@code obj}: its stub when it is exported, else the object itself, which a
     * lookup then sends by value; an object that is neither exported nor Serializable could never be
     * sent, so it is refused here, at the bind, as {@code java.rmi}'s registry refuses it (a remote
     * bind fails the same way when the argument is marshalled).
     */
    private static Remote bindable(String name, Remote obj) throws MarshalException {
        Object value = RmiRuntime.replaceExported(obj);
        if (!(value instanceof Serializable)) {
            throw new MarshalException("cannot bind " + name + ": " + obj.getClass().getName()
                    + " is neither exported (extend UnicastRemoteObject or call"
                    + " UnicastRemoteObject.exportObject first) nor Serializable",
                    new NotSerializableException(obj.getClass().getName()));
        }
        return (Remote) value;
    }

    private static String checkName(String name) {
        if (name == null) {
            throw new NullPointerException("registry name is null");
        }
        return name;
    }
}
