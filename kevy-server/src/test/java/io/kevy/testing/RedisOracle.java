package io.kevy.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code redis-server} (the Debian package, Redis 7.0) started on a free port, to compare kevy's replies
 * with byte for byte. Tests that use it are skipped when {@code redis-server} is not installed; {@code .ci/run}
 * installs it.
 */
public final class RedisOracle implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/bin/redis-server");

    private final Process process;
    private final int port;
    private final Path dir;

    private RedisOracle(Process process, int port, Path dir) {
        this.process = process;
        this.port = port;
        this.dir = dir;
    }

    /** True when a redis-server binary is installed. */
    public static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** Starts redis-server (skipping the calling test when it is not installed). */
    public static RedisOracle start() {
        return start(new String[0]);
    }

    /**
     * Starts redis-server with extra command-line settings, e.g. {@code "--enable-debug-command", "yes"} for tests
     * that compare DEBUG replies.
     */
    public static RedisOracle start(String... extraArgs) {
        Assumptions.assumeTrue(available(), "redis-server is not installed (apt-get install redis-server)");
        try {
            Path dir = Files.createTempDirectory("redis-oracle");
            // The free port is probed then released: another bind may take it before redis-server does, and then
            // redis-server exits. Such a start is retried on a new port; a process that exits three times fails.
            for (int attempt = 1; ; attempt++) {
                int port = freePort();
                List<String> cmd = new java.util.ArrayList<>(List.of(BINARY.toString(), "--port",
                        Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir",
                        dir.toString(), "--daemonize", "no"));
                cmd.addAll(List.of(extraArgs));
                Process p = new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("redis.log").toFile())
                        .start();
                RedisOracle o = new RedisOracle(p, port, dir);
                if (o.awaitReady()) {
                    return o;
                }
                if (attempt == 3) {
                    throw new IllegalStateException("redis-server exited three times; its log: "
                            + Files.readString(dir.resolve("redis.log")));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True once this process answers on its port; false if it exited first (its port was taken). */
    private boolean awaitReady() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return false;
            }
            try (RawClient c = RawClient.connect(port)) {
                // process_id tells this redis-server from another process that holds the port
                if (c.call("INFO", "server").contains("process_id:" + process.pid() + "\r\n")) {
                    return true;
                }
            } catch (RuntimeException e) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ie);
                }
            }
        }
        throw new IllegalStateException("redis-server did not start on port " + port);
    }

    public int port() {
        return port;
    }

    /** A new raw connection to the real Redis. */
    public RawClient raw() {
        return RawClient.connect(port);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        TestServer.deleteRecursively(dir);
    }
}
