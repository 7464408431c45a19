package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps generated documentation equal to its generator: a whole file ({@link #file}) or the text between
 * {@code <!-- NAME -->} and {@code <!-- /NAME -->} markers in a file ({@link #region}). The check fails with the
 * way to regenerate; with the system property {@code kevy.docs.write=true} it rewrites the file instead
 * ({@code ./mvnw -q -B -o test -pl MODULE -Dtest=THE_TEST -Dkevy.docs.write=true}).
 *
 * <p>Paths are resolved against the repository root (the parent of a module's working directory).
 */
public final class GeneratedDocs {
    /** The repository root, seen from a module's test working directory. */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private GeneratedDocs() {
    }

    /** True when the run should rewrite generated docs instead of checking them. */
    public static boolean writing() {
        return Boolean.getBoolean("kevy.docs.write");
    }

    /** {@code relative} (from the repository root) must be exactly {@code expected}. */
    public static void file(String relative, String expected) {
        Path p = ROOT.resolve(relative);
        try {
            if (writing()) {
                Files.createDirectories(p.getParent());
                Files.writeString(p, expected);
                return;
            }
            assertThat(Files.exists(p)).as("%s exists (generate it: -Dkevy.docs.write=true)", relative).isTrue();
            assertThat(Files.readString(p)).as("%s is generated (regenerate: -Dkevy.docs.write=true)", relative)
                    .isEqualTo(expected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text between the lines {@code <!-- name -->} and {@code <!-- /name -->} in {@code relative} must be
     * {@code expected}.
     */
    public static void region(String relative, String name, String expected) {
        Path p = ROOT.resolve(relative);
        try {
            String text = Files.readString(p);
            String open = "<!-- " + name + " -->\n";
            String close = "<!-- /" + name + " -->";
            int a = text.indexOf(open);
            int b = text.indexOf(close);
            assertThat(a).as("marker %s in %s", open.trim(), relative).isGreaterThanOrEqualTo(0);
            assertThat(b).as("marker %s after %s in %s", close, open.trim(), relative).isGreaterThan(a);
            if (writing()) {
                Files.writeString(p, text.substring(0, a + open.length()) + expected + text.substring(b));
                return;
            }
            assertThat(text.substring(a + open.length(), b))
                    .as("%s region %s (regenerate: -Dkevy.docs.write=true)", relative, name).isEqualTo(expected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A fenced {@code java} block of the lines of {@code source} (a test's source file, relative to the module)
     * between the two lines that are {@code marker} (e.g. {@code // docs:testing}), without their common
     * indentation, after the source's imports that those lines use (an import is used when its simple name, or a
     * static import's member name, occurs in them as a word): the docs then show code a test runs, imports
     * included, so it compiles as shown (examples/demo's {@code DocsJavaSnippetsTest}).
     */
    public static String javaBlock(Path source, String marker) {
        List<String> out = new ArrayList<>();
        List<String> imports = new ArrayList<>();
        boolean in = false;
        try {
            for (String l : Files.readAllLines(source)) {
                if (l.strip().equals(marker)) {
                    if (in) {
                        break;
                    }
                    in = true;
                } else if (in) {
                    out.add(l);
                } else if (l.startsWith("import ")) {
                    imports.add(l);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String code = String.join("\n", out);
        List<String> used = new ArrayList<>();
        for (String imp : imports) {
            String name = imp.substring(imp.lastIndexOf('.') + 1, imp.length() - 1);
            if (java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(name) + "\\b").matcher(code)
                    .find()) {
                used.add(imp);
            }
        }
        int indent = out.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                .min().orElse(0);
        StringBuilder sb = new StringBuilder("```java\n");
        if (!used.isEmpty()) {
            used.forEach(i -> sb.append(i).append('\n'));
            sb.append('\n');
        }
        for (String l : out) {
            sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return sb.append("```\n").toString();
    }
}
