package ibis.impl.mpi;

import ibis.io.config.InvalidPropertyException;
import ibis.ipl.impl.ImplSettings;

import java.io.IOException;
import java.util.Properties;

/** The settings of one transport instance, read once from its properties. */
final class MpiTransportSettings {

    /** The largest DATA message a sink sends; longer writes are split. A receiver refuses longer ones. */
    static final int MESSAGE_MAX = 256 * 1024;

    /** Bytes a sink may have sent that the receiving application has not read yet. */
    final int window;
    /** Milliseconds closing a sink waits for its last messages to be taken by the peer. */
    final long closeTimeoutMillis;

    MpiTransportSettings(Properties properties) throws IOException {
        try {
            this.window = MpiPropertyTable.WINDOW_PROPERTY.get(properties);
            this.closeTimeoutMillis = MpiPropertyTable.CLOSE_TIMEOUT_PROPERTY.get(properties);
        } catch (InvalidPropertyException e) {
            throw ImplSettings.configurationError(e);
        }
    }
}
