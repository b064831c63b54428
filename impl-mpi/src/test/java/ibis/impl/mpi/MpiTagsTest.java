package ibis.impl.mpi;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The tag layout adapts to {@code MPI_TAG_UB}. */
public class MpiTagsTest {

    @Test
    public void openMpiBoundGivesTwentyEightIdBits() {
        MpiTags tags = new MpiTags(Integer.MAX_VALUE);
        assertEquals(tags.idBits(), 28);
        int tag = tags.tag(MpiTags.REGISTRY, tags.maxId());
        assertTrue(tag > 0 && tag <= Integer.MAX_VALUE);
        assertEquals(tags.kind(tag), MpiTags.REGISTRY);
        assertEquals(tags.id(tag), tags.maxId());
    }

    @Test
    public void mpichBoundGivesTwentyFiveIdBitsAndEveryTagFits() {
        int bound = (1 << 28) - 1;
        MpiTags tags = new MpiTags(bound);
        assertEquals(tags.idBits(), 25);
        assertTrue(tags.tag(MpiTags.KINDS - 1, tags.maxId()) <= bound);
        assertEquals(tags.kind(tags.tag(MpiTags.DATA, 12345)), MpiTags.DATA);
        assertEquals(tags.id(tags.tag(MpiTags.DATA, 12345)), 12345);
    }

    @Test
    public void anOddBoundRoundsDown() {
        MpiTags tags = new MpiTags((1 << 29) + 5);
        assertEquals(tags.idBits(), 26);
        assertTrue(tags.tag(MpiTags.KINDS - 1, tags.maxId()) <= (1 << 29) + 5);
    }

    @Test
    public void tooSmallBoundsAndOutOfRangeFieldsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new MpiTags(32767));
        assertThrows(IllegalArgumentException.class, () -> new MpiTags(-1));
        MpiTags tags = new MpiTags((1 << 28) - 1);
        assertThrows(IllegalArgumentException.class, () -> tags.tag(MpiTags.KINDS, 0));
        assertThrows(IllegalArgumentException.class, () -> tags.tag(MpiTags.DATA, tags.maxId() + 1));
        assertThrows(IllegalArgumentException.class, () -> tags.tag(MpiTags.DATA, -1));
    }
}
