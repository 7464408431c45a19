package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import org.junit.jupiter.api.Test;

/**
 * FEED.VALUE (ours): the reply bytes per type, the cursor it carries (the shard's next offset at the read: the
 * value holds exactly the frames below it), the absent key, the wrong arity, and a lazy expiry's DEL frame
 * counted below the returned offset.
 */
class FeedValueCommandIT {
    private static TestServer server() {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, 1).with(ServerOptions.FEED_ENABLED, true));
    }

    @Test
    void answersTheValueOfEveryTypeWithItsShardCursor() {
        try (TestServer s = server(); RawClient raw = s.raw()) {
            long gen = new FeedClient(raw).tail(0)[0];
            String head = "*5\r\n:" + gen + "\r\n:";
            assertThat(raw.call("FEED.VALUE", "nope")).isEqualTo(head + "0\r\n+none\r\n:-2\r\n$-1\r\n");
            raw.call("SET", "s", "v");
            assertThat(raw.call("FEED.VALUE", "s")).isEqualTo(head + "1\r\n+string\r\n:-1\r\n$1\r\nv\r\n");
            raw.call("RPUSH", "l", "a", "b");
            assertThat(raw.call("FEED.VALUE", "l"))
                    .isEqualTo(head + "2\r\n+list\r\n:-1\r\n*2\r\n$1\r\na\r\n$1\r\nb\r\n");
            raw.call("HSET", "h", "f", "1");
            assertThat(raw.call("FEED.VALUE", "h"))
                    .isEqualTo(head + "3\r\n+hash\r\n:-1\r\n*2\r\n$1\r\nf\r\n$1\r\n1\r\n");
            raw.call("SADD", "st", "m");
            assertThat(raw.call("FEED.VALUE", "st")).isEqualTo(head + "4\r\n+set\r\n:-1\r\n*1\r\n$1\r\nm\r\n");
            raw.call("ZADD", "z", "1.5", "m");
            raw.call("PEXPIREAT", "z", "99999999999999");
            assertThat(raw.call("FEED.VALUE", "z"))
                    .isEqualTo(head + "6\r\n+zset\r\n:99999999999999\r\n*2\r\n$1\r\nm\r\n$3\r\n1.5\r\n");
            raw.call("XADD", "x", "1-1", "f", "v");
            raw.call("XADD", "x", "2-0", "g", "w");
            raw.call("XDEL", "x", "1-1");
            assertThat(raw.call("FEED.VALUE", "x")).isEqualTo(head + "9\r\n+stream\r\n:-1\r\n*4\r\n$3\r\n2-0\r\n"
                    + ":2\r\n$3\r\n1-1\r\n*1\r\n*2\r\n$3\r\n2-0\r\n*2\r\n$1\r\ng\r\n$1\r\nw\r\n");
            assertThat(raw.call("FEED.VALUE")).isEqualTo("-ERR wrong number of arguments for 'feed.value' command\r\n");
            assertThat(raw.call("FEED.VALUE", "a", "b"))
                    .isEqualTo("-ERR wrong number of arguments for 'feed.value' command\r\n");
        }
    }

    @Test
    void aLazyExpiryIsBelowTheReturnedOffset() throws Exception {
        try (TestServer s = server(); RawClient raw = s.raw()) {
            raw.call("CONFIG", "SET", "hz", "1");
            raw.call("DEBUG", "SET-ACTIVE-EXPIRE", "0");
            long gen = new FeedClient(raw).tail(0)[0];
            raw.call("SET", "k", "v", "PX", "1");
            long deadline = System.currentTimeMillis() + 2;
            while (System.currentTimeMillis() <= deadline) {
                Thread.onSpinWait();
            }
            // offset 0: SET, offset 1: the lazy expiry's DEL, made by this read
            assertThat(raw.call("FEED.VALUE", "k")).isEqualTo("*5\r\n:" + gen + "\r\n:2\r\n+none\r\n:-2\r\n$-1\r\n");
            assertThat(new FeedClient(raw).tail(0)[1]).isEqualTo(2);
        }
    }
}
