package ibis.util;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

import org.testng.annotations.AfterMethod;
import org.testng.annotations.Test;

public class IPUtilsTest {

    /** An address from its literal bytes: no name service involved. */
    private static InetAddress ip(int... bytes) throws UnknownHostException {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return InetAddress.getByAddress(b);
    }

    private static InetAddress ipv6(String literal) throws UnknownHostException {
        return InetAddress.getByName(literal); // a literal: parsed, not looked up
    }

    @AfterMethod(alwaysRun = true)
    public void clearTheOverrides() {
        System.clearProperty(IPUtils.ADDRESS_PROPERTY);
        System.clearProperty(IPUtils.ALTERNATE_ADDRESS_PROPERTY);
    }

    @Test
    public void predicatesClassifyAddresses() throws Exception {
        assertTrue(IPUtils.isLoopbackAddress(ip(127, 0, 0, 1)));
        assertTrue(IPUtils.isLoopbackAddress(ip(127, 1, 2, 3)));
        assertTrue(IPUtils.isLoopbackAddress(ipv6("::1")));
        assertFalse(IPUtils.isLoopbackAddress(ip(10, 0, 0, 1)));
        assertTrue(IPUtils.isLinkLocalAddress(ip(169, 254, 3, 4)));
        assertTrue(IPUtils.isLinkLocalAddress(ipv6("fe80::1")));
        assertFalse(IPUtils.isLinkLocalAddress(ip(169, 253, 3, 4)));
        assertTrue(IPUtils.isSiteLocalAddress(ip(10, 1, 2, 3)));
        assertTrue(IPUtils.isSiteLocalAddress(ip(172, 16, 0, 1)));
        assertTrue(IPUtils.isSiteLocalAddress(ip(172, 31, 255, 1)));
        assertFalse(IPUtils.isSiteLocalAddress(ip(172, 32, 0, 1)));
        assertTrue(IPUtils.isSiteLocalAddress(ip(192, 168, 1, 1)));
        assertTrue(IPUtils.isExternalAddress(ip(8, 8, 8, 8)));
        for (InetAddress a : List.of(ip(127, 0, 0, 1), ip(10, 0, 0, 1), ip(169, 254, 0, 1))) {
            assertFalse(IPUtils.isExternalAddress(a), a.toString());
        }
    }

    @Test
    public void theMostPublicIpv4AddressComesFirstAndLoopbackOnlyWithoutAnother() throws Exception {
        List<InetAddress> sorted = IPUtils.mostPublicFirst(List.of(ip(127, 0, 0, 1), ip(169, 254, 1, 1),
                ip(192, 168, 1, 2), ip(10, 0, 0, 5), ipv6("2001:db8::1"), ip(130, 37, 1, 1), ip(9, 9, 9, 9)));
        assertEquals(sorted, List.of(ip(9, 9, 9, 9), ip(130, 37, 1, 1), ip(10, 0, 0, 5), ip(192, 168, 1, 2),
                ip(169, 254, 1, 1)));
        assertEquals(IPUtils.mostPublicFirst(List.of(ipv6("::1"), ip(127, 0, 0, 1))), List.of(ip(127, 0, 0, 1)));
        assertEquals(IPUtils.mostPublicFirst(List.of(ipv6("::1"))), List.of(ipv6("::1")));
        assertTrue(IPUtils.mostPublicFirst(List.of()).isEmpty());
    }

    @Test
    public void theLocalHostAddressIsTheFirstOfTheLocalAddresses() throws Exception {
        InetAddress[] all = IPUtils.getLocalHostAddresses();
        assertTrue(all.length > 0);
        assertEquals(IPUtils.getLocalHostAddress(), all[0]);
        assertEquals(IPUtils.getAlternateLocalHostAddress(), all[0]);
        assertEquals(IPUtils.mostPublicFirst(Arrays.asList(all)), Arrays.asList(all), "already in order");
        all[0] = null;
        assertTrue(IPUtils.getLocalHostAddresses()[0] != null, "each call returns a new array");
    }

    @Test
    public void thePropertiesChooseTheAddresses() throws Exception {
        System.setProperty(IPUtils.ADDRESS_PROPERTY, "127.0.0.1");
        assertEquals(IPUtils.getLocalHostAddress(), ip(127, 0, 0, 1));
        assertEquals(IPUtils.getAlternateLocalHostAddress(), ip(127, 0, 0, 1));
        System.setProperty(IPUtils.ALTERNATE_ADDRESS_PROPERTY, "127.0.0.2");
        assertEquals(IPUtils.getAlternateLocalHostAddress(), ip(127, 0, 0, 2));
        assertEquals(IPUtils.getLocalHostAddress(), ip(127, 0, 0, 1));
    }

    @Test
    public void anUnresolvableAddressPropertyIsNamedInTheError() {
        // malformed: fails without asking a name service
        System.setProperty(IPUtils.ADDRESS_PROPERTY, "[1::2");
        UnknownHostException e = expectThrows(UnknownHostException.class, IPUtils::getLocalHostAddress);
        assertTrue(e.getMessage().contains(IPUtils.ADDRESS_PROPERTY), e.getMessage());
    }
}
