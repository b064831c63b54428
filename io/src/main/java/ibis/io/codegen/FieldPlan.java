package ibis.io.codegen;

import ibis.io.BlockInputStream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The layout on the wire of the serial fields of one class level, for writing or for reading: the
 * steps generated code takes, in order (io/README.md, "Generated serializers"). Decided here once
 * for the rewriter and the run-time generator, which therefore make the same stream calls:
 *
 * <ul>
 * <li>fields come in canonical order ({@link #CANONICAL_ORDER}, the JDK's);
 * <li>two or more consecutive primitive fields whose wire sizes add up to at most
 * {@link BlockInputStream#RUN_MAX} bytes are a run, taken greedily;
 * <li>a field declared as the owner class itself, which the generated code reaches directly, is
 * written and read self-typed ({@code beginPlain}), and when it follows a run its header joins
 * the run ({@code selfHeader}/{@code claimWithHeader}).
 * </ul>
 */
public final class FieldPlan {

    /**
     * The order of the serial fields of a class (as {@code ObjectStreamClass} sorts them):
     * primitives first, then references, each by name.
     */
    public static final Comparator<SerialField> CANONICAL_ORDER =
            Comparator.comparing((SerialField f) -> !f.isPrimitive()).thenComparing(SerialField::name);

    /** What one step does. */
    public enum Kind {
        /** One field on its own: {@code writeX}/{@code readX}. */
        FIELD,
        /** A field of the owner's own type on its own: {@code beginPlain}, body by a direct call. */
        SELF_TYPED,
        /** A run of primitive fields: one reservation or claim, then {@code putX}/{@code xAt}. */
        RUN,
        /** A run and the self-typed field after it, its header in the run's reservation or claim. */
        RUN_THEN_SELF_TYPED
    }

    /**
     * One step over the plan's fields (indices into {@link #fields()}).
     *
     * @param kind what the step does
     * @param first the first field of the step: the field itself, or the first of the run
     * @param end the end (exclusive) of the run; {@code first + 1} for a single field
     * @param runBytes the wire bytes of the run; 0 for a single field
     * @param selfTyped the self-typed field after the run ({@link Kind#RUN_THEN_SELF_TYPED}), else -1
     */
    public record Step(Kind kind, int first, int end, int runBytes, int selfTyped) {
    }

    private final String owner;
    private final List<SerialField> fields;
    private final List<Step> steps;

    private FieldPlan(String owner, List<SerialField> fields, List<Step> steps) {
        this.owner = owner;
        this.fields = fields;
        this.steps = steps;
    }

    /**
     * The plan of the write method of a level.
     *
     * @param owner the internal name of the class the level belongs to
     * @param fields the level's serial fields, in canonical order
     * @param readable which fields (by index) the generated code reads with {@code getfield}:
     *        only those can be written self-typed
     */
    public static FieldPlan forWriting(String owner, List<SerialField> fields, IntPredicate readable) {
        return plan(owner, fields, readable);
    }

    /**
     * The plan of the reading code of a level.
     *
     * @param owner the internal name of the class the level belongs to
     * @param fields the level's serial fields, in canonical order
     * @param writable which fields (by index) the generated code sets with {@code putfield}:
     *        only those can be read self-typed
     */
    public static FieldPlan forReading(String owner, List<SerialField> fields, IntPredicate writable) {
        return plan(owner, fields, writable);
    }

    /** The fields of {@code fields} in canonical order (a new list). */
    public static List<SerialField> canonical(List<SerialField> fields) {
        List<SerialField> sorted = new ArrayList<>(fields);
        sorted.sort(CANONICAL_ORDER);
        return sorted;
    }

    private static FieldPlan plan(String owner, List<SerialField> fields, IntPredicate direct) {
        List<SerialField> copy = List.copyOf(fields);
        for (int i = 1; i < copy.size(); i++) {
            if (CANONICAL_ORDER.compare(copy.get(i - 1), copy.get(i)) > 0) {
                throw new IllegalArgumentException("fields of " + owner + " not in canonical order: " + copy);
            }
        }
        String self = "L" + owner + ";";
        IntPredicate selfTyped = i -> copy.get(i).encoding() == FieldEncoding.OBJECT
                && copy.get(i).descriptor().equals(self)
                && direct.test(i);
        List<Step> steps = new ArrayList<>();
        int n = copy.size();
        for (int i = 0; i < n;) {
            int end = i;
            int bytes = 0;
            while (end < n && copy.get(end).isPrimitive()
                    && bytes + copy.get(end).encoding().wireSize() <= BlockInputStream.RUN_MAX) {
                bytes += copy.get(end).encoding().wireSize();
                end++;
            }
            if (end - i >= 2) {
                if (end < n && selfTyped.test(end)) {
                    steps.add(new Step(Kind.RUN_THEN_SELF_TYPED, i, end, bytes, end));
                    i = end + 1;
                } else {
                    steps.add(new Step(Kind.RUN, i, end, bytes, -1));
                    i = end;
                }
            } else {
                steps.add(new Step(selfTyped.test(i) ? Kind.SELF_TYPED : Kind.FIELD, i, i + 1, 0, -1));
                i++;
            }
        }
        return new FieldPlan(owner, copy, Collections.unmodifiableList(steps));
    }

    /** The internal name of the class the level belongs to. */
    public String owner() {
        return owner;
    }

    /** The level's serial fields in canonical order. */
    public List<SerialField> fields() {
        return fields;
    }

    /** The steps, in the order the generated code takes them. */
    public List<Step> steps() {
        return steps;
    }

    /** Field {@code i}. */
    public SerialField field(int i) {
        return fields.get(i);
    }
}
