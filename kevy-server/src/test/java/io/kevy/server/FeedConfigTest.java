package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.server.config.ConfigLoader;
import io.kevy.config.ConfigException;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The {@code [feed]} settings of feed contract §3: TOML, environment and flags. */
class FeedConfigTest {
    @TempDir
    Path dir;

    private ServerConfig toml(String text) throws IOException {
        Path f = dir.resolve("kevy.toml");
        Files.writeString(f, text);
        return ConfigLoader.load(f, Map.of(), Map.of());
    }

    @Test
    void defaultsAreOffAnd64mb() {
        ServerConfig c = ServerConfig.defaults();
        assertThat(c.get(ServerOptions.FEED_ENABLED)).isFalse();
        assertThat(c.get(ServerOptions.FEED_BUFFER_SIZE)).isEqualTo(64L << 20);
    }

    @Test
    void sizesInTomlFollowTheContract() throws IOException {
        assertThat(toml("[feed]\nenabled = true\nfeed_buffer_size = \"64mb\"\n").get(ServerOptions.FEED_BUFFER_SIZE))
                .isEqualTo(64L << 20);
        assertThat(toml("[feed]\nfeed_buffer_size = \"1 GB\"\n").get(ServerOptions.FEED_BUFFER_SIZE))
                .isEqualTo(1L << 30);
        assertThat(toml("[feed]\nfeed_buffer_size = \"512k\"\n").get(ServerOptions.FEED_BUFFER_SIZE))
                .isEqualTo(512L << 10);
        assertThat(toml("[feed]\nfeed_buffer_size = 4096\n").get(ServerOptions.FEED_BUFFER_SIZE)).isEqualTo(4096);
        assertThat(toml("[feed]\nfeed_buffer_size = 0\n").get(ServerOptions.FEED_BUFFER_SIZE))
                .as("0 means the default").isEqualTo(64L << 20);
        assertThat(toml("[feed]\nenabled = true\n").get(ServerOptions.FEED_ENABLED)).isTrue();
    }

    @Test
    void badValuesAreRefusedNamingKeyLineAndReason() {
        assertThatThrownBy(() -> toml("# c\n[feed]\nfeed_buffer_size = \"2gb\"\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(":3: feed.feed_buffer_size: feed_buffer_size caps at 1gb per shard");
        for (String bad : new String[] {"\"1.5mb\"", "-1", "\"\"", "\"10 tb\"", "1.5", "\"-5mb\""}) {
            assertThatThrownBy(() -> toml("[feed]\nfeed_buffer_size = " + bad + "\n")).as(bad)
                    .isInstanceOf(ConfigException.class).hasMessageContaining("feed.feed_buffer_size");
        }
        assertThatThrownBy(() -> toml("[feed]\nenabled = \"yes\"\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("feed.enabled: must be a TOML boolean");
        assertThatThrownBy(() -> toml("[feed]\nenable = true\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("feed.enable: unknown key");
    }

    @Test
    void flagsAndEnvironment() {
        ServerCommand cmd = new ServerCommand();
        new CommandLine(cmd).parseArgs("--feed", "--feed-buffer-size", "1k");
        ServerConfig c = cmd.resolve(Map.of());
        assertThat(c.get(ServerOptions.FEED_ENABLED)).isTrue();
        assertThat(c.get(ServerOptions.FEED_BUFFER_SIZE)).isEqualTo(1024);

        ServerCommand env = new ServerCommand();
        new CommandLine(env).parseArgs();
        ServerConfig e = env.resolve(Map.of("KEVY_FEED", "1", "KEVY_FEED_BUFFER_SIZE", "2mb"));
        assertThat(e.get(ServerOptions.FEED_ENABLED)).isTrue();
        assertThat(e.get(ServerOptions.FEED_BUFFER_SIZE)).isEqualTo(2L << 20);
    }
}
