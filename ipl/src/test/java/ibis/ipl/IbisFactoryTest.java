package ibis.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import org.testng.annotations.Test;

/**
 * Selection of the Ibis implementation, with the fake starters registered in the test resources
 * (META-INF/services/ibis.ipl.IbisStarter): fake-alpha (rank 5), fake-beta (rank 5, also signals),
 * fake-gamma (rank 10, only one-to-one byte ports and signals), fake-broken (fails to start) and
 * fake-unavailable (rank 100 and all of alpha's and beta's capabilities, but it cannot run here).
 */
public class IbisFactoryTest {

    private static final PortType BYTE_ONE_TO_ONE = new PortType(PortType.CONNECTION_ONE_TO_ONE,
            PortType.SERIALIZATION_BYTE);
    private static final PortType OBJECT_ONE_TO_MANY = new PortType(PortType.CONNECTION_ONE_TO_MANY,
            PortType.SERIALIZATION_OBJECT, PortType.RECEIVE_EXPLICIT);
    private static final PortType MANY_TO_MANY = new PortType(PortType.CONNECTION_MANY_TO_MANY,
            PortType.SERIALIZATION_DATA);

    private static FakeIbis create(Properties properties, IbisCapabilities capabilities, PortType... types)
            throws IbisCreationFailedException {
        // No default sources, so that the machine's ibis.* settings cannot change the outcome.
        Ibis ibis = IbisFactory.createIbis(capabilities, properties, false, null, types);
        assertTrue(ibis instanceof FakeIbis, "unexpected Ibis " + ibis);
        return (FakeIbis) ibis;
    }

    private static Properties implementation(String value) {
        Properties p = new Properties();
        p.setProperty(IbisProperties.IMPLEMENTATION, value);
        return p;
    }

    @Test
    public void findsTheRegisteredStarters() {
        List<String> names = new ArrayList<>();
        for (IbisStarter s : IbisFactory.findStarters(null)) {
            names.add(s.getNickName());
        }
        assertTrue(names.containsAll(List.of("fake-alpha", "fake-beta", "fake-gamma")), names.toString());
        assertEquals(names.size(), names.stream().distinct().count(), "each starter is found once: " + names);
    }

    @Test
    public void highestRankedMatchingStarterWins() throws Exception {
        assertEquals(create(null, new IbisCapabilities(), BYTE_ONE_TO_ONE).starterNickName(), "fake-gamma");
        // gamma ranks higher but lacks one-to-many ports.
        assertEquals(create(null, new IbisCapabilities(), OBJECT_ONE_TO_MANY).starterNickName(), "fake-alpha");
        // Only beta offers closed world and signals together.
        assertEquals(create(null, new IbisCapabilities(IbisCapabilities.CLOSED_WORLD, IbisCapabilities.SIGNALS),
                BYTE_ONE_TO_ONE).starterNickName(), "fake-beta");
    }

    @Test
    public void equalRanksAreDecidedByNicknameWhateverTheDiscoveryOrder() throws Exception {
        IbisCapabilities closedWorld = new IbisCapabilities(IbisCapabilities.CLOSED_WORLD);
        for (int i = 0; i < 3; i++) {
            assertEquals(create(null, closedWorld, BYTE_ONE_TO_ONE).starterNickName(), "fake-alpha");
        }
        List<IbisStarter> starters = new ArrayList<>(List.of(new FakeGammaStarter(), new FakeBetaStarter(),
                new FakeAlphaStarter()));
        assertEquals(IbisFactory.select(starters, null, closedWorld, new PortType[0]).getNickName(), "fake-alpha");
        Collections.reverse(starters);
        assertEquals(IbisFactory.select(starters, null, closedWorld, new PortType[0]).getNickName(), "fake-alpha");
    }

    @Test
    public void implementationSelectedByNicknameOverridesRank() throws Exception {
        FakeIbis ibis = create(implementation("fake-beta"), new IbisCapabilities(), BYTE_ONE_TO_ONE);
        assertEquals(ibis.starterNickName(), "fake-beta");
        assertNull(ibis.subImplementation());
    }

    @Test
    public void implementationSelectedByClassName() throws Exception {
        FakeIbis ibis = create(implementation(FakeAlphaStarter.class.getName()), null, BYTE_ONE_TO_ONE);
        assertEquals(ibis.starterNickName(), "fake-alpha");
        assertEquals(ibis.capabilities().size(), 0, "null capabilities mean none");
    }

    @Test
    public void olderStarterPropertyIsUsedWhenImplementationIsUnset() throws Exception {
        Properties p = new Properties();
        p.setProperty(IbisProperties.STARTER, "fake-beta");
        assertEquals(create(p, null, BYTE_ONE_TO_ONE).starterNickName(), "fake-beta");
    }

