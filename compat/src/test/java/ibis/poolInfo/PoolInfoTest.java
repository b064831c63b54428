package ibis.poolInfo;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.net.InetAddress;
import java.util.Properties;

import org.testng.annotations.Test;

public class PoolInfoTest {

    private static Properties of(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    public void theLaunchersPropertiesGiveRankAndSizeAndEveryMemberIsOnLoopback() {
        PoolInfo pool = new PoolInfo(of("ibis.pool.member", "1", "ibis.pool.size", "3", "ibis.pool.name", "p"),
                false);
        assertEquals(pool.rank(), 1);
        assertEquals(pool.size(), 3);
        assertEquals(pool.getPoolName(), "p");
        InetAddress loopback = InetAddress.getLoopbackAddress();
        for (int i = 0; i < 3; i++) {
            assertEquals(pool.getInetAddress(i), loopback);
            assertEquals(pool.hostName(i), loopback.getHostName());
        }
        assertEquals(pool.getInetAddress(), loopback);
        assertEquals(pool.hostName(), loopback.getHostName());
        assertEquals(pool.hostNames().length, 3);
        assertEquals(pool.getCluster(), "unknown");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> pool.getInetAddress(3));
        assertTrue(pool.toString().contains("size = 3; my rank is 1"), pool.toString());
    }

    @Test
    public void theEarlierNamesServeWhenTheLaunchersAreAbsent() {
        PoolInfo pool = new PoolInfo(of("ibis.pool.host_number", "0", "ibis.pool.total_hosts", "2",
                "ibis.cluster", "das"), false);
        assertEquals(pool.rank(), 0);
        assertEquals(pool.size(), 2);
        assertEquals(pool.getCluster(), "das");
        assertNull(pool.getPoolName());
        PoolInfo both = new PoolInfo(of("ibis.pool.member", "1", "ibis.pool.host_number", "0",
                "ibis.pool.size", "2", "ibis.pool.total_hosts", "5"), false);
        assertEquals(both.rank(), 1, "ibis.pool.member wins");
        assertEquals(both.size(), 2, "ibis.pool.size wins");
    }

    @Test
    public void hostNamesGiveEachMembersAddressInRankOrder() throws Exception {
        PoolInfo pool = new PoolInfo(of("ibis.pool.member", "1", "ibis.pool.size", "2",
                "ibis.pool.host_names", " 127.0.0.1  127.0.0.2,127.0.0.3 "), false);
        assertEquals(pool.getInetAddress(0), InetAddress.getByAddress(new byte[] {127, 0, 0, 1}));
        assertEquals(pool.getInetAddress(1), InetAddress.getByAddress(new byte[] {127, 0, 0, 2}));
        assertEquals(pool.getInetAddress(), pool.getInetAddress(1));
        assertEquals(pool.hostNames(), new String[] {"127.0.0.1", "127.0.0.2"});
        assertEquals(pool.hostName(), "127.0.0.2");
        String[] copy = pool.hostNames();
        copy[0] = "changed";
        assertEquals(pool.hostName(0), "127.0.0.1", "hostNames() returns a copy");
    }

    @Test
    public void tooFewOrUnresolvableHostNamesAreRejected() {
        IllegalArgumentException few = expectThrows(IllegalArgumentException.class, () -> new PoolInfo(
                of("ibis.pool.member", "0", "ibis.pool.size", "3", "ibis.pool.host_names", "127.0.0.1"), false));
        assertTrue(few.getMessage().contains("ibis.pool.host_names"), few.getMessage());
        IllegalArgumentException bad = expectThrows(IllegalArgumentException.class, () -> new PoolInfo(
                of("ibis.pool.member", "0", "ibis.pool.size", "1", "ibis.pool.host_names", "[1::2"), false));
        assertTrue(bad.getMessage().contains("[1::2"), bad.getMessage());
    }

    @Test
    public void aMissingRankOrSizeNamesThePropertiesAndIbisRun() {
        for (Properties p : new Properties[] {of("ibis.pool.size", "2"), of("ibis.pool.member", "0"), of()}) {
            IllegalStateException e = expectThrows(IllegalStateException.class, () -> new PoolInfo(p, false));
            assertTrue(e.getMessage().contains("bin/ibis-run --np N"), e.getMessage());
            assertTrue(e.getMessage().contains("ibis.pool.member") && e.getMessage().contains("ibis.pool.size"),
                    e.getMessage());
        }
        IllegalStateException noRank = expectThrows(IllegalStateException.class,
                () -> new PoolInfo(of("ibis.pool.size", "2"), false));
        assertTrue(noRank.getMessage().contains("ibis.pool.host_number"), noRank.getMessage());
    }

    @Test
    public void malformedOrOutOfRangeValuesAreRejected() {
        String[][] cases = {
            {"ibis.pool.member", "one", "ibis.pool.size", "2"},
            {"ibis.pool.member", "0", "ibis.pool.size", "two"},
            {"ibis.pool.member", "2", "ibis.pool.size", "2"},
            {"ibis.pool.member", "-1", "ibis.pool.size", "2"},
            {"ibis.pool.member", "0", "ibis.pool.size", "0"},
        };
        for (String[] c : cases) {
            IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> new PoolInfo(of(c), false));
            assertTrue(e.getMessage().contains(c[1].equals("one") ? "one" : c[3].equals("two") ? "two" : c[3]),
                    e.getMessage());
        }
    }

    @Test
    public void systemPropertiesCountWhenAskedAndTheGivenOnesWin() {
        System.setProperty("ibis.pool.member", "1");
        System.setProperty("ibis.pool.size", "2");
        try {
            PoolInfo fromSystem = new PoolInfo(null, true);
            assertEquals(fromSystem.rank(), 1);
            assertEquals(fromSystem.size(), 2);
            PoolInfo given = new PoolInfo(of("ibis.pool.member", "0"), true);
            assertEquals(given.rank(), 0);
            assertEquals(given.size(), 2);
            assertThrows(IllegalStateException.class, () -> new PoolInfo(null, false));
        } finally {
            System.clearProperty("ibis.pool.member");
            System.clearProperty("ibis.pool.size");
        }
    }

    @Test
    public void thePropertyTableDescribesEveryNameAndDefaultsTheCluster() {
        assertEquals(PoolInfoProperties.POOL_SIZE, "ibis.pool.size");
        assertEquals(PoolInfoProperties.POOL_MEMBER, "ibis.pool.member");
        assertEquals(PoolInfoProperties.getHardcodedProperties().getProperty(PoolInfoProperties.CLUSTER), "unknown");
        assertTrue(PoolInfoProperties.getDescriptions().keySet().containsAll(java.util.List.of(
                PoolInfoProperties.POOL_NAME, PoolInfoProperties.HOST_NUMBER, PoolInfoProperties.TOTAL_HOSTS,
                PoolInfoProperties.HOST_NAMES, PoolInfoProperties.HOST)));
    }
}
