package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.io.IOException;

import org.testng.annotations.Test;

public class ExceptionsTest {

    /** A receive port identifier for the tests. */
    private static final class TestPortId implements ReceivePortIdentifier {
        private static final long serialVersionUID = 1L;
        private final IbisIdentifier ibis;
        private final String name;

        TestPortId(IbisIdentifier ibis, String name) {
            this.ibis = ibis;
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public IbisIdentifier ibisIdentifier() {
            return ibis;
        }
    }

    @Test
    public void connectionFailedFromReceivePortIdentifierDerivesIbisAndName() {
        ReceivePortIdentifier id = new TestPortId(null, "inbox");
        IOException cause = new IOException("boom");
        ConnectionFailedException e = new ConnectionRefusedException("refused", id, cause);
        assertEquals(e.getMessage(), "refused");
        assertSame(e.getCause(), cause);
        assertSame(e.receivePortIdentifier(), id);
        assertEquals(e.receivePortName(), "inbox");
        assertNull(e.ibisIdentifier());
    }

    @Test
    public void connectionFailedFromIbisAndNameHasNoReceivePortIdentifier() {
        ConnectionFailedException e = new PortMismatchException("mismatch", null, "outbox");
        assertEquals(e.getMessage(), "mismatch");
        assertNull(e.getCause());
        assertNull(e.receivePortIdentifier());
        assertEquals(e.receivePortName(), "outbox");
        assertTrue(e instanceof IOException);
    }

    @Test
    public void connectionsFailedCollectsFailuresAndObtainedConnections() {
        ConnectionsFailedException e = new ConnectionsFailedException("some failed");
        assertEquals(e.getFailures().length, 0);
        assertEquals(e.getObtainedConnections().length, 0);
        ConnectionFailedException first = new ConnectionTimedOutException("too slow", null, "a");
        ConnectionFailedException second = new AlreadyConnectedException("twice", new TestPortId(null, "b"));
        e.add(first);
        e.add(second);
        ReceivePortIdentifier ok = new TestPortId(null, "c");
        ReceivePortIdentifier[] obtained = { ok };
        e.setObtainedConnections(obtained);
        obtained[0] = null;
        assertEquals(e.getFailures(), new ConnectionFailedException[] { first, second });
        assertEquals(e.getObtainedConnections(), new ReceivePortIdentifier[] { ok });
        assertTrue(e.getMessage().startsWith("some failed"), e.getMessage());
        assertTrue(e.getMessage().contains("too slow") && e.getMessage().contains("'b'"), e.getMessage());
    }

    @Test
    public void simpleExceptionsKeepMessageAndCause() {
        Throwable cause = new IllegalStateException("x");
        assertSame(new ConnectionClosedException("m", cause).getCause(), cause);
        assertEquals(new ReceiveTimedOutException("late").getMessage(), "late");
        assertSame(new IbisCreationFailedException(cause).getCause(), cause);
        assertEquals(new IbisConfigurationException("bad", cause).getMessage(), "bad");
        assertSame(new NoSuchPropertyException("p", cause).getCause(), cause);
        assertNull(new IbisIOException().getMessage());
        assertTrue(new IbisConfigurationException() instanceof RuntimeException);
    }
}
