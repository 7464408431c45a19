package io.kevy.server.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.GeneratedDocs;
import org.junit.jupiter.api.Test;

/**
 * docs/operations.md cannot drift from the server's option table: its key table between the
 * {@code <!-- options:server -->} markers is what {@link ServerOptions#markdown()} renders with the one docs
 * renderer (the sidecar's and the sinks' tables in docs/bridges.md are checked the same way, BridgeDocsTest).
 * Run with {@code -Dkevy.docs.write=true} to regenerate it.
 */
class ServerDocsTest {
    @Test
    void theConfigurationTableIsGeneratedFromServerOptions() {
        GeneratedDocs.region("docs/operations.md", "options:server", ServerOptions.markdown());
    }

    @Test
    void machineDependentDefaultsAreStatedNotPrinted() {
        String table = ServerOptions.markdown();
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(row(table, "shards")).contains("| available processors |").doesNotContain("| `" + cpus + "` |");
        assertThat(row(table, "io_threads")).contains("| available processors − 1, at least 1 |");
        assertThat(row(table, "limits.client_query_buffer_limit"))
                .contains("| an eighth of the max heap, at most `1gb` |");
        assertThat(row(table, "feed.feed_buffer_size")).contains("| size | `\"64mb\"` |");
        assertThat(row(table, "limits.proto_max_bulk_len")).contains("| size | `\"512mb\"` |");
        assertThat(ServerOptions.ALL).allSatisfy(o -> assertThat(table).contains("| `" + o.key() + "` |"));
    }

    private static String row(String table, String key) {
        return table.lines().filter(l -> l.startsWith("| `" + key + "` |")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + key + " in\n" + table));
    }
}
