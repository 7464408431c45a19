package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kevy.feed.client.cli.TailCommand;
import io.kevy.feed.sidecar.SidecarMain;
import io.kevy.persist.SnapshotCursorCommand;
import io.kevy.server.ServerCommand;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code bin/kevy ...} command line shown in the docs (README.md, docs/*.md, docs/zh-CN/*.md and the
 * examples' READMEs) names a subcommand of {@code bin/kevy} and options that parse: each line is parsed by the
 * picocli command that subcommand runs, in-process (the demo module has every one on its class path).
 *
 * <p>Convention: lines of {@code sh}, {@code bash}, {@code shell} and {@code console} blocks that start with
 * {@code bin/kevy } (or {@code $ bin/kevy }), and inline code spans {@code `bin/kevy ...`}, are checked; a
 * trailing {@code # comment}, and anything after a pipe or a redirection, is ignored. A usage synopsis with
 * brackets ({@code [--uri URI]}) goes in a {@code text} block, which is not checked. Redis commands shown in the
 * docs are run by kevy-server's {@code DocsExamplesIT}.
 */
class DocsCliLinesTest {
    private static final Path ROOT = root();
    private static final Pattern INLINE = Pattern.compile("`(bin/kevy(?: [^`]*)?)`");

    /** What each {@code bin/kevy} subcommand runs (bin/kevy's case labels), as a picocli command line. */
    private static Map<String, Supplier<CommandLine>> subcommands() {
        Map<String, Supplier<CommandLine>> m = new LinkedHashMap<>();
        m.put("demo", () -> new CommandLine(new DemoMain()));
        m.put("server", () -> new CommandLine(new ServerCommand()));
        m.put("snapshot-cursor", () -> new CommandLine(new SnapshotCursorCommand()));
        m.put("tail", () -> new CommandLine(new TailCommand()));
        m.put("bridge", SidecarMain::commandLine);
        m.put("cursor", SidecarMain::commandLine);
        return m;
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

    @Test
    void theSubcommandsHereAreTheLaunchersSubcommands() throws IOException {
        TreeSet<String> launcher = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^  ([a-z][a-z-]*)\\)$").matcher(Files.readString(ROOT.resolve("bin/kevy")));
        while (m.find()) {
            launcher.add(m.group(1));
        }
        assertThat(launcher).isEqualTo(new TreeSet<>(subcommands().keySet()));
    }

    @Test
    void everyBinKevyLineInTheDocsParses() throws IOException {
        List<String[]> lines = lines();
        assertThat(lines).as("bin/kevy lines found").hasSizeGreaterThan(20);
        List<String> failures = new ArrayList<>();
        for (String[] l : lines) {
            String problem = check(l[1]);
            if (problem != null) {
                failures.add(l[0] + ": " + l[1] + "\n    " + problem);
            }
        }
        System.out.println("DocsCliLinesTest: " + lines.size() + " bin/kevy lines checked");
        if (!failures.isEmpty()) {
            fail("bin/kevy lines in the docs that do not parse:\n" + String.join("\n", failures));
        }
    }

    /**
     * In each doc's shell block, a {@code bin/kevy tail} line that follows a {@code bin/kevy server} line reads that
     * server's feed, so the server line must start the feed ({@code --feed}): the README's usage once did not.
     */
    @Test
    void aServerLineFollowedByATailLineStartsTheFeed() throws IOException {
        List<String[]> lines = lines();
        List<String> failures = new ArrayList<>();
        String[] server = null;
        int pairs = 0;
        for (String[] l : lines) {
            List<String> w = words(l[1]);
            if (server != null && !l[0].substring(0, l[0].indexOf(':')).equals(server[0].substring(0,
                    server[0].indexOf(':')))) {
                server = null; // another file
            }
            if (w.size() > 1 && w.get(1).equals("server") && !w.contains("--help") && !w.contains("-h")) {
                server = l;
            } else if (w.size() > 1 && w.get(1).equals("tail") && server != null && !w.contains("--uri")) {
                pairs++;
                if (!words(server[1]).contains("--feed")) {
                    failures.add(server[0] + ": " + server[1] + " (followed by " + l[0] + ": " + l[1] + ")");
                }
            }
        }
        System.out.println("DocsCliLinesTest: " + pairs + " server line(s) followed by a tail line");
        assertThat(pairs).as("README's usage has one").isPositive();
        assertThat(failures).as("server lines without --feed before a tail line").isEmpty();
    }

    @Test
    void aWrongOptionOrSubcommandIsCaught() {
        assertThat(check("bin/kevy tail --prefix user:")).isNull();
        assertThat(check("bin/kevy cursor set --config b.toml --to tail --dry-run")).isNull();
        assertThat(check("bin/kevy tail --prefixes user:")).contains("Unknown option");
        assertThat(check("bin/kevy serve --port 1")).contains("no subcommand");
        assertThat(check("bin/kevy server --port")).isNotNull();
    }

    /** Null when {@code line} parses, else why not. */
    static String check(String line) {
        List<String> words = words(line);
        if (words.size() == 1 || List.of("--help", "-h", "help").contains(words.get(1))) {
            return null;
        }
        Supplier<CommandLine> cl = subcommands().get(words.get(1));
        if (cl == null) {
            return "no subcommand '" + words.get(1) + "' in bin/kevy";
        }
        List<String> args = new ArrayList<>(words.subList(2, words.size()));
        if (words.get(1).equals("cursor")) {
            args.add(0, "cursor");
        }
        try {
            cl.get().parseArgs(args.toArray(new String[0]));
            return null;
        } catch (CommandLine.ParameterException e) {
            return e.getMessage();
        }
    }

    /** The command words of a shell line: comment, pipe and redirection cut, quotes removed. */
    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    cur.append(c);
                }
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                cur = cur == null ? new StringBuilder() : cur;
            } else if (Character.isWhitespace(c)) {
                if (cur != null) {
                    out.add(cur.toString());
                    cur = null;
                }
            } else if ((c == '#' && cur == null) || c == '|' || c == '>' || c == '<' || c == '&' || c == ';') {
                break;
            } else {
                cur = cur == null ? new StringBuilder() : cur;
                cur.append(c);
            }
        }
        if (cur != null) {
            out.add(cur.toString());
        }
        return out;
    }

    /** {@code [file:line, command line]} for every bin/kevy line in the docs. */
    static List<String[]> lines() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(ROOT.resolve("README.md"));
        for (String dir : List.of("docs", "examples")) {
            try (Stream<Path> s = Files.walk(ROOT.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".md") && !p.toString().contains("/target/")).sorted()
                        .forEach(files::add);
            }
        }
        List<String[]> out = new ArrayList<>();
        for (Path f : files) {
            String name = ROOT.relativize(f).toString();
            List<String> text = Files.readAllLines(f);
            String lang = null;
            for (int i = 0; i < text.size(); i++) {
                String l = text.get(i);
                String t = l.strip();
                if (t.startsWith("```")) {
                    lang = lang == null ? t.substring(3).strip().toLowerCase(Locale.ROOT) : null;
                    continue;
                }
                String where = name + ":" + (i + 1);
                if (lang == null) {
                    Matcher m = INLINE.matcher(l);
                    while (m.find()) {
                        out.add(new String[] {where, m.group(1)});
                    }
                } else if (List.of("sh", "bash", "shell", "console").contains(lang.split("\\s+")[0])) {
                    String cmd = t.startsWith("$ ") ? t.substring(2) : t;
                    if (cmd.startsWith("bin/kevy ") || cmd.equals("bin/kevy")) {
                        out.add(new String[] {where, cmd});
                    }
                }
            }
        }
        return out;
    }
}
