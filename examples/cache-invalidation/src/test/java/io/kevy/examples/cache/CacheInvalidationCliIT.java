package io.kevy.examples.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The README's command: the service on a free port serves a user, sees it change, and stops cleanly. */
class CacheInvalidationCliIT {
    @Test
    void servesUsersUntilStopped() throws Exception {
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true))) {
            server.lettuce().hset("user:42", java.util.Map.of("name", "Ada"));
            CacheInvalidationMain main = new CacheInvalidationMain();
            StringWriter out = new StringWriter();
            CommandLine cli = new CommandLine(main).setOut(new PrintWriter(out, true));
            CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() ->
                    cli.execute("--uri", server.uri(), "--port", "0"));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("serving"));
            Matcher m = Pattern.compile("serving (http://127\\.0\\.0\\.1:\\d+)/users/\\{id\\} from user:\\{id\\}")
                    .matcher(out.toString());
            assertThat(m.find()).as(out.toString()).isTrue();
            HttpClient http = HttpClient.newHttpClient();
            HttpRequest get = HttpRequest.newBuilder(URI.create(m.group(1) + "/users/42")).build();
            assertThat(http.send(get, HttpResponse.BodyHandlers.ofString()).body()).contains("\"name\":\"Ada\"");
            server.lettuce().hset("user:42", "name", "Ada Lovelace");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() ->
                    http.send(get, HttpResponse.BodyHandlers.ofString()).body().contains("Ada Lovelace"));
            main.stop.countDown();
            assertThat(running.get()).isZero();
        }
    }

    @Test
    void printsTheUriWithoutItsPassword() throws Exception {
        try (TestServer server = TestServer.start(c -> c.with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.REQUIREPASS, "s3cret"))) {
            CacheInvalidationMain main = new CacheInvalidationMain();
            StringWriter out = new StringWriter();
            CommandLine cli = new CommandLine(main).setOut(new PrintWriter(out, true));
            String uri = "redis://:s3cret@127.0.0.1:" + server.port();
            CompletableFuture<Integer> running = CompletableFuture.supplyAsync(() ->
                    cli.execute("--uri", uri, "--port", "0"));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("serving"));
            assertThat(out.toString()).contains(" in redis://:****@127.0.0.1:" + server.port() + " ")
                    .doesNotContain("s3cret");
            main.stop.countDown();
            assertThat(running.get()).isZero();
        }
    }
}
