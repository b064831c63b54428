package org.example.consumer;

import ibis.ipl.Ibis;
import ibis.ipl.IbisCapabilities;
import ibis.ipl.IbisFactory;
import ibis.ipl.IbisIdentifier;
import ibis.ipl.PortType;
import ibis.ipl.ReadMessage;
import ibis.ipl.ReceivePort;
import ibis.ipl.SendPort;
import ibis.ipl.WriteMessage;

import java.io.File;
import java.util.ArrayList;
import java.util.List;

/**
 * Two members: they elect a receiver, the other sends it a {@link Measurement}, and the receiver
 * prints what arrived. Each prints its class path's first entry and the benchmark-only jars on it.
 */
public final class PingPong {

    private PingPong() {
    }

    public static void main(String[] args) throws Exception {
        String[] classPath = System.getProperty("java.class.path").split(File.pathSeparator);
        List<String> benchmarkJars = new ArrayList<>();
        for (String entry : classPath) {
            String name = new File(entry).getName();
            if (name.matches("(kryo|fory|jmh|ibis-benchmarks).*")) {
                benchmarkJars.add(name);
            }
        }
        System.out.println("first class path entry: " + new File(classPath[0]).getName());
        System.out.println("benchmark jars: " + (benchmarkJars.isEmpty() ? "none" : benchmarkJars));
        System.out.println("rewritten: " + ibis.io.Serializable.class.isAssignableFrom(Measurement.class));

        PortType portType = new PortType(PortType.COMMUNICATION_RELIABLE, PortType.SERIALIZATION_OBJECT,
                PortType.RECEIVE_EXPLICIT, PortType.CONNECTION_ONE_TO_ONE);
        Ibis ibis = IbisFactory.createIbis(new IbisCapabilities(IbisCapabilities.ELECTIONS_STRICT), null, portType);
        try {
            IbisIdentifier receiver = ibis.registry().elect("receiver");
            if (receiver.equals(ibis.identifier())) {
                ReceivePort port = ibis.createReceivePort(portType, "measurements");
                port.enableConnections();
                ReadMessage message = port.receive();
                Measurement m = (Measurement) message.readObject();
                message.finish();
                port.close();
                System.out.println("received " + m.label + " with sum " + m.sum());
            } else {
                SendPort port = ibis.createSendPort(portType);
                port.connect(receiver, "measurements");
                WriteMessage message = port.newMessage();
                message.writeObject(new Measurement("temperatures", new double[] {1.5, 2.5, 3.0}));
                message.finish();
                port.close();
                System.out.println("sent temperatures");
            }
        } finally {
            ibis.end();
        }
    }
}
