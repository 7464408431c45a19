package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What the shutdown hook does on Ctrl-C: a running demo is stopped, its temporary directory is deleted, one line
 * says so, and the failure the stopped demo runs into prints nothing more.
 */
class DemoInterruptIT {
    @Test
    void interruptStopsTheDemoAndRemovesItsTemporaryDirectory() throws Exception {
        DemoMain cmd = new DemoMain();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> DemoMain.run(cmd,
                new String[] {"--sample", "--limit", "800"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        await().atMost(Duration.ofSeconds(60)).until(() -> cmd.running() != null && cmd.running().work() != null
                && out.toString(StandardCharsets.UTF_8).contains("2/6 sinks"));
        Path work = cmd.running().work();
        assertThat(work).exists();

        cmd.interrupt();

        assertThat(Files.exists(work)).isFalse();
        assertThat(status.get()).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("interrupted; removed " + work
                + System.lineSeparator());
        cmd.interrupt();
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).hasSize(1);
    }
}
