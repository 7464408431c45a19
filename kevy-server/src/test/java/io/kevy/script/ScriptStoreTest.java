package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Change;
import io.kevy.embedded.Config;
import io.kevy.feed.FeedCursor;
import io.kevy.embedded.Reply;
import io.kevy.embedded.Store;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Store#eval} from Java: replies and errors, the feed carrying the script's effects (never EVAL), and the
 * AOF replaying them after a crash (the AOF holds effects, so a script that read TIME replays exactly).
 */
class ScriptStoreTest {
    @TempDir
    Path dir;

    @Test
    void evalRunsAScriptAndTheFeedCarriesItsEffects() {
        try (Store s = Store.open(Config.defaults().withFeed(1 << 20))) {
            FeedCursor from = s.changesTail();
            Reply r = s.eval("redis.call('set', KEYS[1], ARGV[1]) return redis.call('incrby', KEYS[2], ARGV[2])",
                    List.of("a", "b"), List.of("x", "5"));
            assertThat(r.asLong()).isEqualTo(5);
            assertThat(s.get("a")).isEqualTo("x");
            List<String> frames = s.changesSince(from.generation(), from.offset(), 100, List.of()).changes().stream()
                    .map(ScriptStoreTest::text).toList();
            assertThat(frames).containsExactly("SET a x", "SET b 5 KEEPTTL");
            Reply err = s.eval("return redis.call('incr', KEYS[1])", List.of("a"), List.of());
            assertThat(err.isError()).isTrue();
            assertThat(err.toString()).contains("ERR value is not an integer or out of range script: ");
        }
    }

    @Test
    void theAofReplaysAScriptsEffectsAfterACrash() {
        Store s = Store.open(Config.defaults().withFeed(0).withDataDir(dir));
        s.eval("local t = redis.call('time') redis.call('set', 'started', t[1] .. '.' .. t[2])"
                + " redis.call('rpush', 'l', 'a', 'b') redis.call('hset', 'h', 'f', 'v') redis.call('incr', 'l')",
                List.of(), List.of());
        String started = s.get("started");
        assertThat(started).isNotNull();
        s.abort();
        try (Store s2 = Store.open(Config.defaults().withFeed(0).withDataDir(dir))) {
            assertThat(s2.get("started")).as("TIME's value, replayed as the SET it caused").isEqualTo(started);
            assertThat(s2.execute("LRANGE", "l", "0", "-1").elements()).hasSize(2);
            assertThat(s2.hgetall("h")).containsEntry("f", "v");
        }
    }

    private static String text(Change c) {
        StringBuilder sb = new StringBuilder();
        for (byte[] a : c.argv()) {
            sb.append(sb.length() == 0 ? "" : " ").append(new String(a, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }
}
