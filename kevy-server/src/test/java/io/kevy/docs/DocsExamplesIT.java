package io.kevy.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.kevy.docs.DocsExamples.Example;
import io.kevy.docs.DocsExamples.Step;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisCli;
import io.kevy.testing.Resp;
import io.kevy.testing.TestServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every Redis command shown in README.md, docs/*.md, docs/zh-CN/*.md and the examples' READMEs runs here, so the
 * docs cannot rot.
 *
 * <p>The convention for writing examples in the docs:
 * <ul>
 *   <li>A fenced block whose language is {@code console} holds a redis-cli session: lines
 *       {@code 127.0.0.1:6004> COMMAND args} (any {@code host:port> } prompt; arguments split and quoted as
 *       redis-cli does), each followed by the reply exactly as interactive redis-cli 7.0 prints it
 *       ({@code OK}, {@code (integer) 1}, {@code "v"}, {@code (nil)}, {@code (error) ERR ...},
 *       {@code (empty array)}, numbered nested arrays). A line {@code $ redis-cli [-h H] [-p P] COMMAND args}
 *       counts as a prompt line too; other {@code $ ...} lines (e.g. {@code $ bin/kevy ...}) and their output
 *       are not run here.</li>
 *   <li>Each block runs on its own connection against an empty server with the feed on and <b>4 shards</b>
 *       (FLUSHALL before the block: every shard at offset 0 of a new generation), its steps in order.</li>
 *   <li>Values that differ per run (generations, absolute times) are written {@code <name>} in a reply line:
 *       the first occurrence matches any run of characters other than space and {@code "} and binds the name;
 *       later occurrences, in replies or in commands of the same block, stand for the bound value. So
 *       {@code FEED.TAIL 0} shows {@code 1) (integer) <gen>} and a later {@code FEED.READ 0 <gen> 0} reuses it.</li>
 *   <li>In {@code sh} blocks, {@code redis-cli [-p P] COMMAND args} lines (without pipes) are run too; their
 *       reply is not shown, so it only must not be an error.</li>
 * </ul>
 * Commands of {@code bin/kevy} shown in the docs are checked by the demo module's {@code DocsCliLinesTest}.
 */
class DocsExamplesIT {
    private static final Pattern VAR = Pattern.compile("<([a-z][a-z0-9]*)>");
    private static TestServer server;

    @BeforeAll
    static void start() {
        server = TestServer.start(c -> c.with(ServerOptions.SHARDS, 4).with(ServerOptions.FEED_ENABLED, true));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theFeedDocsHaveExamplesInBothLanguages() {
        List<Example> all = DocsExamples.all();
        assertThat(all).as("examples in docs/cdc.md").anyMatch(e -> e.file().equals("docs/cdc.md"));
        assertThat(all).as("examples in docs/zh-CN/cdc.md").anyMatch(e -> e.file().equals("docs/zh-CN/cdc.md"));
        assertThat(all).as("the README's redis-cli line").anyMatch(e -> e.file().equals("README.md"));
        long steps = all.stream().mapToLong(e -> e.steps().size()).sum();
        System.out.println("DocsExamplesIT: " + all.size() + " examples, " + steps + " commands");
    }

    @Test
    void theConventionParsesPromptsRepliesVariablesAndShellLines() {
        List<Example> ex = DocsExamples.parse("x.md", List.of(
                "```console", "127.0.0.1:6004> SET k v", "OK", "$ bin/kevy server --feed", "started",
                "$ redis-cli -p 6004 GET k", "\"v\"", "```",
                "```sh", "redis-cli -p 6004 SET a b   # note", "redis-cli --pipe < x", "```"));
        assertThat(ex).hasSize(2);
        assertThat(ex.get(0).steps()).extracting(Step::command).containsExactly("SET k v", "GET k");
        assertThat(ex.get(0).steps().get(0).expected()).containsExactly("OK");
        assertThat(ex.get(0).steps().get(1).expected()).containsExactly("\"v\"");
        assertThat(ex.get(1).steps()).extracting(Step::command).containsExactly("SET a b");
        Map<String, String> vars = new HashMap<>();
        assertThat(matches("1) (integer) <gen>", "1) (integer) 42", vars)).isTrue();
        assertThat(vars).containsEntry("gen", "42");
        assertThat(matches("(error) FEEDRESYNC <gen> 0", "(error) FEEDRESYNC 43 0", vars)).isFalse();
        assertThat(substitute("FEED.READ 0 <gen> 0", vars)).isEqualTo("FEED.READ 0 42 0");
    }

    @TestFactory
    Stream<DynamicTest> everyExampleInTheDocsGivesTheRepliesShown() {
        return DocsExamples.all().stream().map(e -> DynamicTest.dynamicTest(e.toString(), () -> run(e)));
    }

    private static void run(Example e) {
        try (RawClient c = RawClient.connect(server.port())) {
            assertThat(c.call("FLUSHALL")).isEqualTo("+OK\r\n");
            Map<String, String> vars = new HashMap<>();
            for (Step s : e.steps()) {
                String command = substitute(s.command(), vars);
                List<byte[]> args = RedisCli.splitArgs(command);
                c.send(RawClient.encode(args.toArray(new byte[0][])));
                Object reply = Resp.parse(c.readReplyBytes());
                List<String> actual = RedisCli.format(reply);
                String where = e.file() + ":" + s.line() + ": " + command;
                if (!s.replyShown()) {
                    assertThat(reply).as(where).isNotInstanceOf(Resp.Err.class);
                    continue;
                }
                if (actual.size() != s.expected().size()) {
                    fail("%s%nshown:%n%s%nactual:%n%s", where, String.join("\n", s.expected()),
                            String.join("\n", actual));
                }
                for (int i = 0; i < actual.size(); i++) {
                    if (!matches(s.expected().get(i), actual.get(i), vars)) {
                        fail("%s, reply line %d%nshown:%n%s%nactual:%n%s", where, i + 1,
                                String.join("\n", s.expected()), String.join("\n", actual));
                    }
                }
            }
        }
    }

    /** Matches one shown reply line against the actual one, binding the line's new {@code <name>}s. */
    static boolean matches(String shown, String actual, Map<String, String> vars) {
        StringBuilder regex = new StringBuilder();
        Matcher m = VAR.matcher(shown);
        int last = 0;
        List<String> binding = new java.util.ArrayList<>();
        while (m.find()) {
            regex.append(Pattern.quote(shown.substring(last, m.start())));
            String name = m.group(1);
            if (vars.containsKey(name)) {
                regex.append(Pattern.quote(vars.get(name)));
            } else if (binding.contains(name)) {
                regex.append("\\").append(binding.indexOf(name) + 1);
            } else {
                binding.add(name);
                regex.append("([^\\s\"]+)");
            }
            last = m.end();
        }
        regex.append(Pattern.quote(shown.substring(last)));
        Matcher a = Pattern.compile(regex.toString()).matcher(actual);
        if (!a.matches()) {
            return false;
        }
        for (int i = 0; i < binding.size(); i++) {
            vars.put(binding.get(i), a.group(i + 1));
        }
        return true;
    }

    static String substitute(String command, Map<String, String> vars) {
        Matcher m = VAR.matcher(command);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String v = vars.get(m.group(1));
            if (v == null) {
                throw new IllegalArgumentException("unbound <" + m.group(1) + "> in: " + command);
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(v));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
