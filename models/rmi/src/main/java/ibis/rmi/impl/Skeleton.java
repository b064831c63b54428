package ibis.rmi.impl;

import ibis.ipl.ReadMessage;

/**
 * Base class of the generated skeletons: {@link #dispatch} reads the parameters of the numbered
 * method from the request, calls {@link ServerCall#invoking()}, calls the method on the target
 * with a direct {@code invokeinterface}, and writes the result through the {@link ServerCall}.
 */
public abstract class Skeleton {

    /** For the generated subclasses. */
    protected Skeleton() {
    }

    /**
     * Serves one call.
     *
     * @param target the remote object
     * @param methodNumber the method number from the request
     * @param in the request, positioned at the first parameter
     * @param call the call, for the reply
     * @throws Throwable whatever reading, the method or writing the reply threw; the
     *         {@link ServerCall}'s state tells which
     */
    public abstract void dispatch(Object target, int methodNumber, ReadMessage in, ServerCall call) throws Throwable;

    /**
     * Reads and drops the parameters of a request that will not be served (for an unexported
     * object), so that the object stream stays in step with the caller's.
     *
     * @param methodNumber the method number from the request
     * @param in the request, positioned at the first parameter
     * @throws Throwable when reading fails or the method number is unknown
     */
    public abstract void skip(int methodNumber, ReadMessage in) throws Throwable;
}
