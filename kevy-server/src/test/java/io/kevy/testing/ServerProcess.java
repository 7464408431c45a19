package io.kevy.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * kevy-server as a child process (for kill -9 and SIGTERM tests), started from this JVM's class path on a free
 * port, its output captured in {@code <dir>/server.log}.
 */
public final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final int port;
    private final Path log;

    private ServerProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** Starts {@code io.kevy.server.ServerMain --port <free> --dir <dir> <args>} and waits for PING. */
    public static ServerProcess start(Path dir, String... args) {
        return start(dir, List.of(), args);
    }

    /** As {@link #start(Path, String...)}, with extra JVM options (e.g. {@code -Dkevy.test.faults=...}). */
    public static ServerProcess start(Path dir, List<String> jvmOptions, String... args) {
        try {
            Files.createDirectories(dir);
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info"));
            cmd.addAll(jvmOptions);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.kevy.server.ServerMain",
                    "--port", Integer.toString(port), "--dir", dir.toString()));
            cmd.addAll(List.of(args));
            Path log = dir.resolve("server.log");
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            ServerProcess sp = new ServerProcess(p, port, log);
            sp.awaitPing();
            return sp;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitPing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("kevy-server exited with " + process.exitValue() + ":\n" + log());
            }
            try (RawClient c = RawClient.connect(port)) {
                if (c.call("PING").equals("+PONG\r\n")) {
                    return;
                }
            } catch (RuntimeException e) {
                sleep(50);
            }
        }
        throw new IllegalStateException("kevy-server did not answer PING within 60 s:\n" + log());
    }

    public int port() {
        return port;
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** A new raw connection. */
    public RawClient raw() {
        return RawClient.connect(port);
    }

    /** SIGKILL, and wait for the process to be gone. */
    public void kill9() {
        process.destroyForcibly();
        waitFor();
    }

    /** SIGTERM (a clean shutdown), and wait for the exit. */
    public int term() {
        process.destroy();
        return waitFor();
    }

    private int waitFor() {
        try {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Everything the server printed so far. */
    public String log() {
        try {
            return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill9();
        }
    }
}
