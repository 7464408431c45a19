package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/kevy demo} end to end, in-process, on 800 packages of the bundled sample: every step runs, the
 * indexer gets FEEDRESYNC and rebuilds, the consistency check passes (index documents = PREFIX.STATS pkg: =
 * JSON-lines final state) and the exit status is 0.
 */
class DemoIT {
    @Test
    void theDemoRunsEveryStepAndEndsConsistentWithExitStatus0() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ByteArrayOutputStream errBuf = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        int status = DemoMain.run(new String[] {"--sample", "--limit", "800", "--changes", "600", "--seed", "7"}, out,
                new PrintStream(errBuf, true, StandardCharsets.UTF_8));
        String printed = buf.toString(StandardCharsets.UTF_8);
        System.out.println(printed);
        System.out.printf("DemoIT: the demo took %.1f s%n", (System.nanoTime() - t0) / 1e9);
        assertThat(status).as("exit status; stderr: %s", errBuf.toString(StandardCharsets.UTF_8)).isZero();

        for (String step : new String[] {"1/6 server", "2/6 sinks", "3/6 load", "4/6 changes", "5/6 resync",
                "6/6 check"}) {
            assertThat(printed).contains(step);
        }
        assertThat(printed).contains("800 packages from the bundled sample of Debian 12 bookworm");
        assertThat(printed).as("plain lines when not on a terminal").doesNotContain("\r");
        Matcher resync = Pattern.compile("released: FEEDRESYNC on (\\d+) shard").matcher(printed);
        assertThat(resync.find()).isTrue();
        assertThat(Integer.parseInt(resync.group(1))).isPositive();

        Matcher check = Pattern.compile("index documents ([\\d,]+) = PREFIX.STATS pkg: ([\\d,]+) = JSON-lines final "
                + "state ([\\d,]+); fields equal; ([\\d,]+) cached entries current").matcher(printed);
        assertThat(check.find()).as("the consistency line").isTrue();
        assertThat(check.group(1)).isEqualTo(check.group(2)).isEqualTo(check.group(3));
        assertThat(Integer.parseInt(check.group(1).replace(",", ""))).isBetween(600, 800);
        assertThat(Integer.parseInt(check.group(4).replace(",", ""))).as("the cache was checked").isPositive();
        assertThat(printed).contains("  CONSISTENT").doesNotContain("NOT CONSISTENT");

        Matcher index = Pattern.compile("search index +([\\d,]+) +([\\d,]+) +(\\d+) +[\\d.]+ ms").matcher(printed);
        assertThat(index.find()).as("the search index row").isTrue();
        assertThat(Integer.parseInt(index.group(3))).as("index resyncs").isPositive();
        assertThat(Long.parseLong(index.group(2).replace(",", ""))).as("rebuilt keys").isPositive();
        assertThat(printed).containsPattern("cache +[\\d,]+ +0 +0 ");
        assertThat(printed).containsPattern("bridge \\(file\\) +[\\d,]+ +[\\d,]+ +0 ");
        // the bridge's JSON lines add up, and its delivered count is the file's changes or the report says why
        Matcher lines = Pattern.compile("([\\d,]+) JSON lines = ([\\d,]+) changes \\+ ([\\d,]+) more lines of "
                + "multi-key changes \\(one per key\\) \\+ ([\\d,]+) resync markers \\+ ([\\d,]+) snapshot lines "
                + "\\+ ([\\d,]+) vanished lines; (.*)").matcher(printed);
        assertThat(lines.find()).as("the bridge's line breakdown").isTrue();
        long[] n = new long[6];
        for (int i = 0; i < 6; i++) {
            n[i] = Long.parseLong(lines.group(i + 1).replace(",", ""));
        }
        assertThat(n[0]).as("lines add up").isEqualTo(n[1] + n[2] + n[3] + n[4] + n[5]);
        assertThat(n[2]).as("no negative remainder").isNotNegative();
        Matcher bridge = Pattern.compile("bridge \\(file\\) +([\\d,]+) ").matcher(printed);
        assertThat(bridge.find()).isTrue();
        long delivered = Long.parseLong(bridge.group(1).replace(",", ""));
        if (lines.group(7).startsWith("the file holds every change")) {
            assertThat(delivered).as("delivered = the file's changes").isEqualTo(n[1]);
        } else {
            // the file was read between two readings of the bridge's count: it holds at least what was delivered
            // (counted after the sink wrote it) before it was read
            Matcher lag = Pattern.compile("the bridge delivered ([\\d,]+) changes before the file was read and "
                    + "([\\d,]+) after \\(keys expiring meanwhile: each expiry is a DEL frame\\), the file held "
                    + "([\\d,]+)").matcher(lines.group(7));
            assertThat(lag.find()).as(lines.group(7)).isTrue();
            long before = Long.parseLong(lag.group(1).replace(",", ""));
            long after = Long.parseLong(lag.group(2).replace(",", ""));
            long held = Long.parseLong(lag.group(3).replace(",", ""));
            assertThat(held).as("the file's changes").isEqualTo(n[1]).isGreaterThanOrEqualTo(before);
            assertThat(after).as("counted after").isGreaterThanOrEqualTo(before);
            assertThat(delivered).as("the row shows the count after the file was read").isEqualTo(after);
        }
        assertThat(printed).contains("Query \"compression library\"").contains("Query \"python\"")
                .contains("Query \"xml\"");
        assertThat(printed).containsPattern("Done in [\\d.]+ s");
    }
}
