package io.kevy.feed.sidecar;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.kevy.feed.client.CursorStore;
import io.kevy.feed.client.FeedConsumer;
import io.kevy.feed.client.FeedSource;
import io.kevy.feed.client.StoredCursors;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.kevy.feed.client.support.Servers;
import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sidecar runtime end to end with the JSON-lines file sink: kevy (4 shards) → sidecar → file; the HTTP
 * endpoints; a graceful stop that commits; a restart that continues where it stopped; a requested rebuild
 * (begin, snapshot lines, end); and the cursor admin commands.
 */
class FileSidecarIT {
    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(Sidecar s, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.httpPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private Path config(TestServer server, String extra) throws Exception {
        Path p = dir.resolve("file.toml");
        Files.writeString(p, "[source]\nuri = \"" + server.uri() + "\"\n[consumer]\nname = \"file-it\"\n"
                + "prefixes = [\"user:\", \"order:\"]\n[cursor]\npath = \"" + dir.resolve("cursors.json") + "\"\n"
                + "[http]\nport = 0\nstall_ms = 2000\npoll_ms = 100\n[sink.file]\npath = \"" + dir.resolve("out.jsonl")
                + "\"\n" + extra);
        return p;
    }

    private List<JsonNode> lines() throws Exception {
        Path out = dir.resolve("out.jsonl");
        List<JsonNode> l = new ArrayList<>();
        if (Files.exists(out)) {
            for (String s : Files.readAllLines(out)) {
                l.add(ChangeEnvelopes.mapper().readTree(s));
            }
        }
        return l;
    }

    @Test
    void forwardsChangesServesEndpointsStopsCleanlyAndResumes() throws Exception {
        try (TestServer server = Servers.start()) {
            RedisCommands<String, String> redis = server.lettuce();
            SidecarConfig cfg = SidecarConfig.load(config(server, ""), Map.of());
            Sidecar s = Sidecar.start(cfg);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> s.consumer().state()
                    == FeedConsumer.State.RUNNING);
            assertThat(get(s, "/healthz").statusCode()).isEqualTo(200);
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> get(s, "/readyz").statusCode() == 200);
            redis.set("user:1", "ada");
            redis.mset(Map.of("user:2", "bob", "other:1", "x", "order:9", "o"));
            redis.hset("order:1", "total", "12");
            redis.del("user:1", "user:2");
            redis.set("misc", "not forwarded");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lines().size() == 6);
            List<JsonNode> l = lines();
            // MSET and DEL become one line per key; other:1 and misc are outside the prefixes
            assertThat(l.stream().map(n -> n.path("subject").asText()).toList()).containsExactlyInAnyOrder("user:1",
                    "user:2", "order:9", "order:1", "user:1", "user:2");
            assertThat(l).allSatisfy(n -> assertThat(n.path("specversion").asText()).isEqualTo("1.0"));
            // an MSET whose keys live on one shard splits into "set" envelopes; a shard's single-key part stays "mset"
            assertThat(l.stream().filter(n -> n.path("type").asText().matches("io\\.kevy\\.change\\.m?set")).count())
                    .isEqualTo(3);
            String metrics = get(s, "/metrics").body();
            assertThat(metrics).contains("kevy_feed_consumer_frames_total", "kevy_bridge_file_lines_total",
                    "jvm_memory_used_bytes", "kevy_bridge_ready", "kevy_bridge_behind", "process_uptime_seconds");
            assertThat(get(s, "/readyz").body()).contains("\"ready\":true", "\"shards\"");

