package ibis.ipl.impl;

import static org.testng.Assert.assertEquals;

import ibis.ipl.IbisProperties;

import java.net.InetAddress;
import java.util.Properties;

import org.testng.annotations.Test;

public class ListenAddressTest {

    @Test
    public void hostOfEveryAddressForm() {
        assertEquals(ListenAddress.hostOf("node7"), "node7");
        assertEquals(ListenAddress.hostOf("node7:8888"), "node7");
        assertEquals(ListenAddress.hostOf("10.1.2.3:8888"), "10.1.2.3");
        assertEquals(ListenAddress.hostOf("[::1]:8888"), "::1");
        assertEquals(ListenAddress.hostOf("[fe80::1]"), "fe80::1");
        assertEquals(ListenAddress.hostOf("fe80::1"), "fe80::1");
    }

    @Test
    public void theConfiguredAddressWins() throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:1");
        assertEquals(ListenAddress.choose("127.0.0.5", p), InetAddress.getByName("127.0.0.5"));
    }

    @Test
    public void aServerOnThisHostMeansLoopback() throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.SERVER_ADDRESS, "127.0.0.1:8888");
        assertEquals(ListenAddress.choose(null, p), InetAddress.getLoopbackAddress());
        p.setProperty(IbisProperties.SERVER_ADDRESS, "[::1]:8888");
        assertEquals(ListenAddress.choose(null, p), InetAddress.getLoopbackAddress());
    }
}
