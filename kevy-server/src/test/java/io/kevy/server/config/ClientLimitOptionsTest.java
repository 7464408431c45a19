package io.kevy.server.config;

import io.kevy.config.Sizes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code limits.client_query_buffer_limit} and {@code limits.maxmemory_clients}: defaults, forms, errors. */
class ClientLimitOptionsTest {
    @TempDir
    Path dir;

    private ServerConfig load(String toml, Map<String, String> env) throws IOException {
        Path f = dir.resolve("kevy.toml");
        Files.writeString(f, toml);
        return ConfigLoader.load(f, env, Map.of());
    }

    @Test
    void defaultsAreFractionsOfTheMaxHeap() {
        long heap = Runtime.getRuntime().maxMemory();
        ServerConfig c = ServerConfig.defaults();
        assertThat(c.get(ServerOptions.CLIENT_QUERY_BUFFER_LIMIT))
                .isEqualTo(Math.max(Sizes.MB, Math.min(Sizes.GB, heap / 8)));
        assertThat(c.get(ServerOptions.MAXMEMORY_CLIENTS)).isEqualTo("25%");
        assertThat(ServerOptions.memoryOrPercent("25%", heap)).isEqualTo(heap / 100 * 25);
    }

    @Test
    void sizesPercentagesAndZero() throws IOException {
        ServerConfig c = load("[limits]\nclient_query_buffer_limit = \"64mb\"\nmaxmemory_clients = \"512mb\"\n",
                Map.of());
        assertThat(c.get(ServerOptions.CLIENT_QUERY_BUFFER_LIMIT)).isEqualTo(64 * Sizes.MB);
        assertThat(c.get(ServerOptions.MAXMEMORY_CLIENTS)).isEqualTo(Long.toString(512 * Sizes.MB));
        assertThat(load("", Map.of("KEVY_MAXMEMORY_CLIENTS", "10%")).get(ServerOptions.MAXMEMORY_CLIENTS))
                .isEqualTo("10%");
        assertThat(ServerOptions.memoryOrPercent("0", 1000)).isZero();
        assertThat(ServerOptions.memoryOrPercent("100%", 1000)).isEqualTo(1000);
    }

    @Test
    void badValuesNameTheKeyAndReason() {
        assertThatThrownBy(() -> load("[limits]\nmaxmemory_clients = \"101%\"\n", Map.of()))
                .hasMessageContaining("limits.maxmemory_clients: must be a size or a percentage from 0% to 100%");
        assertThatThrownBy(() -> load("[limits]\nmaxmemory_clients = \"lots\"\n", Map.of()))
                .hasMessageContaining("limits.maxmemory_clients");
        assertThatThrownBy(() -> load("[limits]\nclient_query_buffer_limit = \"1.5mb\"\n", Map.of()))
                .hasMessageContaining("limits.client_query_buffer_limit: '1.5mb' is not a size");
    }
}
