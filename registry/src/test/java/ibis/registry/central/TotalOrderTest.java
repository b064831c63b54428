package ibis.registry.central;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import ibis.ipl.IbisCapabilities;
import ibis.ipl.impl.RegistryClient;
import ibis.registry.RecordingHandler;
import ibis.testsupport.PoolFixture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.testng.annotations.Test;

/** Every member sees the same events in the same order, while members join and leave concurrently. */
public class TotalOrderTest {

    private static final IbisCapabilities CAPS = new IbisCapabilities(IbisCapabilities.MEMBERSHIP_TOTALLY_ORDERED,
            IbisCapabilities.ELECTIONS_STRICT);

    @Test(timeOut = 120_000)
    public void allObserversSeeTheSameEventSequence() throws Exception {
        try (PoolFixture f = new PoolFixture()) {
            List<RegistryClient> observers = new ArrayList<>();
            List<RecordingHandler> handlers = new ArrayList<>();
            RecordingHandler h0 = new RecordingHandler();
            RegistryClient first = f.join("order", CAPS, h0);
            first.enableEvents();
            observers.add(first);
            handlers.add(h0);

            ExecutorService pool = Executors.newFixedThreadPool(7);
            try {
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    work.add(pool.submit(() -> {
                        for (int i = 0; i < 6; i++) {
                            f.join("order", CAPS, null).leave();
                        }
                        return null;
                    }));
                }
                List<Future<RegistryClient>> joining = new ArrayList<>();
                List<RecordingHandler> joiningHandlers = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    RecordingHandler h = new RecordingHandler();
                    joiningHandlers.add(h);
                    joining.add(pool.submit(() -> {
                        RegistryClient c = f.join("order", CAPS, h);
                        c.enableEvents();
                        return c;
                    }));
                }
                for (Future<?> w : work) {
                    w.get();
                }
                for (int t = 0; t < joining.size(); t++) {
                    observers.add(joining.get(t).get());
                    handlers.add(joiningHandlers.get(t));
                }
            } finally {
                pool.shutdownNow();
            }
            first.elect("done"); // an end marker every observer receives
            List<List<String>> suffixes = new ArrayList<>();
            for (int i = 0; i < observers.size(); i++) {
                RecordingHandler h = handlers.get(i);
                h.await("election done " + first.identifier().name());
                List<String> events = h.events();
                List<String> afterOwnJoin = events.subList(
                        events.indexOf("joined " + observers.get(i).identifier().name()), events.size());
                suffixes.add(afterOwnJoin);
            }
            assertEquals(h0.events().stream().filter(e -> e.startsWith("left")).count(), 24L,
                    "observer 0 saw every churn member leave");
            // Compare every observer with the one that joined last: from that join on, all must agree.
            int last = 0;
            for (int i = 1; i < observers.size(); i++) {
                if (observers.get(i).identifier().compareTo(observers.get(last).identifier()) > 0) {
                    last = i;
                }
            }
            String lastJoin = "joined " + observers.get(last).identifier().name();
            List<String> reference = suffixes.get(last);
            for (int i = 0; i < observers.size(); i++) {
                List<String> events = handlers.get(i).events();
                List<String> common = events.subList(events.indexOf(lastJoin), events.size());
                assertEquals(common, reference, "observer " + observers.get(i).identifier() + " saw another order");
                assertTrue(common.get(common.size() - 1).startsWith("election done"));
            }
            // And pairwise: after B's own join, A (who joined earlier) saw exactly what B saw.
            for (int a = 0; a < observers.size(); a++) {
                for (int b = 0; b < observers.size(); b++) {
                    if (observers.get(a).identifier().compareTo(observers.get(b).identifier()) < 0) {
                        List<String> ea = handlers.get(a).events();
                        String bJoin = "joined " + observers.get(b).identifier().name();
                        assertEquals(ea.subList(ea.indexOf(bJoin), ea.size()), suffixes.get(b));
                    }
                }
            }
        }
    }
}
