package io.kevy.examples.demo;

import io.kevy.examples.search.HashIndex;
import io.kevy.examples.search.Hits;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What the demo did and found, and how it prints (step 6): the summary table, the consistency check and the
 * sample queries. Immutable.
 *
 * @param data        where the packages came from
 * @param packages    packages loaded
 * @param commands    write commands the demo sent
 * @param keys        distinct keys they touched
 * @param frames      frames in the feed, per shard
 * @param sinks       one row per sink
 * @param check       the consistency check
 * @param queries     the sample queries with their hits
 * @param seconds     the run's duration
 */
record DemoReport(String data, int packages, long commands, int keys, long[] frames, List<SinkRow> sinks,
        Consistency check, List<Query> queries, double seconds) {

    /**
     * One sink's figures.
     *
     * @param name       e.g. {@code search index}
     * @param what       what it is (printed after the table)
     * @param delivered  changes delivered to it from the feed
     * @param rebuilt    rebuild entries delivered to it (SNAPSHOT + VANISHED)
     * @param resyncs    FEEDRESYNC answers it got
     * @param latency    write → handled, nanoseconds; null when not measured
     */
    record SinkRow(String name, String what, long delivered, long rebuilt, long resyncs, Histogram latency) {
    }

    /** A sample query, its total hits and the top ones. */
    record Query(String query, long total, List<HashIndex.Hit> top) {
    }

    /** True when the check found the index, the JSON lines, the cache and the server in agreement. */
    boolean consistent() {
        return check.consistent();
    }

    private static String n(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    private static String ms(Histogram h, double percentile) {
        return h == null || h.getTotalCount() == 0 ? "-"
                : String.format(Locale.ROOT, "%.1f ms", h.getValueAtPercentile(percentile) / 1e6);
    }

    void print(PrintStream out) {
        long total = 0;
        StringBuilder perShard = new StringBuilder();
        for (int i = 0; i < frames.length; i++) {
            total += frames[i];
            perShard.append(i == 0 ? "" : ", ").append("shard ").append(i).append(": ").append(n(frames[i]));
        }
        out.println();
        out.println("Summary (" + n(packages) + " packages from " + data + ")");
        out.printf(Locale.ROOT, "  %-22s %s commands to %s keys%n", "writes", n(commands), n(keys));
        out.printf(Locale.ROOT, "  %-22s %s (%s)%n", "frames in the feed", n(total), perShard);
        out.println();
        out.printf(Locale.ROOT, "  %-16s %12s %12s %8s %12s %12s%n", "sink", "delivered", "rebuilt", "resyncs",
                "latency p50", "p99");
        for (SinkRow s : sinks) {
            out.printf(Locale.ROOT, "  %-16s %12s %12s %8s %12s %12s%n", s.name(), n(s.delivered()), n(s.rebuilt()),
                    n(s.resyncs()), ms(s.latency(), 50), ms(s.latency(), 99));
        }
        for (SinkRow s : sinks) {
            out.printf(Locale.ROOT, "  %-16s %s%n", s.name() + ":", s.what());
        }
        out.println("  (delivered: changes read from the feed; rebuilt: keys re-read by a rebuild; latency: from "
                + "sending a version bump to the sink having it)");
        out.println();
        out.printf(Locale.ROOT, "Consistency: index documents %s = PREFIX.STATS pkg: %s = JSON-lines final state %s; "
                + "fields equal; %s cached entries current%n", n(check.indexDocs()), n(check.statsKeys()),
                n(check.jsonKeys()), n(check.cacheEntries()));
        if (check.consistent()) {
            out.println("  CONSISTENT");
        } else {
            out.println("  NOT CONSISTENT:");
            check.problems().forEach(p -> out.println("    " + p));
        }
        out.println();
        for (Query q : queries) {
            out.printf(Locale.ROOT, "Query \"%s\": %s hit(s)%n", q.query(), n(q.total()));
            for (HashIndex.Hit h : q.top()) {
                out.println("  " + Hits.line(h));
            }
        }
        out.println();
        out.printf(Locale.ROOT, "%s in %.1f s%n", check.consistent() ? "Done" : "FAILED", seconds);
    }
}
