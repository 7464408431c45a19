package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.testing.TestServer;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scripts as real applications send them, through lettuce unchanged: the fixed-window rate limiter of the
 * Redis documentation (INCR, then EXPIRE on the first hit) by SCRIPT LOAD + EVALSHA, lettuce's NOSCRIPT
 * exception, and the compare-and-delete lock release of the Redlock pattern.
 */
class ScriptClientIT {
    private static final String RATE_LIMIT = """
            local current = redis.call('incr', KEYS[1])
            if current == 1 then
                redis.call('expire', KEYS[1], ARGV[1])
            end
            if current > tonumber(ARGV[2]) then
                return 0
            end
            return 1
            """;
    private static final String RELEASE = """
            if redis.call('get', KEYS[1]) == ARGV[1] then
                return redis.call('del', KEYS[1])
            else
                return 0
            end
            """;

    @Test
    void aRateLimiterAndALockWorkThroughLettuce() {
        try (TestServer server = TestServer.start()) {
            RedisCommands<String, String> redis = server.lettuce();
            String sha = redis.scriptLoad(RATE_LIMIT);
            assertThat(redis.scriptExists(sha)).containsExactly(true);
            int allowed = 0;
            for (int i = 0; i < 8; i++) {
                Long ok = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {"rate:user1"}, "60", "5");
                allowed += ok.intValue();
            }
            assertThat(allowed).as("5 of 8 requests in the window").isEqualTo(5);
            assertThat(redis.ttl("rate:user1")).isBetween(1L, 60L);
            assertThat(redis.get("rate:user1")).isEqualTo("8");

            redis.scriptFlush();
            assertThatThrownBy(() -> redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {"rate:user1"},
                    "60", "5")).isInstanceOf(RedisNoScriptException.class);

            redis.set("lock:res", "token-1");
            Long wrong = redis.eval(RELEASE, ScriptOutputType.INTEGER, new String[] {"lock:res"}, "token-2");
            assertThat(wrong).isZero();
            assertThat(redis.get("lock:res")).isEqualTo("token-1");
            Long released = redis.eval(RELEASE, ScriptOutputType.INTEGER, new String[] {"lock:res"}, "token-1");
            assertThat(released).isOne();
            assertThat(redis.exists("lock:res")).isZero();

            List<Object> multi = redis.eval("return {KEYS[1], ARGV[1], 3, {ok='fine'}}", ScriptOutputType.MULTI,
                    new String[] {"k"}, "a");
            assertThat(multi).containsExactly("k", "a", 3L, "fine");
        }
    }
}
