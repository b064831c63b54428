package ibis.io.codegen;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertThrows;

import ibis.io.BlockInputStream;

import java.util.ArrayList;
import java.util.List;

import org.testng.annotations.Test;

/**
 * The layout decisions of the field plan (io/README.md, "Generated serializers"): runs of at most
 * {@link BlockInputStream#RUN_MAX} bytes taken greedily, a lone primitive on its own, a field of
 * the owner's own type self-typed only where the code reaches it directly, its header in the run
 * before it, and the canonical order of the fields.
 */
public class FieldPlanTest {

    private static final String OWNER = "p/Node";

    private static SerialField field(String name, String descriptor) {
        FieldEncoding e = descriptor.length() == 1 ? FieldEncoding.primitive(descriptor)
                : descriptor.equals("Ljava/lang/String;") ? FieldEncoding.STRING
                : descriptor.equals("[I") ? FieldEncoding.KNOWN : FieldEncoding.OBJECT;
        return new SerialField(name, descriptor, e);
    }

    /** The steps as text: kind, fields first..end-1, run bytes, self-typed field. */
    private static List<String> steps(FieldPlan plan) {
        List<String> out = new ArrayList<>();
        for (FieldPlan.Step s : plan.steps()) {
            String fields = s.end() - s.first() == 1 ? plan.field(s.first()).name()
                    : plan.field(s.first()).name() + ".." + plan.field(s.end() - 1).name();
            out.add(s.kind() + " " + fields + (s.runBytes() > 0 ? " " + s.runBytes() : "")
                    + (s.selfTyped() >= 0 ? " +" + plan.field(s.selfTyped()).name() : ""));
        }
        return out;
    }

    @Test
    public void runsAreTakenGreedilyUpToRunMaxBytes() {
        assertEquals(BlockInputStream.RUN_MAX, 16);
        List<SerialField> fields = FieldPlan.canonical(List.of(field("a", "B"), field("b", "D"), field("c", "I"),
                field("d", "J"), field("e", "J"), field("f", "S"), field("g", "Z"), field("h", "I"), field("i", "J"),
                field("s", "Ljava/lang/String;")));
        // a..c: 1 + 8 + 4 bytes, d would make 21; d..e: 16; f..i: 2 + 1 + 4 + 8.
        assertEquals(steps(FieldPlan.forWriting(OWNER, fields, f -> true)),
                List.of("RUN a..c 13", "RUN d..e 16", "RUN f..i 15", "FIELD s"));
    }

    @Test
    public void aLonePrimitiveIsNotARun() {
        List<SerialField> fields = List.of(field("a", "I"), field("b", "I"), field("c", "I"), field("d", "I"),
                field("e", "B"), field("next", "Lp/Node;"));
        assertEquals(steps(FieldPlan.forWriting(OWNER, fields, f -> true)),
                List.of("RUN a..d 16", "FIELD e", "SELF_TYPED next"));
    }

    @Test
    public void aSelfTypedFieldAfterARunJoinsItOnlyWhenReachedDirectly() {
        List<SerialField> fields = List.of(field("id", "I"), field("mark", "I"), field("next", "Lp/Node;"),
                field("other", "Lp/Node;"), field("z", "Ljava/lang/Object;"));
        assertEquals(steps(FieldPlan.forWriting(OWNER, fields, f -> true)),
                List.of("RUN_THEN_SELF_TYPED id..mark 8 +next", "SELF_TYPED other", "FIELD z"));
        // A final field (no putfield outside the class's constructors): read as any reference.
        assertEquals(steps(FieldPlan.forReading(OWNER, fields, f -> f != 2)),
                List.of("RUN id..mark 8", "FIELD next", "SELF_TYPED other", "FIELD z"));
        // Fields reached through method handles: nothing is self-typed.
        assertEquals(steps(FieldPlan.forReading(OWNER, fields, f -> false)),
                List.of("RUN id..mark 8", "FIELD next", "FIELD other", "FIELD z"));
        // A field of another class's type is never self-typed.
        assertEquals(steps(FieldPlan.forWriting("p/Other", fields, f -> true)),
                List.of("RUN id..mark 8", "FIELD next", "FIELD other", "FIELD z"));
    }

    @Test
    public void fieldsMustComeInCanonicalOrder() {
        List<SerialField> shuffled = List.of(field("b", "I"), field("a", "I"), field("r", "Ljava/lang/Object;"),
                field("c", "J"));
        assertThrows(IllegalArgumentException.class, () -> FieldPlan.forWriting(OWNER, shuffled, f -> true));
        List<SerialField> sorted = FieldPlan.canonical(shuffled);
        assertEquals(sorted.stream().map(SerialField::name).toList(), List.of("a", "b", "c", "r"));
        assertEquals(steps(FieldPlan.forReading(OWNER, sorted, f -> true)), List.of("RUN a..c 16", "FIELD r"));
    }

    @Test
    public void anEncodingMustFitItsDescriptor() {
        assertThrows(IllegalArgumentException.class, () -> new SerialField("x", "I", FieldEncoding.LONG));
        assertThrows(IllegalArgumentException.class,
                () -> new SerialField("x", "Ljava/lang/String;", FieldEncoding.INT));
        assertThrows(IllegalArgumentException.class, () -> new SerialField("x", "J", FieldEncoding.OBJECT));
    }
}
