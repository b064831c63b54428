package ibis.benchmarks.ipl;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.IOException;
import java.util.Locale;

/**
 * An ordinary IPL program, as a user writes it: a pool of two members started by
 * {@code bin/ibis-run --np 2} with default settings, a one-to-one port with explicit receive, the
 * sender looping {@code newMessage(); writeArray(byte[102400]); finish()} and the receiver
 * {@code receive(); readArray(buf); finish()}, then a one-byte acknowledgement. Nothing is warmed
 * up or tuned: the first run of a pool is what a program that sends that many messages gets.
 *
 * <p>Arguments: {@code SERIALIZATION [MESSAGES [RUNS]]} (serialization {@code byte}, {@code data},
 * {@code object.ibis} ...; 10,000 messages; 1 run). The sender prints one line per run:
 * {@code plain-stream <serialization> run <i> <messages> messages <nanoseconds> ns <MB/s> MB/s},
 * timed from before the first {@code newMessage()} to the acknowledgement. {@link IplSuite} starts
 * it and reads those lines.
 */
public final class PlainStream {

    /** Bytes per message. */
    public static final int MESSAGE_BYTES = 102_400;

    private PlainStream() {
    }

    /** Runs one member of the pool. */
    public static void main(String[] args) throws Exception {
        String serialization = "serialization." + (args.length > 0 ? args[0] : "data");
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        PortType type = new PortType(PortType.COMMUNICATION_RELIABLE, serialization, PortType.RECEIVE_EXPLICIT,
                PortType.CONNECTION_ONE_TO_ONE);
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), null, type);
        IbisIdentifier receiver = ibis.registry().elect("receiver");
        byte[] buf = new byte[MESSAGE_BYTES];
        if (receiver.equals(ibis.identifier())) {
            ReceivePort data = ibis.createReceivePort(type, "data");
            data.enableConnections();
            SendPort ack = ibis.createSendPort(type);
            ack.connect(ibis.registry().getElectionResult("sender"), "ack");
            for (int run = 0; run < runs; run++) {
                for (int i = 0; i < messages; i++) {
                    ReadMessage r = data.receive();
                    r.readArray(buf);
                    r.finish();
                }
                WriteMessage w = ack.newMessage();
                w.writeByte((byte) run);
                w.finish();
            }
            ack.close();
            data.close();
        } else {
            ReceivePort ack = ibis.createReceivePort(type, "ack");
            ack.enableConnections();
            ibis.registry().elect("sender");
            SendPort data = ibis.createSendPort(type);
            data.connect(receiver, "data");
            for (int run = 0; run < runs; run++) {
                long start = System.nanoTime();
                for (int i = 0; i < messages; i++) {
                    WriteMessage w = data.newMessage();
                    w.writeArray(buf);
                    w.finish();
                }
                ReadMessage r = ack.receive();
                byte echoed = r.readByte();
                r.finish();
                long nanos = System.nanoTime() - start;
                if (echoed != (byte) run) {
                    throw new IOException("acknowledgement " + echoed + " for run " + run);
                }
                System.out.println(String.format(Locale.ROOT, "plain-stream %s run %d %d messages %d ns %.1f MB/s",
                        args.length > 0 ? args[0] : "data", run, messages, nanos,
                        (double) messages * MESSAGE_BYTES / (nanos / 1e9) / 1e6));
            }
            data.close();
            ack.close();
        }
        ibis.end();
    }
}