    @Test
    public void subImplementationIsPassedToTheStarter() throws Exception {
        FakeIbis ibis = create(implementation("fake-alpha:inner"), null, BYTE_ONE_TO_ONE);
        assertEquals(ibis.starterNickName(), "fake-alpha");
        assertEquals(ibis.subImplementation(), "inner");
    }

    @Test
    public void starterGetsResolvedPropertiesAndTag() throws Exception {
        Properties given = implementation("fake-gamma");
        given.setProperty(IbisProperties.POOL_NAME, "pool-1");
        given.setProperty(IbisProperties.SERVER_IS_HUB, "true");
        FakeIbis ibis = (FakeIbis) IbisFactory.createIbis(null, given, false, null, null, "tag-\u00e9",
                BYTE_ONE_TO_ONE);
        assertEquals(ibis.properties().getProperty(IbisProperties.POOL_NAME), "pool-1");
        assertEquals(ibis.properties().getProperty(IbisProperties.REGISTRY_IMPLEMENTATION), "central");
        assertEquals(new String(ibis.tag(), StandardCharsets.UTF_8), "tag-\u00e9");
        given.setProperty(IbisProperties.POOL_NAME, "changed later");
        assertEquals(ibis.properties().getProperty(IbisProperties.POOL_NAME), "pool-1",
                "the starter gets its own copy of the properties");
    }

    @Test
    public void instanceCreateIbisUsesTheSpecifiedImplementation() throws Exception {
        FakeIbis outer = create(implementation("fake-alpha"), null, BYTE_ONE_TO_ONE);
        // What a stacking starter does with the factory it was given.
        IbisFactory factory = FakeStarter.lastFactory;
        assertTrue(factory != null, "startIbis got no factory");
        Ibis inner = factory.createIbis(null, null, outer.properties(), null, null,
                new PortType[] { BYTE_ONE_TO_ONE }, "fake-beta");
        assertEquals(((FakeIbis) inner).starterNickName(), "fake-beta");
        // Without a specified implementation the properties decide (they name fake-alpha).
        Ibis again = factory.createIbis(null, null, outer.properties(), null, null,
                new PortType[] { BYTE_ONE_TO_ONE }, null);
        assertEquals(((FakeIbis) again).starterNickName(), "fake-alpha");
    }

