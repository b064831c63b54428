package ibis.rmi.impl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;

import ibis.ipl.SendPort;

import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.Test;

/**
 * A failed reply gives up only the port it was written to. The race this guards against (seen in
 * {@link ReplyChannelTest} over ucx, about one run in ten): a reply started on the caller's old
 * reply port fails while a PING's reply has already connected the sender to the caller's new port;
 * closing "the current port" then ended the PING's reply connection, and the caller waited for
 * that reply until its time-out.
 */
public class ReplySenderTest {

    /** A send port that only counts its closes (every other call is unexpected). */
    private static SendPort countingPort(AtomicInteger closes) {
        return (SendPort) Proxy.newProxyInstance(SendPort.class.getClassLoader(), new Class<?>[] {SendPort.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                    case "close":
                        closes.incrementAndGet();
                        return null;
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    case "equals":
                        return proxy == args[0];
                    case "toString":
                        return "counting port";
                    default:
                        throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    private static void setCurrent(ReplySender sender, SendPort port) throws ReflectiveOperationException {
        Field f = ReplySender.class.getDeclaredField("port");
        f.setAccessible(true);
        f.set(sender, port);
    }

    private static SendPort current(ReplySender sender) throws ReflectiveOperationException {
        Field f = ReplySender.class.getDeclaredField("port");
        f.setAccessible(true);
        return (SendPort) f.get(sender);
    }

    @Test
    public void aFailedReplyOnAnOldPortLeavesTheNewPortInPlace() throws Exception {
        ReplySender sender = new ReplySender(null, null);
        AtomicInteger oldCloses = new AtomicInteger();
        AtomicInteger newCloses = new AtomicInteger();
        SendPort old = countingPort(oldCloses);
        SendPort fresh = countingPort(newCloses);
        setCurrent(sender, fresh);
        sender.closeFailed(old);
        assertEquals(oldCloses.get(), 1, "the failed port is closed");
        assertEquals(newCloses.get(), 0, "the port connected meanwhile stays open");
        assertSame(current(sender), fresh, "and stays the sender's port");
    }

    @Test
    public void aFailedReplyOnTheCurrentPortDropsIt() throws Exception {
        ReplySender sender = new ReplySender(null, null);
        AtomicInteger closes = new AtomicInteger();
        SendPort port = countingPort(closes);
        setCurrent(sender, port);
        sender.closeFailed(port);
        assertEquals(closes.get(), 1, "the failed port is closed");
        assertNull(current(sender), "the next reply connects again");
    }
}
