package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.TestServer;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The check against a real server: equal states pass; a missing document, a wrong field, a stale cache fail. */
class ConsistencyIT {
    @Test
    void findsEveryKindOfDifference() {
        try (TestServer server = TestServer.start()) {
            RedisCommands<String, String> redis = server.lettuce();
            redis.hset("pkg:gzip", Map.of("name", "gzip", "version", "1.12-1"));
            redis.hset("pkg:zlib1g", Map.of("name", "zlib1g", "version", "1:1.2.13"));
            redis.set("viewed:u1:gzip", "1");
            Map<String, Map<String, String>> same = Consistency.hashes(redis, "pkg:");
            assertThat(same).containsOnlyKeys("pkg:gzip", "pkg:zlib1g");
            assertThat(Consistency.prefixStats(redis, "pkg:")).isEqualTo(2);

            Map<String, Optional<Map<String, String>>> cache = Map.of("gzip", Optional.of(same.get("pkg:gzip")),
                    "gone", Optional.empty());
            Consistency ok = Consistency.check(redis, "pkg:", same, same, 2, cache);
            assertThat(ok.problems()).isEmpty();
            assertThat(ok.consistent()).isTrue();
            assertThat(ok.cacheEntries()).isEqualTo(2);

            Map<String, Map<String, String>> missing = new HashMap<>(same);
            missing.remove("pkg:zlib1g");
            Map<String, Map<String, String>> wrong = new HashMap<>(same);
            wrong.put("pkg:gzip", Map.of("name", "gzip", "version", "old"));
            Consistency bad = Consistency.check(redis, "pkg:", missing, wrong, 2,
                    Map.of("zlib1g", Optional.of(Map.of("name", "zlib1g", "version", "stale"))));
            assertThat(bad.consistent()).isFalse();
            assertThat(bad.problems()).anyMatch(p -> p.startsWith("the index holds 1 documents, the server 2 keys"))
                    .anyMatch(p -> p.startsWith("index: pkg:zlib1g is null"))
                    .anyMatch(p -> p.startsWith("JSON lines: pkg:gzip is {") && p.contains("version=old"))
                    .anyMatch(p -> p.startsWith("cache: pkg:zlib1g serves"));
        }
    }
}
