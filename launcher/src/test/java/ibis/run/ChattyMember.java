package ibis.run;

/**
 * A stand-in member program that writes many long lines the way that gets them cut: with
 * {@code printf}, which a JVM's standard output writes in pieces. Each line names its member and
 * number and is {@code "<member> <i> " + 'x' * length + " end"}.
 *
 * <p>Arguments: the number of lines, the length of the padding.
 */
public final class ChattyMember {

    private ChattyMember() {
    }

    /** Writes the lines. */
    public static void main(String[] args) {
        int lines = Integer.parseInt(args[0]);
        String pad = "x".repeat(Integer.parseInt(args[1]));
        String member = System.getProperty("ibis.pool.member", "?");
        for (int i = 0; i < lines; i++) {
            System.out.printf("%s %d %s end%n", member, i, pad);
        }
    }
}
