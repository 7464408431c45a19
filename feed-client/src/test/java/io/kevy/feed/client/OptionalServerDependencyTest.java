package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The SDK does not need kevy-server (a test-scope dependency only; the embedded source is feed-client-embedded
 * since issue 24): every class of the feed client loads and links without it, and a remote source can be made
 * and closed. Checked in a class loader whose class path is this test's minus kevy-server.
 * {@code .ci/structure.sh} checks the same on the jar with jdeps.
 */
class OptionalServerDependencyTest {
    private static List<URL> classPathWithoutServer() throws Exception {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            entries.add(e);
            if (e.endsWith(".jar")) {
                try (JarFile jar = new JarFile(e)) {
                    String cp = jar.getManifest() == null ? null
                            : jar.getManifest().getMainAttributes().getValue("Class-Path");
                    if (cp != null) {
                        for (String u : cp.split(" ")) {
                            if (!u.isBlank()) {
                                entries.add(new File(new java.net.URI(u)).getPath());
                            }
                        }
                    }
                }
            }
        }
        List<URL> urls = new ArrayList<>();
        for (String e : entries) {
            if (!e.contains("kevy-server") && !e.contains("test-classes")) {
                urls.add(new File(e).toURI().toURL());
            }
        }
        return urls;
    }

    @Test
    void everyClassWorksWithoutKevyServer() throws Throwable {
        Path classes = Path.of("target", "classes");
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.walk(classes)) {
            s.filter(p -> p.toString().endsWith(".class")).forEach(p -> names.add(classes.relativize(p).toString()
                    .replace(File.separatorChar, '.').replaceAll("\\.class$", "")));
        }
        try (URLClassLoader loader = new URLClassLoader(classPathWithoutServer().toArray(new URL[0]),
                ClassLoader.getPlatformClassLoader())) {
            assertThat(loader.getResource("io/kevy/embedded/Store.class")).as("no kevy-server here").isNull();
            int loaded = 0;
            for (String n : names) {
                Class.forName(n, true, loader);
                loaded++;
            }
            assertThat(loaded).isGreaterThan(40);
            Class<?> fs = Class.forName("io.kevy.feed.client.FeedSource", true, loader);
            assertThat(fs.getMethods()).as("no method names an engine type").isNotEmpty();
            java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.publicLookup();
            Object source = lookup.findStatic(fs, "connect", java.lang.invoke.MethodType.methodType(fs, String.class))
                    .invoke("redis://127.0.0.1:1?timeout=1s");
            assertThat(lookup.findVirtual(fs, "authority", java.lang.invoke.MethodType.methodType(String.class))
                    .invoke(source)).isEqualTo("127.0.0.1:1");
            lookup.findVirtual(fs, "close", java.lang.invoke.MethodType.methodType(void.class)).invoke(source);
        }
    }
}
