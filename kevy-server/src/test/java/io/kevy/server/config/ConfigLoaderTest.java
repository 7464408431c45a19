package io.kevy.server.config;

import io.kevy.config.Sizes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.config.ConfigException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConfigLoaderTest {
    @TempDir
    Path dir;

    private Path toml(String content) throws IOException {
        Path p = dir.resolve("kevy.toml");
        Files.writeString(p, content);
        return p;
    }

    @Test
    void defaultsWhenNothingIsGiven() {
        ServerConfig c = ConfigLoader.load(null, Map.of(), Map.of());
        assertThat(c.get(ServerOptions.BIND)).isEqualTo("127.0.0.1");
        assertThat(c.get(ServerOptions.PORT)).isEqualTo(6004);
        assertThat(c.get(ServerOptions.FEED_BUFFER_SIZE)).isEqualTo(64 * Sizes.MB);
        assertThat(c.get(ServerOptions.APPENDFSYNC)).isEqualTo("everysec");
    }

    @Test
    void precedenceIsFlagsThenEnvThenTomlThenDefaults() throws IOException {
        Path f = toml("port = 7000\nshards = 3\ndir = \"from-toml\"\n[feed]\nenabled = true\n");
        ServerConfig c = ConfigLoader.load(f, Map.of("KEVY_PORT", "7100", "KEVY_SHARDS", "5"),
                Map.of(ServerOptions.PORT, "7200"));
        assertThat(c.get(ServerOptions.PORT)).isEqualTo(7200);
        assertThat(c.get(ServerOptions.SHARDS)).isEqualTo(5);
        assertThat(c.get(ServerOptions.DIR)).isEqualTo("from-toml");
        assertThat(c.get(ServerOptions.FEED_ENABLED)).isTrue();
        assertThat(c.get(ServerOptions.BIND)).isEqualTo("127.0.0.1");
    }

    /** The replica settings CONFIG SET had alone (issue 29) are options: TOML, environment, errors with the key. */
    @Test
    void replicaSettingsComeFromTheTomlAndTheEnvironment() throws IOException {
        Path f = toml("[replication]\nreplicaof = \"10.0.0.1 6004\"\nmasterauth = \"pw\"\n"
                + "replica_announce_ip = \"10.9.8.7\"\nreplica_announce_port = 7777\nreplica_priority = 0\n"
                + "replica_read_only = false\n");
        ServerConfig c = ConfigLoader.load(f, Map.of("KEVY_REPLICA_PRIORITY", "5"), Map.of());
        assertThat(c.get(ServerOptions.REPLICAOF)).isEqualTo("10.0.0.1 6004");
        assertThat(c.get(ServerOptions.MASTERAUTH)).isEqualTo("pw");
        assertThat(c.get(ServerOptions.REPLICA_ANNOUNCE_IP)).isEqualTo("10.9.8.7");
        assertThat(c.get(ServerOptions.REPLICA_ANNOUNCE_PORT)).isEqualTo(7777);
        assertThat(c.get(ServerOptions.REPLICA_PRIORITY)).isEqualTo(5);
        assertThat(c.get(ServerOptions.REPLICA_READ_ONLY)).isFalse();
        ServerConfig d = ConfigLoader.load(null, Map.of("KEVY_REPLICA_READ_ONLY", "no",
                "KEVY_REPLICA_ANNOUNCE_PORT", "1", "KEVY_MASTERAUTH", "x"), Map.of());
        assertThat(d.get(ServerOptions.REPLICA_READ_ONLY)).isFalse();
        assertThat(d.get(ServerOptions.REPLICA_ANNOUNCE_PORT)).isEqualTo(1);
        assertThat(ServerOptions.MASTERAUTH.isSecret()).isTrue();
        assertThat(ServerOptions.REQUIREPASS.isSecret()).isTrue();
        assertThatThrownBy(() -> ConfigLoader.load(toml("[replication]\nreplica_announce_port = 70000\n"),
                Map.of(), Map.of())).isInstanceOf(ConfigException.class).hasMessageEndingWith(
                "kevy.toml:2: replication.replica_announce_port: must be between 0 and 65535, got 70000");
        assertThatThrownBy(() -> ConfigLoader.load(toml("[replication]\nmasterauth = 12345678\n"), Map.of(),
                Map.of())).isInstanceOf(ConfigException.class).hasMessageEndingWith("kevy.toml:2: "
                + "replication.masterauth: must be a string (the value is not shown: it is a secret)")
                .hasMessageNotContaining("12345678");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("KEVY_REPLICA_PRIORITY", "-1"), Map.of()))
                .isInstanceOf(ConfigException.class).hasMessage("environment variable KEVY_REPLICA_PRIORITY "
                        + "(replication.replica_priority): must be between 0 and 2147483647, got -1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "port = 7000\\nbogus = 1|kevy.toml:2: bogus: unknown key",
        "port = \"x\"|kevy.toml:1: port: must be an integer, got the string \"x\"",
        "port = 70000|kevy.toml:1: port: must be between 0 and 65535, got 70000",
        "[feed]\\nenabled = \"yes\"|kevy.toml:2: feed.enabled: must be a TOML boolean (true or false), got the string \"yes\"",
        "[feed]\\nfeed_buffer_size = \"2gb\"|kevy.toml:2: feed.feed_buffer_size: feed_buffer_size caps at 1gb per shard",
        "[feed]\\nfeed_buffer_size = \"1.5mb\"|kevy.toml:2: feed.feed_buffer_size: '1.5mb' is not a size",
        "[feed]\\nfeed_buffer_size = -1|kevy.toml:2: feed.feed_buffer_size: must not be negative, got -1",
        "[feed]\\nfeed_buffer_size = \"\"|kevy.toml:2: feed.feed_buffer_size: must not be empty",
        "[feed]\\nfeed_buffer_size = \"10 tb\"|kevy.toml:2: feed.feed_buffer_size: unknown unit 'tb'",
        "[persistence]\\nappendfsync = \"sometimes\"|kevy.toml:2: persistence.appendfsync: must be one of always, everysec, no",
        "port = |kevy.toml:1:"})
    void errorsNameFileLineKeyAndReason(String content, String expected) throws IOException {
        Path f = toml(content.replace("\\n", "\n"));
        assertThatThrownBy(() -> ConfigLoader.load(f, Map.of(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .message().startsWith(f.toString().replace("kevy.toml", "") + expected);
    }

    @Test
    void sizesFollowTheFeedContract() throws IOException {
        assertThat(load("[feed]\nfeed_buffer_size = \"64mb\"")).isEqualTo(64 * Sizes.MB);
        assertThat(load("[feed]\nfeed_buffer_size = \"16 KB\"")).isEqualTo(16 * Sizes.KB);
        assertThat(load("[feed]\nfeed_buffer_size = \"1g\"")).isEqualTo(Sizes.GB);
        assertThat(load("[feed]\nfeed_buffer_size = 4096")).isEqualTo(4096);
        assertThat(load("[feed]\nfeed_buffer_size = \"512b\"")).isEqualTo(512);
        assertThat(load("[feed]\nfeed_buffer_size = 0")).isEqualTo(64 * Sizes.MB);
    }

    private long load(String content) throws IOException {
        return ConfigLoader.load(toml(content), Map.of(), Map.of()).get(ServerOptions.FEED_BUFFER_SIZE);
    }

    @Test
    void envAndFlagErrorsNameTheirSource() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("KEVY_PORT", "abc"), Map.of()))
                .hasMessage("environment variable KEVY_PORT (port): must be an integer, got 'abc'");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of(ServerOptions.FEED_BUFFER_SIZE, "2gb")))
                .hasMessage("option --feed-buffer-size (feed.feed_buffer_size): feed_buffer_size caps at 1gb per shard");
    }

    @Test
    void missingFileIsAnError() {
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("nope.toml"), Map.of(), Map.of()))
                .hasMessageEndingWith("nope.toml: config file not found");
    }
}