    @Test
    public void unknownImplementationNameListsTheStartersFound() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("no-such-ibis"), null, BYTE_ONE_TO_ONE));
        String m = e.getMessage();
        assertTrue(m.contains("no-such-ibis"), m);
        assertTrue(m.contains("fake-alpha") && m.contains("fake-beta") && m.contains("fake-gamma"), m);
    }

    @Test
    public void aMisspelledNickNameGetsTheNearestInstalledOneSuggested() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("fake-alpah"), null, BYTE_ONE_TO_ONE));
        assertTrue(e.getMessage().contains("Did you mean \"fake-alpha\"?"), e.getMessage());
        e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("no-such-ibis"), null, BYTE_ONE_TO_ONE));
        assertFalse(e.getMessage().contains("Did you mean"), "nothing near: " + e.getMessage());
    }

    @Test
    public void aMissingTcpImplementationNamesItsArtifactAndTheImplementationPath() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("tcp"), null, BYTE_ONE_TO_ONE));
        String m = e.getMessage();
        assertTrue(m.contains("\"tcp\"") && m.contains("is not installed"), m);
        assertTrue(m.contains("ibis:ibis-impl-tcp"), "names the artifact: " + m);
        assertTrue(m.contains("-D" + IbisProperties.IMPLEMENTATION_PATH + "=DIR"), "names the property: " + m);
    }

    @Test
    public void aMissingUnknownImplementationNamesTheImplementationPath() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("no-such-ibis"), null, BYTE_ONE_TO_ONE));
        String m = e.getMessage();
        assertTrue(m.contains("the jar of implementation \"no-such-ibis\""), m);
        assertTrue(m.contains(IbisProperties.IMPLEMENTATION_PATH), m);
        assertFalse(m.contains("ibis-impl-tcp"), "no artifact is guessed for an unknown name: " + m);
    }

    @Test
    public void noImplementationAtAllNamesTheTcpArtifactAndTheImplementationPath() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> IbisFactory.select(List.of(), null, new IbisCapabilities(), new PortType[] {BYTE_ONE_TO_ONE}));
        String m = e.getMessage();
        assertTrue(m.contains("no implementations were found"), m);
        assertTrue(m.contains("ibis:ibis-impl-tcp"), "names the artifact: " + m);
        assertTrue(m.contains("-D" + IbisProperties.IMPLEMENTATION_PATH + "=DIR"), "names the property: " + m);
    }

    @Test
    public void namedImplementationThatLacksCapabilitiesFails() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("fake-gamma"), new IbisCapabilities(IbisCapabilities.CLOSED_WORLD),
                        OBJECT_ONE_TO_MANY));
        String m = e.getMessage();
        assertTrue(m.contains("fake-gamma") && m.contains(IbisCapabilities.CLOSED_WORLD), m);
        assertTrue(m.contains(PortType.CONNECTION_ONE_TO_MANY), m);
    }

    @Test
    public void failureNamesEveryStarterAndWhatItLacks() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(null, new IbisCapabilities(IbisCapabilities.TERMINATION, IbisCapabilities.SIGNALS),
                        BYTE_ONE_TO_ONE, MANY_TO_MANY));
        String m = e.getMessage();
        for (String line : m.split("\n")) {
            if (line.contains("fake-alpha") || line.contains("fake-beta")) {
                assertTrue(line.contains(IbisCapabilities.TERMINATION), line);
                assertTrue(line.contains(PortType.CONNECTION_MANY_TO_MANY), line);
            }
            if (line.contains("fake-alpha")) {
                assertTrue(line.contains(IbisCapabilities.SIGNALS), "alpha lacks signals: " + line);
                // Of the port type, the capability it lacks is singled out.
                assertTrue(line.contains("(lacking " + PortType.CONNECTION_MANY_TO_MANY + ")"), line);
            }
            if (line.contains("fake-beta")) {
                assertFalse(line.contains(IbisCapabilities.SIGNALS), "beta has signals: " + line);
            }
            if (line.contains("fake-gamma")) {
                assertTrue(line.contains(IbisCapabilities.TERMINATION), line);
                assertFalse(line.contains(IbisCapabilities.SIGNALS), "gamma has signals: " + line);
            }
        }
        assertTrue(m.contains("fake-alpha") && m.contains("fake-beta") && m.contains("fake-gamma"), m);
    }

    @Test
    public void starterExceptionBecomesCreationFailureNamingTheStarter() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("fake-broken"), new IbisCapabilities(FakeBrokenStarter.CAPABILITY)));
        assertTrue(e.getMessage().contains("fake-broken"), e.getMessage());
        assertTrue(e.getCause() instanceof IllegalStateException, String.valueOf(e.getCause()));
    }

    @Test
    public void anUnavailableStarterIsNeverChosenAndTheOthersAreUsedInstead() throws Exception {
        // fake-unavailable ranks highest and offers all of this, yet the factory falls back.
        assertEquals(create(null, new IbisCapabilities(IbisCapabilities.CLOSED_WORLD, IbisCapabilities.SIGNALS),
                BYTE_ONE_TO_ONE).starterNickName(), "fake-beta");
        assertEquals(create(null, new IbisCapabilities(), OBJECT_ONE_TO_MANY).starterNickName(), "fake-alpha");
    }

    @Test
    public void anUnavailableStarterNamedByTheUserFailsWithItsReason() {
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(implementation("fake-unavailable"), null, BYTE_ONE_TO_ONE));
        String m = e.getMessage();
        assertTrue(m.contains("fake-unavailable") && m.contains("is unavailable"), m);
        assertTrue(m.contains(FakeUnavailableStarter.REASON), "names the reason: " + m);
    }

    @Test
    public void whenNothingMatchesAnUnavailableStarterIsListedWithItsReason() {
        // Only fake-broken and fake-unavailable offer this capability; broken lacks the port type.
        IbisCreationFailedException e = expectThrows(IbisCreationFailedException.class,
                () -> create(null, new IbisCapabilities(FakeBrokenStarter.CAPABILITY), BYTE_ONE_TO_ONE));
        String m = e.getMessage();
        assertTrue(m.contains("\n  fake-unavailable is unavailable: " + FakeUnavailableStarter.REASON), m);
        assertTrue(m.contains("fake-broken"), "the others are listed as before: " + m);
    }

    @Test
    public void manifestHasTheVersionKeysOfIpl2() {
        // Read by programs and plug-ins of IPL 2.x (e.g. a registry server's version check).
        for (String key : new String[] { "support.version", "implementation.version" }) {
            String value = IbisFactory.getManifestProperty(key);
            assertNotNull(value, key);
            assertTrue(value.startsWith("3."), key + "=" + value);
        }
    }

    @Test
    public void manifestHasTheIplVersion() {
        assertEquals(IbisFactory.getManifestProperty("ipl.version"), "3.0");
        assertNull(IbisFactory.getManifestProperty("no.such.entry"));
    }
}
