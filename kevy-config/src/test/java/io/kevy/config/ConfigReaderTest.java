package io.kevy.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one loader of the option tables, on a small table with a root key, a section and an array of tables:
 * precedence, the file:line: key: reason errors, and hostile files. (The server's and the sidecar's own tests,
 * ConfigLoaderTest and SidecarConfigTest, pin their tables' messages.)
 */
class ConfigReaderTest {
    static final Option<Long> PORT = Option.integer("", "port", 6004, 0, 65535, "port").env("T_PORT");
    static final Option<Boolean> ON = Option.bool("feed", "enabled", false, "on");
    static final Option<String> MODE = Option.oneOf("feed", "mode", "a", List.of("a", "b"), "mode");
    static final Option<List<String>> TAGS = Option.stringList("feed", "tags", List.of(), "tags", s -> s);
    static final Option<String> TOPIC = Option.nonBlank("feed.routes", "topic", null, "topic").required();
    static final Option<List<OptionValues>> ROUTES = Option.tables("feed", "routes", "routes", List.of(TOPIC));
    static final List<Option<?>> TABLE = List.of(PORT, ON, MODE, TAGS, ROUTES);

    @TempDir
    Path dir;

    private OptionValues load(String toml, Map<String, String> env, Map<Option<?>, String> flags) throws IOException {
        Path f = dir.resolve("t.toml");
        Files.writeString(f, toml);
        ConfigReader r = new ConfigReader(f.toString());
        r.readTable(ConfigReader.parse(f), "", TABLE);
        r.readEnv(env, TABLE, o -> o.env() != null ? o.env() : o.hasStringForm() ? ConfigReader.derivedEnv("T_", o)
                : null);
        r.readFlags(flags, o -> o.name());
        r.checkRequired(TABLE);
        return r.values(f.toString());
    }

    private void fails(String toml, String message) {
        assertThatThrownBy(() -> load(toml, Map.of(), Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve(message).toString());
    }

    @Test
    void defaultsThenTomlThenEnvironmentThenFlags() throws IOException {
        OptionValues v = load("port = 1\n[feed]\nenabled = true\ntags = [\"x\"]\n[[feed.routes]]\ntopic = \"t\"\n",
                Map.of("T_PORT", "2", "T_FEED_MODE", "B"), Map.of(PORT, "3"));
        assertThat(v.get(PORT)).isEqualTo(3L);
        assertThat(v.origin(PORT)).isEqualTo("option --port");
        assertThat(v.get(MODE)).isEqualTo("b");
        assertThat(v.origin(MODE)).isEqualTo("environment variable T_FEED_MODE");
        assertThat(v.get(ON)).isTrue();
        assertThat(v.origin(ON)).isEqualTo(dir.resolve("t.toml:3").toString());
        assertThat(v.get(TAGS)).containsExactly("x");
        assertThat(v.get(ROUTES)).hasSize(1);
        assertThat(v.get(ROUTES).get(0).get(TOPIC)).isEqualTo("t");
        assertThat(load("", Map.of(), Map.of()).get(PORT)).isEqualTo(6004L);
    }

    @Test
    void errorsNameFileLineKeyAndReason() {
        fails("bogus = 1\n", "t.toml:1: bogus: unknown key");
        fails("[feed]\nbogus = 1\n", "t.toml:2: feed.bogus: unknown key (known in [feed]: enabled, mode, tags, routes)");
        fails("port = \"x\"\n", "t.toml:1: port: must be an integer, got the string \"x\"");
        fails("port = 70000\n", "t.toml:1: port: must be between 0 and 65535, got 70000");
        fails("[feed]\nenabled = 1\n", "t.toml:2: feed.enabled: must be a boolean (true or false), got the integer 1");
        fails("[feed]\nmode = \"c\"\n", "t.toml:2: feed.mode: must be one of a, b, got 'c'");
        fails("[feed]\ntags = \"x\"\n", "t.toml:2: feed.tags: must be an array of strings, got the string \"x\"");
        fails("[feed]\nmode = [1]\n", "t.toml:2: feed.mode: must be a string, got an array");
        fails("[[feed.routes]]\nbogus = 1\n", "t.toml:2: feed.routes.bogus: unknown key (known: topic)");
        fails("[[feed.routes]]\n", "t.toml:1: [[feed.routes]] needs topic: topic");
        assertThatThrownBy(() -> load("port = \n", Map.of(), Map.of())).isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("t.toml:1: Unexpected end of line, expected a value").toString());
        assertThatThrownBy(() -> load("", Map.of("T_PORT", "x"), Map.of()))
                .hasMessage("environment variable T_PORT (port): must be an integer, got 'x'");
        assertThatThrownBy(() -> load("", Map.of(), Map.of(ON, "maybe")))
                .hasMessage("option --enabled (feed.enabled): must be true or false, got 'maybe'");
        assertThatThrownBy(() -> ConfigReader.parse(dir.resolve("none.toml")))
                .hasMessageEndingWith("none.toml: config file not found");
    }

    @Test
    void hostileFilesFailWithAConfigErrorNotACrash() throws IOException {
        long seed = System.nanoTime();
        System.out.println("ConfigReaderTest seed " + seed);
        Random r = new Random(seed);
        String good = "port = 1\n[feed]\nenabled = true\ntags = [\"x\", \"y\"]\n[[feed.routes]]\ntopic = \"t\"\n";
        for (int i = 0; i < 300; i++) {
            byte[] b = good.getBytes(StandardCharsets.UTF_8);
            for (int k = 0; k < 1 + r.nextInt(3); k++) {
                b[r.nextInt(b.length)] = (byte) r.nextInt(256);
            }
            try {
                load(new String(b, StandardCharsets.ISO_8859_1), Map.of(), Map.of());
            } catch (ConfigException expected) {
                assertThat(expected.getMessage()).as("seed " + seed).startsWith(dir.resolve("t.toml:").toString());
            }
        }
        assertThatThrownBy(() -> load("[" + "a.".repeat(5000) + "b]\nx = 1\n", Map.of(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessage(dir.resolve("t.toml:1: Nesting is too deep (more than 128 levels of tables and arrays)")
                        .toString());
        fails("x".repeat(100_000) + " = 1\n", "t.toml:1: " + "x".repeat(100_000) + ": unknown key");
    }

    @Test
    void aSecretOptionsErrorNeverShowsItsValueButKeepsAReasonThatDoesNot() throws IOException {
        Option<String> pass = Option.string("", "pass", "", "password").secret();
        Option<List<String>> keys = Option.stringList("", "keys", List.of(), "keys", s -> {
            if (s.length() < 8) {
                throw new IllegalArgumentException("key #1 has " + s.length() + " bytes; 8 at least");
            }
            return s;
        }).secret();
        Option<List<String>> echoing = Option.stringList("", "echoing", List.of(), "keys", s -> {
            throw new IllegalArgumentException("bad key " + s);
        }).secret();
        Path f = dir.resolve("s.toml");
        for (var c : List.of(
                Map.entry("pass = 12345678\n", "s.toml:1: pass: must be a string (the value is not shown: it is a secret)"),
                Map.entry("keys = [\"short\"]\n", "s.toml:1: keys: key #1 has 5 bytes; 8 at least"),
                Map.entry("echoing = [\"hunter2\"]\n", "s.toml:1: echoing: invalid value (the value is not shown: it is a "
                        + "secret)"))) {
            Files.writeString(f, c.getKey());
            ConfigReader r = new ConfigReader(f.toString());
            assertThatThrownBy(() -> r.readTable(ConfigReader.parse(f), "", List.of(pass, keys, echoing)))
                    .isInstanceOf(ConfigException.class).hasMessage(dir.resolve(c.getValue()).toString())
                    .message().doesNotContain("12345678", "short\"", "hunter2");
        }
    }
}
