package ibis.io;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

/**
 * The JIT compiles the serializers generated at run time. A method the JIT refuses (for instance
 * because a dynamic constant on a branch not taken yet is unresolved) stays interpreted, several
 * times slower, without any other symptom; so a child JVM prints its compilations
 * ({@code -XX:+PrintCompilation}, {@code -Xbatch}) while it writes and reads an object whose
 * links to its own class are null, and none of the generated methods may be skipped.
 */
public class GeneratedCodeCompilesTest {

    /** Two ints and two null links of its own type (the papers' "4 int 2 null" shape). */
    static class Links implements Serializable {
        private static final long serialVersionUID = 1L;
        int a;
        int b;
        Links left;
        Links right;
    }

    /** The child JVM: writes and reads one such object per message, often enough for the JIT. */
    public static final class Child {
        private Child() {
        }

        public static void main(String[] args) throws Exception {
            Wire wire = new Wire(1 << 12, 0, 0);
            SerializationOutput out = wire.output("ibis");
            SerializationInput in = wire.input("ibis");
            Links links = new Links();
            long sum = 0;
            for (int i = 0; i < 50_000; i++) {
                links.a = i;
                out.writeObject(links);
                wire.endMessage(out);
                Links copy = (Links) in.readObject();
                wire.endMessage(in);
                if (copy.a != i || copy.left != null || copy.right != null) {
                    throw new AssertionError("message " + i);
                }
                sum += copy.a;
            }
            System.out.println("done " + sum);
        }
    }

    @Test(timeOut = 120_000)
    public void generatedReadingAndWritingMethodsAreCompiled() throws Exception {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xbatch", "-XX:+PrintCompilation", "-cp",
                System.getProperty("java.class.path"), Child.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
                lines.add(line);
            }
        } finally {
            if (!child.waitFor(60, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertEquals(child.exitValue(), 0, String.join("\n", tail(lines)));
        assertTrue(lines.contains("done " + 49_999L * 50_000 / 2), "the child finished its loop");
        String generated = Links.class.getName() + "$$IbisFields";
        List<String> skipped = new ArrayList<>();
        boolean readCompiled = false;
        boolean writeCompiled = false;
        Pattern compiled = Pattern.compile(
                "^\\s*\\d+\\s+\\d+\\s+[%sbn! ]*[1-4]\\s+\\S+::(readContents|writeContents) \\(\\d+ bytes\\)$");
        for (String line : lines) {
            if (!line.contains(generated)) {
                continue;
            }
            if (line.contains("SKIPPED") || line.contains("failed")) {
                skipped.add(line);
            } else if (compiled.matcher(line).matches()) {
                readCompiled |= line.contains("::readContents");
                writeCompiled |= line.contains("::writeContents");
            }
        }
        assertEquals(skipped, List.of(), "compilations of generated code the JIT gave up on");
        assertTrue(readCompiled, "readContents of the generated code was compiled");
        assertTrue(writeCompiled, "writeContents of the generated code was compiled");
    }

    private static List<String> tail(List<String> lines) {
        return lines.subList(Math.max(0, lines.size() - 40), lines.size());
    }
}
