package ibis.ipl.impl;

import ibis.io.config.InvalidPropertyException;
import ibis.io.config.Property;
import ibis.ipl.IbisConfigurationException;

import java.util.Properties;

/**
 * The settings of the shared implementation base for one Ibis instance, read once from its
 * properties when it is created ({@link ImplPropertyTable}) and not changed afterwards.
 *
 * @param connectTimeout milliseconds a connect call without time-out keeps trying (0: no limit)
 * @param handshakeTimeout milliseconds a connection handshake may take
 * @param handshakeMax most incoming handshakes in progress at once
 * @param receiveSpinMicros microseconds an explicit receive polls before it blocks
 * @param upcallHandOffMicros microseconds an upcall may run on after {@code finish()} before
 *        another thread takes over its connection
 * @param upcallSpinMicros microseconds an upcall reader polls for the next message before it blocks
 * @param idleCheckMillis milliseconds between checks of connections nobody reads (0: none)
 * @param receiveCloseTimeout milliseconds {@code ReceivePort.close()} waits for its senders
 * @param bufferSize bytes of each block buffer
 * @param firstBlockSize bytes of the first block of a message (at most {@code bufferSize})
 */
public record ImplSettings(long connectTimeout, long handshakeTimeout, int handshakeMax, long receiveSpinMicros,
        long upcallHandOffMicros, long upcallSpinMicros, long idleCheckMillis, long receiveCloseTimeout,
        int bufferSize, int firstBlockSize) {

    /**
     * Reads the settings: each property from {@code properties}, else the system properties, else
     * its default.
     *
     * @throws IbisConfigurationException when a value is not accepted (the message names the
     *         property, the value and what is accepted)
     */
    public static ImplSettings read(Properties properties) {
        try {
            int bufferSize = ImplPropertyTable.BUFFER_SIZE_PROPERTY.get(properties);
            return new ImplSettings(ImplPropertyTable.CONNECT_TIMEOUT_PROPERTY.get(properties),
                    Math.max(1, ImplPropertyTable.HANDSHAKE_TIMEOUT_PROPERTY.get(properties)),
                    (int) Math.max(1, ImplPropertyTable.HANDSHAKE_MAX_PROPERTY.get(properties)),
                    ImplPropertyTable.RECEIVE_SPIN_MICROS_PROPERTY.get(properties),
                    ImplPropertyTable.UPCALL_HANDOFF_MICROS_PROPERTY.get(properties),
                    ImplPropertyTable.UPCALL_SPIN_MICROS_PROPERTY.get(properties),
                    ImplPropertyTable.IDLE_CHECK_MILLIS_PROPERTY.get(properties),
                    ImplPropertyTable.RECEIVE_CLOSE_TIMEOUT_PROPERTY.get(properties), bufferSize,
                    Math.min(ImplPropertyTable.FIRST_BLOCK_SIZE_PROPERTY.get(properties), bufferSize));
        } catch (InvalidPropertyException e) {
            throw configurationError(e);
        }
    }

    /**
     * Reads one property for a module built on the IPL (registry, transports, models), with the
     * IPL's report of a bad value.
     *
     * @throws IbisConfigurationException when the value is not accepted
     */
    public static <T> T value(Property<T> property, Properties properties) {
        try {
            return property.get(properties);
        } catch (InvalidPropertyException e) {
            throw configurationError(e);
        }
    }

    /** The IPL's report of a bad property value: an {@link IbisConfigurationException} with the same message. */
    public static IbisConfigurationException configurationError(InvalidPropertyException e) {
        return new IbisConfigurationException(e.getMessage(), e);
    }
}
