package ibis.impl.ucx.system;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.testng.annotations.Test;

/**
 * A pool across two "hosts": two network namespaces joined by a veth pair, the registry server and
 * member 1 in namespace A, member 2 in namespace B, each in a pid namespace of its own, UCX
 * restricted to its tcp transport over the namespace's veth device. Nothing in this JVM talks to
 * the namespaces' addresses: it starts the processes and reads what they print.
 */
public class NamespacePoolTest {

    private static final int MESSAGES = 1000;

    @Test(timeOut = 300_000)
    public void membersInTwoNamespacesExchangeChecksummedMessagesOverTcp() throws Exception {
        long seed = System.nanoTime();
        String pool = "ns-" + UUID.randomUUID();
        List<Child> children = new ArrayList<>();
        try (NamespacePair net = new NamespacePair()) {
            try {
                Child server = Child.start("registry server in " + net.a.namespace(), net.exec(net.a),
                        SystemSetup.namespaceEnvironment(net.a), SystemSetup.jvmOptions(), SystemPeer.class,
                        "registry", net.a.address());
                children.add(server);
                String address = server.await("SERVER", 60);
                assertTrue(address.startsWith(net.a.address() + ":"), address);

                Child replier = member(children, "member 2 (replier) in " + net.b.namespace(), net, net.b, "replier",
                        address, pool);
                Child requester = member(children, "member 1 (requester) in " + net.a.namespace(), net, net.a,
                        "requester", address, pool, Integer.toString(MESSAGES), Long.toString(seed));
                SystemSetup.assertImplementation(replier);
                SystemSetup.assertImplementation(requester);

                String expected = SystemPeer.expectedExchange(MESSAGES, seed);
                assertEquals(requester.awaitLine("RESULT", 180), expected, requester.output());
                assertEquals(replier.awaitLine("RESULT", 60), expected, replier.output());
                assertEquals(requester.awaitExit(60), 0, requester.output());
                assertEquals(replier.awaitExit(60), 0, replier.output());
            } finally {
                SystemSetup.closeAll(children);
            }
        }
    }

    private static Child member(List<Child> children, String name, NamespacePair net, NamespacePair.Side side,
            String role, String server, String pool, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(role, server, pool, SystemSetup.implementation()));
        all.addAll(List.of(args));
        Child child = Child.start(name, net.exec(side), SystemSetup.namespaceEnvironment(side),
                SystemSetup.jvmOptions(), SystemPeer.class, all.toArray(new String[0]));
        children.add(child);
        return child;
    }
}
