package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.TestServer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real library's scripts, unchanged: redis-py's {@code Lock} (Debian's python3-redis, which .ci/run installs),
 * whose release, extend and reacquire are Lua scripts it loads with SCRIPT LOAD and runs with EVALSHA, including a
 * mutual-exclusion run of four threads. The Python program asserts each step and prints "OK ..." last.
 */
class ScriptLibraryIT {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @TempDir
    Path dir;

    @Test
    void redisPysLockWorksUnchanged() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON) && new ProcessBuilder(PYTHON.toString(), "-c",
                "import redis").start().waitFor() == 0, "needs Debian's python3-redis (apt-get install python3-redis)");
        Path script = dir.resolve("redispy_lock.py");
        try (InputStream in = ScriptLibraryIT.class.getResourceAsStream("redispy_lock.py")) {
            Files.copy(in, script);
        }
        try (TestServer server = TestServer.start()) {
            Path log = dir.resolve("out.txt");
            Process p = new ProcessBuilder(PYTHON.toString(), script.toString(), Integer.toString(server.port()))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean finished = p.waitFor(120, TimeUnit.SECONDS);
            if (!finished) {
                p.destroyForcibly();
            }
            String out = Files.readString(log);
            assertThat(finished).as("finished in 120 s; output: %s", out).isTrue();
            System.out.print("ScriptLibraryIT: " + out);
            assertThat(p.exitValue()).as("exit status; output: %s", out).isZero();
            assertThat(out.strip()).as(out).endsWith("under 4 threads").contains("OK redis-py");
            // the lock's scripts ran as the library sends them: loaded once, then by sha
            assertThat(server.raw().call("INFO", "commandstats")).contains("cmdstat_evalsha:calls=")
                    .contains("cmdstat_script|load:calls=");
        }
    }
}
