package ibis.rewriter;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.ModuleVisitor;
import org.objectweb.asm.Opcodes;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The rewriter on jars: rewritten in place (through a temporary file), generator classes placed
 * right after their classes, the manifest, resources, directory entries, multi-release variants
 * and module-info left byte for byte; a second run and a signed jar leave the file untouched.
 */
public class JarRewriteTest {

    private Path classes;
    private Path work;

    @BeforeClass
    public void compile() throws IOException {
        classes = Samples.compile(Samples.tempDir("jar-classes"), SampleSources.corpus());
        Samples.compile(classes, Map.of("sample/Versioned.java",
                "package sample; public class Versioned implements java.io.Serializable { int v; }"));
        work = Samples.tempDir("jar-work");
    }

    @AfterClass(alwaysRun = true)
    public void cleanUp() {
        Samples.delete(classes);
        Samples.delete(work);
    }

    private static byte[] moduleInfo() {
        ClassWriter cw = new ClassWriter(0);
        cw.visit(Opcodes.V17, Opcodes.ACC_MODULE, "module-info", null, null, null);
        ModuleVisitor mv = cw.visitModule("sample.mod", 0, null);
        mv.visitRequire("java.base", Opcodes.ACC_MANDATED, null);
        mv.visitExport("sample", 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    /** Builds a jar of the sample classes with a manifest, a stored resource, a versioned class and module-info. */
    private Path buildJar(String name, boolean signed) throws IOException {
        Path jar = work.resolve(name);
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "sample.Foo");
        manifest.getMainAttributes().put(new Attributes.Name("Multi-Release"), "true");
        Map<String, byte[]> files = Samples.snapshot(classes);
        try (OutputStream file = Files.newOutputStream(jar);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            if (signed) {
                put(out, "META-INF/SIGNER.SF", "Signature-Version: 1.0\n".getBytes(StandardCharsets.UTF_8), false);
            }
            put(out, "module-info.class", moduleInfo(), false);
            out.putNextEntry(new ZipEntry("sample/"));
            out.closeEntry();
            for (Map.Entry<String, byte[]> e : files.entrySet()) {
                put(out, e.getKey(), e.getValue(), false);
            }
            put(out, "sample/data.txt", "some resource".getBytes(StandardCharsets.UTF_8), true);
            put(out, "META-INF/versions/17/sample/Versioned.class", files.get("sample/Versioned.class"), false);
        }
        return jar;
    }

    private static void put(JarOutputStream out, String name, byte[] bytes, boolean stored) throws IOException {
        ZipEntry e = new ZipEntry(name);
        e.setTime(1_600_000_000_000L);
        if (stored) {
            CRC32 crc = new CRC32();
            crc.update(bytes);
            e.setMethod(ZipEntry.STORED);
            e.setSize(bytes.length);
            e.setCrc(crc.getValue());
        }
        out.putNextEntry(e);
        out.write(bytes);
        out.closeEntry();
    }

    private static List<String> entryNames(Path jar) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            return Collections.list(z.entries()).stream().map(ZipEntry::getName).collect(Collectors.toList());
        }
    }

    private static byte[] entry(Path jar, String name) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            ZipEntry e = z.getEntry(name);
            assertNotNull(e, name + " in " + jar);
            try (InputStream in = z.getInputStream(e)) {
                return in.readAllBytes();
            }
        }
    }

    @Test(timeOut = 60_000)
    public void jarIsRewrittenInPlaceKeepingEverythingElse() throws Exception {
        Path jar = buildJar("samples.jar", false);
        Path pristine = work.resolve("pristine.jar");
        Files.copy(jar, pristine);
        List<String> before = entryNames(jar);

        RewriteResult r = new Rewriter().rewrite(List.of(jar));
        assertEquals(r.outcome("sample.Foo").status(), ClassOutcome.Status.REWRITTEN);
        assertEquals(r.outcome("sample.WithWriteObject").status(), ClassOutcome.Status.SKIPPED);
        ClassOutcome versioned = r.outcome("sample.Versioned");
        assertEquals(versioned.status(), ClassOutcome.Status.SKIPPED);
        assertTrue(versioned.reason().contains("multi-release"), versioned.reason());
        assertEquals(r.classes().stream().filter(c -> c.className().equals("module-info")).count(), 0L,
                "module-info is not an input class");

        // Same entries in the same order, each generator right after its class.
        List<String> after = entryNames(jar);
        List<String> expected = new ArrayList<>();
        for (String name : before) {
            expected.add(name);
            String className = name.endsWith(".class") ? name.substring(0, name.length() - 6).replace('/', '.') : null;
            ClassOutcome o = className == null || name.startsWith("META-INF/") ? null : r.outcome(className);
            if (o != null && o.status() == ClassOutcome.Status.REWRITTEN
                    && (new org.objectweb.asm.ClassReader(entry(pristine, name)).getAccess()
                            & Opcodes.ACC_ABSTRACT) == 0) {
                expected.add(name.replace(".class", "_ibis_io_Generator.class"));
            }
        }
        assertEquals(after, expected);
        for (String unchanged : List.of("META-INF/MANIFEST.MF", "module-info.class", "sample/data.txt",
                "META-INF/versions/17/sample/Versioned.class", "sample/Versioned.class",
                "sample/WithWriteObject.class")) {
            assertEquals(entry(jar, unchanged), entry(pristine, unchanged), unchanged);
        }
        assertFalse(java.util.Arrays.equals(entry(jar, "sample/Foo.class"), entry(pristine, "sample/Foo.class")));
        try (ZipFile z = new ZipFile(jar.toFile())) {
            assertEquals(z.getEntry("sample/data.txt").getMethod(), ZipEntry.STORED, "a stored entry stays stored");
            assertEquals(z.getEntry("sample/Foo.class").getTime(),
                    z.getEntry("sample/Foo_ibis_io_Generator.class").getTime());
        }
        try (JarFile jf = new JarFile(jar.toFile())) {
            assertEquals(jf.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS), "sample.Foo");
        }
        try (Stream<Path> left = Files.list(work)) {
            assertTrue(left.noneMatch(p -> p.getFileName().toString().endsWith(".ibisc-tmp")),
                    "no temporary file left");
        }
        try (URLClassLoader loader = Samples.loader(jar)) {
            Class<?> foo = Class.forName("sample.Foo", true, loader);
            assertTrue(ibis.io.Serializable.class.isAssignableFrom(foo));
            Samples.verify(entry(jar, "sample/Foo.class"), loader);
            Samples.verify(entry(jar, "sample/Foo_ibis_io_Generator.class"), loader);
            Class.forName("sample.Foo_ibis_io_Generator", true, loader).getConstructor().newInstance();
        }

        // Second run: nothing to do, the file is not even written.
        byte[] once = Files.readAllBytes(jar);
        FileTime time = Files.getLastModifiedTime(jar);
        RewriteResult again = new Rewriter().rewrite(List.of(jar));
        assertEquals(again.count(ClassOutcome.Status.REWRITTEN), 0);
        assertEquals(again.count(ClassOutcome.Status.ALREADY_REWRITTEN), r.count(ClassOutcome.Status.REWRITTEN));
        assertEquals(Files.readAllBytes(jar), once);
        assertEquals(Files.getLastModifiedTime(jar), time);
    }

    @Test(timeOut = 60_000)
    public void signedJarIsLeftAlone() throws Exception {
        Path jar = buildJar("signed.jar", true);
        byte[] before = Files.readAllBytes(jar);
        RewriteResult r = new Rewriter().rewrite(List.of(jar));
        assertEquals(r.count(ClassOutcome.Status.REWRITTEN), 0);
        ClassOutcome foo = r.outcome("sample.Foo");
        assertEquals(foo.status(), ClassOutcome.Status.SKIPPED);
        assertTrue(foo.reason().contains("signed jar"), foo.reason());
        assertEquals(Files.readAllBytes(jar), before);
    }

    @Test(timeOut = 60_000)
    public void jarAndDirectoryInOneRunSeeEachOther() throws Exception {
        // The library's superclass comes in a jar, the application's subclass in a directory.
        Path libClasses = Samples.compile(work.resolve("lib-classes"), Map.of("lib/Animal.java",
                "package lib; public class Animal implements java.io.Serializable { protected String name; }"));
        Path app = Samples.compile(work.resolve("app-classes"), Map.of("app/Dog.java",
                "package app; public class Dog extends lib.Animal { int legs = 4; }"), libClasses);
        Path jar = work.resolve("lib.jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            put(out, "lib/Animal.class", Files.readAllBytes(libClasses.resolve("lib/Animal.class")), false);
        }
        RewriteResult r = new Rewriter().rewrite(List.of(app, jar));
        assertEquals(r.outcome("lib.Animal").status(), ClassOutcome.Status.REWRITTEN);
        assertEquals(r.outcome("app.Dog").status(), ClassOutcome.Status.REWRITTEN);
        assertEquals(entryNames(jar), List.of("lib/Animal.class", "lib/Animal_ibis_io_Generator.class"));
        try (URLClassLoader loader = Samples.loader(app, jar)) {
            Class.forName("app.Dog", true, loader);
        }
    }
}
