package ibis.ipl.tck;

import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;
import ibis.testsupport.Waits;

import java.io.IOException;

/** One-line message helpers. */
final class Msg {

    private Msg() {
    }

    /** Sends a message holding one int. */
    static void sendInt(SendPort sp, int value) throws IOException {
        WriteMessage w = sp.newMessage();
        w.writeInt(value);
        w.finish();
    }

    /** Receives a message holding one int (waiting at most {@link Waits#EVENTUALLY_MILLIS}). */
    static int receiveInt(ReceivePort rp) throws IOException {
        ReadMessage r = rp.receive(Waits.EVENTUALLY_MILLIS);
        int v = r.readInt();
        r.finish();
        return v;
    }
}
