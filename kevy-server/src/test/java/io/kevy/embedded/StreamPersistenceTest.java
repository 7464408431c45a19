package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.StateDump;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams survive restarts: through the AOF (the frames replayed) and through a snapshot (a RESTORE of the stream's
 * DUMP payload), entries, counters, groups, consumers and pending entries (owner, delivery time and count)
 * included, also pending entries whose stream entry was deleted; a snapshot also keeps the listpack nodes and the
 * consumers' seen times, so XINFO STREAM FULL is the same reply after it.
 */
class StreamPersistenceTest {
    @TempDir
    Path dir;

    private static void fill(Store s) {
        for (int i = 1; i <= 250; i++) {
            assertThat(s.execute("XADD", "st", i + "-0", "f", "v" + i).isError()).isFalse();
        }
        s.execute("XDEL", "st", "3-0", "200-0");
        s.execute("XTRIM", "st", "MAXLEN", "~", "140");
        s.execute("XADD", "st", "*", "auto", "id");
        s.execute("XGROUP", "CREATE", "st", "g", "0");
        s.execute("XGROUP", "CREATE", "st", "h", "$", "ENTRIESREAD", "7");
        s.execute("XREADGROUP", "GROUP", "g", "alice", "COUNT", "5", "STREAMS", "st", ">");
        s.execute("XREADGROUP", "GROUP", "g", "bob", "COUNT", "3", "STREAMS", "st", ">");
        s.execute("XCLAIM", "st", "g", "carol", "0", "120-0", "102-0", "TIME", "12345", "RETRYCOUNT", "4", "FORCE");
        s.execute("XACK", "st", "g", "121-0");
        s.execute("XDEL", "st", "101-0", "107-0"); // pending, now without their entries
        s.execute("XREADGROUP", "GROUP", "h", "early", "STREAMS", "st", "0"); // creates a consumer, reads nothing
        s.execute("XADD", "ghosts", "1-1", "a", "b");
        s.execute("XADD", "ghosts", "2-1", "a", "b");
        s.execute("XGROUP", "CREATE", "ghosts", "g", "0");
        s.execute("XREADGROUP", "GROUP", "g", "c", "STREAMS", "ghosts", ">");
        s.execute("XDEL", "ghosts", "1-1", "2-1");
        s.execute("XGROUP", "CREATECONSUMER", "st", "h", "idle");
        s.execute("XGROUP", "CREATE", "empty", "g", "$", "MKSTREAM");
        s.execute("XSETID", "st", "999999999999999-5", "ENTRIESADDED", "5000", "MAXDELETEDID", "250-0");
    }

    @Test
    void aofReplayAndSnapshotBothRestoreTheWholeStream() {
        Map<String, String> before;
        String full;
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            fill(s);
            before = StateDump.of(s.engine());
            assertThat(before.get("st")).contains("group g").contains("carol").contains("@12345#4")
                    .contains("group h").contains("idle");
            assertThat(before.get("empty")).contains("stream last=0-0");
            assertThat(before.get("st")).contains("101-0:alice@").contains("107-0:bob@");
            assertThat(before.get("ghosts")).contains("[]").contains("1-1:c@").contains("2-1:c@");
        }
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            assertThat(StateDump.of(s.engine())).as("after replaying the AOF").isEqualTo(before);
            assertThat(s.execute("TYPE", "st").toString()).contains("stream");
            full = s.execute("XINFO", "STREAM", "st", "FULL").toString();
            assertThat(s.execute("SAVE").toString()).contains("OK");
        }
        try (Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            assertThat(StateDump.of(s.engine())).as("after loading the snapshot").isEqualTo(before);
            assertThat(s.execute("XINFO", "STREAM", "st", "FULL").toString()).isEqualTo(full)
                    .contains("radix-tree-keys").contains("seen-time");
        }
    }
}
