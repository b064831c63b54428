package ibis.ipl;

import java.io.PrintStream;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;

/**
 * A minimal {@link Ibis} returned by the fake starters of the factory tests: it only records how
 * it was started. Everything that would communicate throws {@link UnsupportedOperationException}.
 */
public final class FakeIbis implements Ibis {

    private final String starterNickName;
    private final Properties properties;
    private final IbisCapabilities capabilities;
    private final String subImplementation;
    private final byte[] tag;

    public FakeIbis(String starterNickName, Properties properties, IbisCapabilities capabilities,
            String subImplementation, byte[] tag) {
        this.starterNickName = starterNickName;
        this.properties = properties;
        this.capabilities = capabilities;
        this.subImplementation = subImplementation;
        this.tag = tag;
    }

    /** The nickname of the starter that created this instance. */
    public String starterNickName() {
        return starterNickName;
    }

    /** The sub-implementation the starter was given. */
    public String subImplementation() {
        return subImplementation;
    }

    /** The capabilities the starter was given. */
    public IbisCapabilities capabilities() {
        return capabilities;
    }

    /** The tag the starter was given. */
    public byte[] tag() {
        return tag;
    }

    @Override
    public Properties properties() {
        return properties;
    }

    @Override
    public String getVersion() {
        return starterNickName + " (fake)";
    }

    @Override
    public void end() {
    }

    @Override
    public Registry registry() {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public void poll() {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public IbisIdentifier identifier() {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public SendPort createSendPort(PortType portType) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public SendPort createSendPort(PortType portType, String sendPortName) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public SendPort createSendPort(PortType portType, String sendPortName, SendPortDisconnectUpcall upcall,
            Properties props) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName,
            ReceivePortConnectUpcall connectUpcall) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public ReceivePort createReceivePort(PortType portType, String receivePortName, MessageUpcall messageUpcall,
            ReceivePortConnectUpcall connectUpcall, Properties props) {
        throw new UnsupportedOperationException("fake Ibis");
    }

    @Override
    public Map<String, String> managementProperties() {
        return Collections.emptyMap();
    }

    @Override
    public void setManagementProperties(Map<String, String> props) throws NoSuchPropertyException {
        throw new NoSuchPropertyException("fake Ibis has no management properties");
    }

    @Override
    public String getManagementProperty(String key) throws NoSuchPropertyException {
        throw new NoSuchPropertyException("fake Ibis has no management properties");
    }

    @Override
    public void setManagementProperty(String key, String value) throws NoSuchPropertyException {
        throw new NoSuchPropertyException("fake Ibis has no management properties");
    }

    @Override
    public void printManagementProperties(PrintStream stream) {
    }
}