            // a requested rebuild: begin per shard, every live key under the prefixes, end per shard
            s.consumer().rebuild().toCompletableFuture().get();
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lines().stream()
                    .filter(n -> n.path("type").asText().equals(ChangeEnvelopes.RESYNC_END)).count() == 4);
            List<JsonNode> rebuilt = lines().subList(6, lines().size());
            assertThat(rebuilt.stream().filter(n -> n.path("type").asText().equals(ChangeEnvelopes.RESYNC_BEGIN))
                    .count()).isEqualTo(4);
            assertThat(rebuilt.stream().filter(n -> n.path("type").asText().equals("io.kevy.change.snapshot"))
                    .map(n -> n.path("subject").asText()).toList()).containsExactlyInAnyOrder("order:9", "order:1");

            assertThat(s.stop()).isTrue();
            StoredCursors stored = CursorStore.file(dir.resolve("cursors.json")).load("file-it").orElseThrow();
            try (FeedSource source = FeedSource.connect(server.uri())) {
                for (int i = 0; i < 4; i++) {
                    assertThat(stored.cursor(i)).as("shard %d committed up to the tail", i)
                            .isEqualTo(source.tail(i).toCompletableFuture().get());
                }
            }

            // stopped: writes pile up; a new sidecar continues at the stored cursors
            redis.set("user:3", "cy");
            Sidecar again = Sidecar.start(SidecarConfig.load(config(server, ""), Map.of()));
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> lines().stream()
                        .anyMatch(n -> n.path("subject").asText().equals("user:3")));
            } finally {
                assertThat(again.stop()).isTrue();
            }
        }
    }

    @Test
    void readinessTurnsFalseWhenTheSinkStallsWhileBehind() throws Exception {
        try (TestServer server = Servers.start()) {
            Path out = dir.resolve("out.jsonl");
            Sidecar s = Sidecar.start(SidecarConfig.load(config(server, "fsync = false\n"), Map.of()));
            try {
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> s.readiness().ready());
                // the sink's file turns into a directory: every write fails, the cursor stops while writes go on
                Files.deleteIfExists(out);
                Files.createDirectories(out);
                RedisCommands<String, String> redis = server.lettuce();
                redis.set("user:1", "a");
                Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !s.readiness().ready());
                assertThat(s.readiness().reason()).contains("behind its tail", "no progress");
                assertThat(get(s, "/readyz").statusCode()).isEqualTo(503);
                Files.delete(out);
                Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> s.readiness().ready());
                assertThat(lines()).anySatisfy(n -> assertThat(n.path("subject").asText()).isEqualTo("user:1"));
            } finally {
                s.stop();
            }
        }
    }

    @Test
    void cursorCommandsShowSetAndResetWithDryRun() throws Exception {
        try (TestServer server = Servers.start()) {
            Path cfg = config(server, "");
            Sidecar s = Sidecar.start(SidecarConfig.load(cfg, Map.of()));
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> s.readiness().ready());
            s.stop();
            server.lettuce().set("user:1", "x");
            CursorStore store = CursorStore.file(dir.resolve("cursors.json"));
            StoredCursors before = store.load("file-it").orElseThrow();

            String shown = run("cursor", "show", "--config", cfg.toString());
            assertThat(shown).contains("consumer file-it (4 shard(s))", "shard 0: " + before.cursor(0));
            assertThat(shown).contains("1 frame(s) behind");

            String dry = run("cursor", "set", "--config", cfg.toString(), "--to", "tail", "--dry-run");
            assertThat(dry).startsWith("dry run: would write");
            assertThat(store.load("file-it")).contains(before);

            run("cursor", "set", "--config", cfg.toString(), "--to", "tail");
            assertThat(store.load("file-it").orElseThrow()).isNotEqualTo(before);

            String explicit = before.cursor(2).toString();
            run("cursor", "set", "--config", cfg.toString(), explicit);
            assertThat(store.load("file-it").orElseThrow().cursor(2)).isEqualTo(before.cursor(2));

            assertThat(run("cursor", "reset", "--config", cfg.toString(), "--dry-run")).contains("would remove");
            assertThat(store.load("file-it")).isPresent();
            assertThat(run("cursor", "reset", "--config", cfg.toString())).contains("removed");
            assertThat(store.load("file-it")).isEqualTo(Optional.empty());

            assertThat(SidecarMain.commandLine().execute("cursor", "set", "--config", cfg.toString(), "9:1:1"))
                    .isEqualTo(2);
        }
    }

    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var cl = SidecarMain.commandLine();
        cl.setOut(new PrintWriter(out, true));
        int code = cl.execute(args);
        assertThat(code).as("exit status of %s: %s", List.of(args), out).isZero();
        return out.toString();
    }
}
