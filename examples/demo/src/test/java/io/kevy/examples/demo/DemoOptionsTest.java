package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad options fail before anything starts: exit status 2 and a one-line reason without a Java class name. */
class DemoOptionsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--limit 0|--limit must be at least 50 (the resync step needs enough packages), not 0",
        "--limit -5|--limit must be at least 50 (the resync step needs enough packages), not -5",
        "--limit 1|--limit must be at least 50 (the resync step needs enough packages), not 1",
        "--changes 0|--changes must be at least 1, not 0",
        "--data /nonexistent|cannot read /nonexistent: no such file",
        "--data /dev/null|/dev/null names no package"})
    void rejected(String args, String message) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = DemoMain.run(args.split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(status).isEqualTo(2);
        assertThat(printed.lines().findFirst()).contains(message);
        assertThat(printed).doesNotContain("Exception");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("kevy demo:");
    }
}
