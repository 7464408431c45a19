package io.kevy.examples.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The README's commands: {@code load --sample}, {@code follow --index DIR} until stopped, {@code query}. */
class SearchIndexCliIT {
    private static CommandLine cli(Object command, StringWriter out) {
        return new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(out, true));
    }

    @Test
    void loadFollowAndQuery(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true))) {
            StringWriter loaded = new StringWriter();
            assertThat(cli(new SearchIndexMain(), loaded).execute("load", "--uri", server.uri(), "--sample"))
                    .isZero();
            assertThat(loaded.toString()).contains("wrote 3172 packages from the bundled sample");

            SearchIndexMain.Follow follow = new SearchIndexMain.Follow();
            StringWriter followed = new StringWriter();
            CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() -> cli(follow, followed)
                    .execute("--uri", server.uri(), "--index", dir.toString()));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> followed.toString().contains("documents"));
            assertThat(followed.toString()).contains("indexing pkg:* of " + server.uri()).contains("3172 documents");
            server.lettuce().hset("pkg:kevy", java.util.Map.of("name", "kevy", "version", "0.1",
                    "description", "key-value server with a change feed"));
            // the follower commits in the background: until its first commit the directory holds no index yet
            Awaitility.await().atMost(Duration.ofSeconds(30))
                    .ignoreExceptionsMatching(e -> e instanceof java.io.UncheckedIOException
                            && e.getMessage().contains("no segments"))
                    .until(() -> !HashIndex.searchCommitted(dir, "change feed", 1).isEmpty());
            follow.stop.countDown();
            assertThat(running.get()).isZero();
            assertThat(followed.toString()).contains("stopped: 3173 documents");

            StringWriter found = new StringWriter();
            assertThat(cli(new SearchIndexMain(), found).execute("query", "--index", dir.toString(), "--top", "2",
                    "strategy", "game")).isZero();
            assertThat(found.toString()).startsWith("2 hit(s) for strategy game").contains("0ad 0.0.26-3 (games)");
        }
    }
}
