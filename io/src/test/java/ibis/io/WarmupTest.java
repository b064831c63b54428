package ibis.io;
import org.testng.annotations.Test;
import static org.testng.Assert.assertEquals;
public class WarmupTest { @Test public void one() { assertEquals(1 + 1, 2); } }
