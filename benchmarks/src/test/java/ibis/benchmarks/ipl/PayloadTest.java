package ibis.benchmarks.ipl;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;

import org.testng.annotations.Test;

/** The payloads of the ipl suite and the checksums by which the peer proves what it received. */
public class PayloadTest {

    @Test
    public void theTreeHas1023NodesOfFourIntsAndItsChecksumSeesEveryValue() {
        TreeNode tree = TreeNode.benchmarkTree();
        assertEquals(count(tree), 1023);
        assertEquals(TreeNode.PAYLOAD_BYTES, 1023 * 16);
        long sum = TreeNode.checksum(tree);
        assertEquals(TreeNode.checksum(TreeNode.benchmarkTree()), sum, "equal trees, equal checksums");
        TreeNode deep = tree;
        while (deep.right != null) {
            deep = deep.right;
        }
        deep.i3++;
        assertNotEquals(TreeNode.checksum(tree), sum, "a changed value must change the checksum");
        deep.i3--;
        tree.left.left = null;
        assertNotEquals(TreeNode.checksum(tree), sum, "a missing subtree must change the checksum");
    }

    @Test
    public void swappedSubtreesChangeTheChecksum() {
        TreeNode tree = TreeNode.benchmarkTree();
        long sum = TreeNode.checksum(tree);
        TreeNode l = tree.left;
        tree.left = tree.right;
        tree.right = l;
        assertNotEquals(TreeNode.checksum(tree), sum);
    }

    @Test
    public void theTreeSurvivesJdkSerialization() throws Exception {
        TreeNode tree = TreeNode.benchmarkTree();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(tree);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(Payload.TREE.checksum(in.readObject()), TreeNode.checksum(tree));
        }
    }

    @Test
    public void arraysConvertThroughByteBuffersAndBackAndKeepTheirChecksum() {
        for (ArrayKind kind : ArrayKind.values()) {
            Object array = kind.newArray();
            ByteBuffer bytes = ByteBuffer.allocate(ArrayKind.MESSAGE_BYTES);
            kind.encode(array, bytes);
            Object back = kind.newArray();
            Payload payload = Payload.values()[kind.ordinal()];
            long before = payload.checksum(back);
            kind.decode(bytes, back);
            assertEquals(payload.checksum(back), payload.checksum(array), kind.javaName());
            assertEquals(payload.userBytes(), 102_400);
            assertEquals(Payload.of(payload.code()), payload);
            if (kind != ArrayKind.BYTE) {
                assertEquals(before, payload.checksum(kind.newArray()));
            }
        }
    }

    @Test
    public void aChangedElementChangesAnArrayChecksum() {
        int[] a = (int[]) ArrayKind.INT.newArray();
        long sum = ArrayKind.INT.checksum(a);
        a[12_345]++;
        assertNotEquals(ArrayKind.INT.checksum(a), sum);
    }

    @Test
    public void checksumsRejectValuesOfTheWrongTypeOrSize() {
        expectThrows(IllegalArgumentException.class, () -> Payload.INTS.checksum(new int[3]));
        expectThrows(IllegalArgumentException.class, () -> Payload.INTS.checksum(new double[25_600]));
        expectThrows(IllegalArgumentException.class, () -> Payload.TREE.checksum("a tree"));
        expectThrows(IllegalArgumentException.class, () -> Payload.BYTES.checksum(null));
        assertNull(Payload.of((byte) 77));
        assertEquals(Payload.of(BenchPorts.TREE), Payload.TREE);
    }

    private static int count(TreeNode n) {
        return n == null ? 0 : 1 + count(n.left) + count(n.right);
    }
}
