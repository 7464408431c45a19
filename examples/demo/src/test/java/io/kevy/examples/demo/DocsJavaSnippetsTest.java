package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every {@code java} block of the user-facing pages (README.md, docs/consumer.md, docs/cdc.md, docs/bridges.md,
 * docs/zh-CN/cdc.md) compiles as shown, with javax.tools against this module's test class path (the demo module
 * sees every kevy module, Caffeine and the test libraries).
 *
 * <p>Convention: a block is its {@code import} lines, then statements; the test puts the statements into a method
 * {@code void snippet() throws Exception} of a class in a package of its own, so a block must import (or fully
 * qualify) every type it uses and declare every variable, as a reader's copy would. Errors are reported at the
 * page's line.
 */
class DocsJavaSnippetsTest {
    private static final Path ROOT = root();
    private static final List<String> PAGES = List.of("README.md", "docs/consumer.md", "docs/cdc.md",
            "docs/bridges.md", "docs/zh-CN/cdc.md");
    private static final Pattern TYPE_DECLARATION =
            Pattern.compile("^(public |final |abstract |sealed )*(class|record|interface|enum) ");

    /** A block: where it starts (the page's line of its first content line), its imports and statements. */
    record Snippet(String page, int firstLine, List<String> imports, List<String> body) {
        String className(int i) {
            return "Snippet" + i;
        }

        /** The source; its statements start at line {@code imports().size() + 3}. */
        String source(int i) {
            StringBuilder sb = new StringBuilder("package kevy.docs.snippets;\n");
            imports.forEach(l -> sb.append(l).append('\n'));
            sb.append("class ").append(className(i)).append(" {\n");
            sb.append("void snippet() throws Exception {\n");
            body.forEach(l -> sb.append(l).append('\n'));
            return sb.append("}\n}\n").toString();
        }

        /** The page's line of a line of {@link #source}; imports and statements keep their own lines. */
        String where(long sourceLine) {
            long line = sourceLine - 1; // the package line
            if (line <= imports.size()) {
                return page + ":" + (firstLine + line - 1);
            }
            return page + ":" + (firstLine + line - 3);
        }
    }

    private static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("bin/kevy"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("no bin/kevy above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    static List<Snippet> snippets() throws IOException {
        List<Snippet> out = new ArrayList<>();
        for (String page : PAGES) {
            List<String> text = Files.readAllLines(ROOT.resolve(page));
            for (int i = 0; i < text.size(); i++) {
                String t = text.get(i).strip();
                if (!t.startsWith("```java")) {
                    continue;
                }
                int first = i + 2;
                List<String> imports = new ArrayList<>();
                List<String> body = new ArrayList<>();
                boolean inImports = true;
                for (i++; i < text.size() && !text.get(i).strip().startsWith("```"); i++) {
                    String l = text.get(i);
                    if (inImports && (l.startsWith("import ") || l.isBlank())) {
                        imports.add(l);
                    } else {
                        inImports = false;
                        body.add(l);
                    }
                }
                out.add(new Snippet(page, first, imports, body));
            }
        }
        return out;
    }

    @Test
    void everyJavaBlockOfTheDocsCompilesAsShown() throws IOException {
        List<Snippet> snippets = snippets();
        System.out.println("DocsJavaSnippetsTest: " + snippets.size() + " java blocks in " + PAGES);
        assertThat(snippets).as("java blocks found").hasSizeGreaterThanOrEqualTo(5);
        List<String> problems = new ArrayList<>();
        List<JavaFileObject> units = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            Snippet s = snippets.get(i);
            String firstStatement = s.body().stream().map(String::strip).filter(l -> !l.isEmpty()).findFirst()
                    .orElse("");
            if (TYPE_DECLARATION.matcher(firstStatement).find()) {
                problems.add(s.page() + ":" + s.firstLine() + ": declares a type; blocks are imports + statements");
                continue;
            }
            String source = s.source(i);
            units.add(new SimpleJavaFileObject(URI.create("string:///kevy/docs/snippets/" + s.className(i)
                    + ".java"), JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return source;
                }
            });
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler").isNotNull();
        Path out = Files.createDirectories(Path.of("target", "docs-snippets"));
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-proc:none", "-implicit:none", "-d", out.toString(),
                    "-classpath", classPath());
            boolean ok = javac.getTask(null, files, diagnostics, options, null, units).call();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) {
                    continue;
                }
                String name = d.getSource().getName();
                int i = Integer.parseInt(name.substring(name.lastIndexOf("Snippet") + 7, name.length() - 5));
                problems.add(snippets.get(i).where(d.getLineNumber()) + ": " + d.getMessage(Locale.ROOT));
            }
            if (!ok && problems.isEmpty()) {
                problems.add("javac failed without an error diagnostic: " + diagnostics.getDiagnostics());
            }
        }
        if (!problems.isEmpty()) {
            fail("java blocks in the docs that do not compile as shown:\n" + String.join("\n", problems));
        }
    }

    /** Surefire's test class path (java.class.path is its booter jar when it uses a manifest-only jar). */
    private static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    @Test
    void aBlockThatDoesNotCompileIsReportedAtItsPageLine() {
        Snippet s = new Snippet("docs/x.md", 10, List.of("import java.util.List;", ""), List.of("int a = 1;",
                "undefined.call();"));
        assertThat(s.source(0).lines().toList().get(5)).isEqualTo("int a = 1;");
        assertThat(s.where(2)).as("the import line").isEqualTo("docs/x.md:10");
        assertThat(s.where(7)).as("the second statement").isEqualTo("docs/x.md:13");
    }
}
