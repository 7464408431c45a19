package io.kevy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.GeneratedDocs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the Markdown of the repository (README.md, docs/, the modules' and examples' READMEs)
 * points to a file that exists, and a {@code #fragment} to a heading of that file (GitHub's anchor rules: lower
 * case, punctuation dropped, spaces to {@code -}, {@code -1}, {@code -2} for repeats). Links into code blocks are
 * not links and are skipped.
 */
class DocsLinksTest {
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");
    private static final Path ROOT = GeneratedDocs.ROOT;

    @Test
    void everyRelativeLinkAndAnchorInTheDocsResolves() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path f : markdownFiles()) {
            List<String> lines = Files.readAllLines(f);
            boolean code = false;
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i);
                if (l.strip().startsWith("```")) {
                    code = !code;
                    continue;
                }
                if (code) {
                    continue;
                }
                Matcher m = LINK.matcher(l.replaceAll("`[^`]*`", "``"));
                while (m.find()) {
                    String target = m.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue;
                    }
                    links++;
                    String problem = check(f, target);
                    if (problem != null) {
                        broken.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + target + ": " + problem);
                    }
                }
            }
        }
        System.out.println("DocsLinksTest: " + links + " relative links checked");
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void anchorsFollowGithubsRules() {
        assertThat(anchors(List.of("## Reading: FEED.SHARDS, FEED.TAIL, FEED.READ", "## `kevy tail`",
                "## Errors", "### Errors", "## 游标：`(generation, offset)`")))
                .containsExactlyInAnyOrder("reading-feedshards-feedtail-feedread", "kevy-tail", "errors",
                        "errors-1", "游标generation-offset");
    }

    private static String check(Path from, String target) throws IOException {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path p = file.isEmpty() ? from : from.getParent().resolve(file).normalize();
        if (!Files.exists(p)) {
            return "no such file";
        }
        if (hash < 0 || !p.toString().endsWith(".md")) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        return anchors(Files.readAllLines(p)).contains(anchor) ? null : "no heading with anchor #" + anchor;
    }

    static Set<String> anchors(List<String> lines) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean code = false;
        for (String l : lines) {
            if (l.strip().startsWith("```")) {
                code = !code;
                continue;
            }
            if (code || !l.startsWith("#")) {
                continue;
            }
            String text = l.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT);
            StringBuilder slug = new StringBuilder();
            text.codePoints().forEach(c -> {
                if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                    slug.appendCodePoint(c);
                } else if (c == ' ') {
                    slug.append('-');
                }
            });
            String s = slug.toString();
            int n = seen.merge(s, 1, Integer::sum);
            out.add(n == 1 ? s : s + "-" + (n - 1));
        }
        return out;
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(ROOT)) {
            s.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        String r = ROOT.relativize(p).toString();
                        return !r.contains("target/") && !r.startsWith(".") && !r.contains("/.")
                                && !r.startsWith("node_modules");
                    })
                    .sorted().forEach(out::add);
        }
        return out;
    }
}
