package io.kevy.bridge.kafka.support;

import io.kevy.feed.sidecar.Sidecar;
import io.kevy.feed.sidecar.SidecarConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Bridge configs for tests, and bridges run in-process or as a child process of the shaded jar. */
public final class Bridges {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Bridges() {
    }

    /**
     * A kafka bridge config in {@code dir}: the server, the shared broker, routes user: → kevy.user-{tag},
     * order: → kevy.order-{tag}, default topic kevy.changes-{tag}, prefixes user: order: misc:, a cursor file,
     * HTTP on a free port; {@code extra} is appended (more sections or keys of [sink.kafka]).
     */
    public static Path config(Path dir, String serverUri, String bootstrap, String tag, String extraConsumer,
            String extraSink) {
        String toml = "[source]\nuri = \"" + serverUri + "\"\n"
                + "[consumer]\nname = \"bridge-" + tag + "\"\nprefixes = [\"user:\", \"order:\", \"misc:\"]\n"
                + extraConsumer
                + "[cursor]\npath = \"" + dir.resolve("cursors-" + tag + ".json") + "\"\n"
                + "[http]\nport = 0\nstall_ms = 3000\npoll_ms = 200\n"
                + "[sink.kafka]\nbootstrap_servers = \"" + bootstrap + "\"\ntopic = \"" + topics(tag).get(2) + "\"\n"
                + extraSink
                + "[[sink.kafka.routes]]\nprefix = \"user:\"\ntopic = \"" + topics(tag).get(0) + "\"\n"
                + "[[sink.kafka.routes]]\nprefix = \"order:\"\ntopic = \"" + topics(tag).get(1) + "\"\n";
        try {
            Path p = dir.resolve("bridge-" + tag + ".toml");
            Files.writeString(p, toml);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The topics of {@link #config}: user, order, default. */
    public static List<String> topics(String tag) {
        return List.of("kevy.user-" + tag, "kevy.order-" + tag, "kevy.changes-" + tag);
    }

    /** The routing of {@link #config}. */
    public static String route(String tag, String key) {
        List<String> t = topics(tag);
        return key.startsWith("user:") ? t.get(0) : key.startsWith("order:") ? t.get(1) : t.get(2);
    }

    public static Sidecar start(Path config) {
        return Sidecar.start(SidecarConfig.load(config, Map.of()));
    }

    /** GET http://127.0.0.1:port/path → status code, or -1 when nothing answers. */
    public static int status(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** The shaded sidecar jar, built by the package phase before the integration tests. */
    public static Path jar() {
        Path p = Path.of("target", "kevy-bridge-kafka.jar").toAbsolutePath();
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " is missing: run the package phase first");
        }
        return p;
    }

    /**
     * {@code java -jar kevy-bridge-kafka.jar args...} with {@code env} added, output to {@code log}, its
     * {@code java.io.tmpdir} the directory {@link #tmpDir} (so what it leaves there stays in the test's directory
     * and can be checked).
     */
    public static Process startJar(Path log, Map<String, String> env, String... args) {
        Path tmp = tmpDir(log);
        try {
            Files.createDirectories(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.io.tmpdir=" + tmp, "-jar", jar().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        try {
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code java.io.tmpdir} of a jar started by {@link #startJar} with this {@code log}: beside it. */
    public static Path tmpDir(Path log) {
        return log.resolveSibling(log.getFileName() + ".tmp");
    }

    /** Waits for the process to end; returns its exit status, or fails after {@code seconds}. */
    public static int await(Process p, long seconds) throws InterruptedException {
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the process did not end within " + seconds + " s");
        }
        return p.exitValue();
    }
}
