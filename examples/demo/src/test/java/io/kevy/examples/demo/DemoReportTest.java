package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.examples.search.HashIndex;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The summary's layout, and the exit status: 0 only for a consistent check. */
class DemoReportTest {
    private static DemoReport report(List<String> problems) {
        Histogram h = new Histogram(3);
        h.recordValue(1_500_000);
        h.recordValue(9_000_000);
        return new DemoReport("a test", 3, 10, 4, new long[] {7, 5},
                List.of(new DemoReport.SinkRow("search index", "an index", 9, 3, 1, h),
                        new DemoReport.SinkRow("cache", "a cache", 12, 0, 0, null)),
                new Consistency(3, 3, 3, 3, 2, problems),
                List.of(new DemoReport.Query("gzip", 1, List.of(new HashIndex.Hit("pkg:gzip", 2.5f,
                        Map.of("name", "gzip", "version", "1.12-1", "section", "utils",
                                "description", "GNU compression utilities\nlong text"))))), 12.3);
    }

    private static String printed(DemoReport r) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        r.print(new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aConsistentRunPrintsTheTableAndExitsWith0() {
        DemoReport r = report(List.of());
        String out = printed(r);
        assertThat(out).contains("writes                 10 commands to 4 keys")
                .contains("frames in the feed     12 (shard 0: 7, shard 1: 5)")
                .containsPattern("search index +9 +3 +1 +1\\.5 ms +9\\.0 ms")
                .containsPattern("cache +12 +0 +0 +- +-")
                .contains("index documents 3 = PREFIX.STATS pkg: 3 = JSON-lines final state 3")
                .contains("  CONSISTENT")
                .contains("Query \"gzip\": 1 hit(s)")
                .contains("2.50  gzip 1.12-1 (utils)  GNU compression utilities")
                .contains("Done in 12.3 s");
        assertThat(DemoMain.exitStatus(r)).isZero();
    }

    @Test
    void anInconsistentRunListsTheProblemsAndExitsWith1() {
        DemoReport r = report(List.of("index: pkg:gzip is null, the server has {name=gzip}"));
        assertThat(printed(r)).contains("NOT CONSISTENT:").contains("    index: pkg:gzip is null")
                .contains("FAILED in 12.3 s");
        assertThat(DemoMain.exitStatus(r)).isEqualTo(1);
    }
}
