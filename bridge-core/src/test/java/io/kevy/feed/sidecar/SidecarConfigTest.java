package io.kevy.feed.sidecar;

import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The TOML loader: values, defaults, environment overrides, and every kind of error with file and line. */
class SidecarConfigTest {
    /** A sink type with every kind of option, for the loader. */
    static final class TestProvider implements SinkProvider {
        static final Option<String> URL = Option.nonBlank("sink.test", "url", null, "where").required()
                .example("\"http://x\"");
        static final Option<String> TOKEN = Option.string("sink.test", "token", "", "a token").secret();
        static final Option<Map<String, String>> PROPS = Option.stringTable("sink.test", "props",
                "free-form", k -> k);
        static final Option<String> PREFIX = Option.string("sink.test.routes", "prefix", null, "p")
                .required();
        static final Option<String> TOPIC = Option.string("sink.test.routes", "topic", "t", "t");
        static final Option<List<OptionValues>> ROUTES = Option.tables("sink.test", "routes", "routes",
                List.of(PREFIX, TOPIC));

        @Override
        public String type() {
            return "test";
        }

        @Override
        public List<Option<?>> options() {
            return List.of(URL, TOKEN, PROPS, ROUTES);
        }

        @Override
        public SidecarSink open(SinkContext context) {
            throw new UnsupportedOperationException();
        }
    }

    @TempDir
    Path dir;

    private Path write(String toml) throws IOException {
        Path p = dir.resolve("bridge.toml");
        Files.writeString(p, toml);
        return p;
    }

    private SidecarConfig load(String toml, Map<String, String> env) throws IOException {
        return SidecarConfig.load(write(toml), env, List.of(new FileSinkProvider(), new TestProvider()));
    }

