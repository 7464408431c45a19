package io.kevy.docs;

import io.kevy.testing.GeneratedDocs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the Redis command examples in the repository's Markdown (README.md, docs/*.md, docs/zh-CN/*.md and the
 * examples' READMEs); the convention they follow is described in {@link DocsExamplesIT}.
 */
final class DocsExamples {
    /** A redis-cli prompt: {@code 127.0.0.1:6004> CMD ...}. */
    static final Pattern PROMPT = Pattern.compile("^[\\w.\\-]+:\\d+> (.*)$");
    /** A shell line running redis-cli with a command: {@code [$ ]redis-cli [-h H] [-p P] CMD ...}. */
    static final Pattern SHELL_CLI = Pattern.compile("^(?:\\$ )?redis-cli((?: -[hpna] \\S+)*) (?!-)(.+)$");

    /** One command line and the reply lines shown under it (empty for an unchecked shell line). */
    record Step(int line, String command, List<String> expected, boolean replyShown) {
    }

    /** One fenced block: its steps run in order on an empty server. */
    record Example(String file, int line, List<Step> steps) {
        @Override
        public String toString() {
            return file + ":" + line;
        }
    }

    private DocsExamples() {
    }

    /** The Markdown files whose examples are checked, relative to the repository root. */
    static List<String> files() {
        List<String> out = new ArrayList<>();
        out.add("README.md");
        for (String dir : List.of("docs", "docs/zh-CN", "examples")) {
            Path d = GeneratedDocs.ROOT.resolve(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = dir.equals("examples") ? Files.walk(d, 2) : Files.list(d)) {
                s.filter(p -> dir.equals("examples") ? p.getFileName().toString().equals("README.md")
                                : p.toString().endsWith(".md")).sorted()
                        .forEach(p -> out.add(GeneratedDocs.ROOT.relativize(p).toString().replace('\\', '/')));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /** Every example in every file of {@link #files()}. */
    static List<Example> all() {
        List<Example> out = new ArrayList<>();
        for (String f : files()) {
            try {
                out.addAll(parse(f, Files.readAllLines(GeneratedDocs.ROOT.resolve(f))));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    /**
     * The examples of one file: each {@code console} block with prompt lines, and each {@code sh}/{@code console}
     * block's {@code redis-cli ... CMD} shell lines (in a {@code sh} block the reply is not shown: the step only
     * must not fail).
     */
    static List<Example> parse(String file, List<String> lines) {
        List<Example> out = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String l = lines.get(i);
            String trimmed = l.strip();
            if (!trimmed.startsWith("```")) {
                i++;
                continue;
            }
            String lang = trimmed.substring(3).strip().split("\\s+")[0].toLowerCase(Locale.ROOT);
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).strip().startsWith("```")) {
                end++;
            }
            if (lang.equals("console")) {
                Example e = console(file, start, lines.subList(start, end));
                if (!e.steps().isEmpty()) {
                    out.add(e);
                }
            } else if (lang.equals("sh") || lang.equals("bash") || lang.equals("shell")) {
                List<Step> steps = new ArrayList<>();
                for (int k = start; k < end; k++) {
                    String cmd = shellCliCommand(lines.get(k));
                    if (cmd != null) {
                        steps.add(new Step(k + 1, cmd, List.of(), false));
                    }
                }
                if (!steps.isEmpty()) {
                    out.add(new Example(file, start, steps));
                }
            }
            i = end + 1;
        }
        return out;
    }

    private static Example console(String file, int start, List<String> block) {
        List<Step> steps = new ArrayList<>();
        int cmdLine = -1;
        String cmd = null;
        List<String> expected = new ArrayList<>();
        boolean skipping = false;
        for (int k = 0; k < block.size(); k++) {
            String l = block.get(k);
            Matcher m = PROMPT.matcher(l);
            String shell = shellCliCommand(l);
            if (m.matches() || shell != null || l.startsWith("$ ")) {
                if (cmd != null) {
                    steps.add(new Step(cmdLine, cmd, List.copyOf(expected), true));
                }
                expected.clear();
                cmd = m.matches() ? m.group(1) : shell;
                cmdLine = start + k + 1;
                skipping = cmd == null;
            } else if (cmd != null) {
                expected.add(l);
            } else if (!skipping && !steps.isEmpty()) {
                throw new IllegalArgumentException(file + ":" + (start + k + 1) + ": a reply line without a command");
            }
        }
        if (cmd != null) {
            steps.add(new Step(cmdLine, cmd, List.copyOf(expected), true));
        }
        return new Example(file, start, steps);
    }

    /** The Redis command of a {@code redis-cli [-h H] [-p P] CMD ...} shell line, or null. */
    static String shellCliCommand(String line) {
        String l = line.strip();
        int hash = l.indexOf(" #");
        if (hash >= 0) {
            l = l.substring(0, hash).strip();
        }
        if (l.contains("|") || l.endsWith("&")) {
            return null;
        }
        Matcher m = SHELL_CLI.matcher(l);
        return m.matches() ? m.group(2) : null;
    }
}