    private void fails(String toml, String... parts) {
        assertThatThrownBy(() -> load(toml, Map.of())).isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(e.getMessage()).contains(parts));
    }

    @Test
    void readsEveryKindOfValueAndKeepsDefaults() throws Exception {
        SidecarConfig c = load("""
                [source]
                uri = "redis://10.0.0.1:7000"
                [consumer]
                name = "orders"
                prefixes = ["user:", "order:"]
                batch_size = 512
                [sink.test]
                url = "http://h/x"
                props = { "linger.ms" = 5, "acks" = "all", "x.enabled" = true }
                [[sink.test.routes]]
                prefix = "user:"
                topic = "users"
                [[sink.test.routes]]
                prefix = "order:"
                """, Map.of());
        assertThat(c.sinkType()).isEqualTo("test");
        assertThat(c.get(SidecarOptions.SOURCE_URI)).isEqualTo("redis://10.0.0.1:7000");
        assertThat(c.get(SidecarOptions.CONSUMER_PREFIXES)).containsExactly("user:", "order:");
        assertThat(c.get(SidecarOptions.CONSUMER_BATCH_SIZE)).isEqualTo(512L);
        assertThat(c.get(SidecarOptions.HTTP_PORT)).isEqualTo(8686L);
        assertThat(c.get(TestProvider.PROPS)).containsEntry("linger.ms", "5").containsEntry("acks", "all")
                .containsEntry("x.enabled", "true");
        List<OptionValues> routes = c.get(TestProvider.ROUTES);
        assertThat(routes).hasSize(2);
        assertThat(routes.get(0).get(TestProvider.TOPIC)).isEqualTo("users");
        assertThat(routes.get(1).get(TestProvider.TOPIC)).isEqualTo("t");
        assertThat(c.values().origin(SidecarOptions.CONSUMER_BATCH_SIZE)).endsWith("bridge.toml:6");
    }

    @Test
    void environmentOverridesTheFile() throws Exception {
        SidecarConfig c = load("""
                [consumer]
                batch_size = 512
                [sink.test]
                url = "http://h/x"
                """, Map.of("KEVY_BRIDGE_CONSUMER_BATCH_SIZE", "64", "KEVY_BRIDGE_SINK_TEST_TOKEN", "s3cret",
                "KEVY_BRIDGE_CONSUMER_PREFIXES", "a:, b:", "KEVY_BRIDGE_SINK_FILE_PATH", "ignored for test",
                "OTHER", "x"));
        assertThat(c.get(SidecarOptions.CONSUMER_BATCH_SIZE)).isEqualTo(64L);
        assertThat(c.get(SidecarOptions.CONSUMER_PREFIXES)).containsExactly("a:", "b:");
        assertThat(c.get(TestProvider.TOKEN)).isEqualTo("s3cret");
        assertThat(c.values().origin(SidecarOptions.CONSUMER_BATCH_SIZE))
                .isEqualTo("environment variable KEVY_BRIDGE_CONSUMER_BATCH_SIZE");
        assertThat(String.join("\n", Sidecar.describe(c, true))).doesNotContain("s3cret").contains("token = ****");
        assertThatThrownBy(() -> load("[sink.test]\nurl = \"u\"\n", Map.of("KEVY_BRIDGE_CONSUMER_BATCH_SIZE", "0")))
                .hasMessageContaining("environment variable KEVY_BRIDGE_CONSUMER_BATCH_SIZE (consumer.batch_size): "
                        + "must be between 1 and 4096, got 0");
        assertThatThrownBy(() -> load("[sink.test]\nurl = \"u\"\n", Map.of("KEVY_BRIDGE_CONSUMER_BATCHSIZE", "1")))
                .hasMessageContaining("environment variable KEVY_BRIDGE_CONSUMER_BATCHSIZE: unknown setting");
    }

    @Test
    void errorsNameFileLineKeyAndReason() {
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nbatch_sise = 5\n", "bridge.toml:4: consumer.batch_sise: unknown key",
                "batch_size");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nbatch_size = 0\n",
                "bridge.toml:4: consumer.batch_size: must be between 1 and 4096, got 0");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nbatch_size = \"10\"\n",
                "bridge.toml:4: consumer.batch_size: must be an integer, got the string \"10\"");
        fails("[sink.test]\nurl = \"u\"\n[http]\nenabled = \"yes\"\n", "bridge.toml:4: http.enabled: must be a boolean");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nstart_from = \"middle\"\n",
                "bridge.toml:4: consumer.start_from: must be one of tail, earliest, rebuild, got 'middle'");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nprefixes = \"user:\"\n",
                "bridge.toml:4: consumer.prefixes: must be an array of strings");
        fails("[sink.test]\nurl = \"u\"\n\n[sorce]\nuri = \"x\"\n", "bridge.toml:4: unknown section [sorce]");
        fails("[sink.kafak]\nx = 1\n", "bridge.toml:1: unknown sink type [sink.kafak]", "file, test");
        fails("[sink.test]\nurl = \"u\"\n[sink.file]\npath = \"p\"\n", "exactly one [sink.<type>] section");
        fails("[consumer]\nname = \"a\"\n", "no [sink.<type>] section");
        fails("[sink.test]\ntoken = \"x\"\n", "sink.test.url is required");
        fails("[sink.test]\nurl = \"u\"\n[[sink.test.routes]]\ntopic = \"t\"\n", "bridge.toml:3: [[sink.test.routes]] "
                + "needs prefix");
        fails("[sink.test]\nurl = \"u\"\n[[sink.test.routes]]\nprefix = \"p\"\ntopik = \"t\"\n",
                "bridge.toml:5: sink.test.routes.topik: unknown key");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nfailure_policy = \"dead_letter\"\n",
                "bridge.toml:4: consumer.failure_policy: failure_policy = \"dead_letter\" needs consumer.dead_letter_path");
        fails("[sink.test]\nurl = \"u\"\n[consumer]\nname = \"a b\"\n", "bridge.toml:4: consumer.name: must be 1-200");
        fails("[sink.test]\nurl = = \"u\"\n", "bridge.toml:2:");
        fails("[sink.test]\nurl = \"u\"\n[sink.test.props]\nnested = { a = 1 }\n", "sink.test.props",
                "must be a string, number or boolean");
    }

    @Test
    void theGeneratedSampleConfigLoadsAsIs() throws Exception {
        for (SinkProvider p : List.of(new FileSinkProvider(), new TestProvider())) {
            SidecarConfig c = SidecarConfig.load(write(ConfigDocs.sample(p)), Map.of(),
                    List.of(new FileSinkProvider(), new TestProvider()));
            assertThat(c.sinkType()).isEqualTo(p.type());
        }
        String md = ConfigDocs.markdown(new TestProvider().options());
        assertThat(md).contains("| `sink.test.url` | string | required | `KEVY_BRIDGE_SINK_TEST_URL` | where |")
                .contains("| `sink.test.routes[].prefix` |");
    }

    @Test
    void secretsAreMasked() {
        assertThat(Secrets.maskUri("redis://:pw@h:1")).isEqualTo("redis://:****@h:1");
        assertThat(Secrets.maskUri("rediss://user:pw@h:1/0")).isEqualTo("rediss://user:****@h:1/0");
        assertThat(Secrets.maskUri("redis://h:1")).isEqualTo("redis://h:1");
        assertThat(Secrets.printable(TestProvider.PROPS, Map.of("sasl.jaas.config", "x y pw", "acks", "all")))
                .doesNotContain("pw").contains("acks=all");
    }
}
