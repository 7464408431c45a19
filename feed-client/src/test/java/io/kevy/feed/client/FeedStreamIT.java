package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Streams through the feed client (issue 27): a consumer sees typed stream changes (XADD with its assigned id
 * and fields, XTRIM, XDEL, XSETID, XGROUP, XCLAIM of an XREADGROUP delivery, XACK), GEOADD as ZADD and PFADD as
 * SET; a forced rebuild delivers a stream key as a SNAPSHOT of its entries and counters; and a FeedMirror of
 * streams equals XRANGE - + and XINFO STREAM's counters after a seeded random XADD / XTRIM / XDEL / XSETID
 * workload with rebuilds in between.
 */
class FeedStreamIT {
    private static List<Change<String, String>> collector(List<Change<String, String>> into, Batch<String, String> b) {
        for (Change<String, String> c : b) {
            into.add(c);
        }
        return into;
    }

    @Test
    void aConsumerSeesTypedStreamChangesAndARebuildDeliversTheEntries() throws Exception {
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.SHARDS, 2));
             FeedSource source = FeedSource.connect(server.uri()); RawClient raw = server.raw()) {
            List<Change<String, String>> seen = new CopyOnWriteArrayList<>();
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("streams").prefixes("s:", "g:", "h:").handler(b -> collector(seen, b)).build();
            consumer.start().toCompletableFuture().get();
            String id = raw.call("XADD", "s:{t}1", "*", "f", "1", "g", "2").split("\r\n")[1];
            raw.call("XADD", "s:{t}1", "MAXLEN", "1", "*", "f", "3");
            String id3 = raw.call("XADD", "s:{t}1", "*", "f", "4").split("\r\n")[1];
            raw.call("XDEL", "s:{t}1", id3);
            raw.call("XTRIM", "s:{t}1", "MAXLEN", "0");
            raw.call("XSETID", "s:{t}1", "99999999999999-7", "ENTRIESADDED", "9", "MAXDELETEDID", "6-0");
            raw.call("XADD", "s:{t}2", "1-1", "x", "y");
            raw.call("XGROUP", "CREATE", "s:{t}2", "grp", "0");
            raw.call("XREADGROUP", "GROUP", "grp", "alice", "STREAMS", "s:{t}2", ">");
            raw.call("XACK", "s:{t}2", "grp", "1-1");
            raw.call("GEOADD", "g:{t}1", "13.361389", "38.115556", "Palermo");
            raw.call("PFADD", "h:{t}1", "a", "b");
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> seen.stream()
                    .anyMatch(c -> "h:{t}1".equals(c.key())));
            List<String> ops = new ArrayList<>();
            seen.forEach(c -> ops.add(c.op() + (c.subcommand().isEmpty() ? "" : " " + c.subcommand())));
            System.out.println("FeedStreamIT: ops " + ops);
            assertThat(ops).containsExactly("XADD", "XADD", "XADD", "XDEL", "XTRIM", "XSETID", "XADD",
                    "XGROUP CREATE", "XGROUP CREATECONSUMER", "XCLAIM", "XGROUP SETID", "XACK", "ZADD", "SET");
            Change<String, String> first = seen.get(0);
            assertThat(first.exact()).isTrue();
            assertThat(first.key()).isEqualTo("s:{t}1");
            assertThat(first.valueType()).isEqualTo(ValueType.STREAM);
            assertThat(first.streamIds()).containsExactly(id);
            assertThat(first.fields()).extracting(kv -> kv.getKey() + "=" + kv.getValue()).containsExactly("f=1", "g=2");
            assertThat(seen.get(1).count()).hasValue(1);
            assertThat(seen.get(2).streamIds()).containsExactly(id3);
            assertThat(seen.get(3).streamIds()).containsExactly(id3);
            assertThat(seen.get(4).count()).hasValue(0);
            assertThat(seen.get(5).streamLastId()).isEqualTo("99999999999999-7");
            assertThat(seen.get(5).streamEntriesAdded()).hasValue(9);
            assertThat(seen.get(5).streamMaxDeletedId()).isEqualTo("6-0");
            Change<String, String> create = seen.get(7);
            assertThat(create.key()).isEqualTo("s:{t}2");
            assertThat(create.streamGroup()).isEqualTo("grp");
            assertThat(create.streamIds()).containsExactly("0-0");
            assertThat(seen.get(8).streamConsumer()).isEqualTo("alice");
            Change<String, String> claim = seen.get(9);
            assertThat(claim.exact()).isTrue();
            assertThat(claim.streamGroup()).isEqualTo("grp");
            assertThat(claim.streamConsumer()).isEqualTo("alice");
            assertThat(claim.streamIds()).containsExactly("1-1");
            assertThat(seen.get(11).streamIds()).containsExactly("1-1");
            assertThat(seen.get(12).scored()).hasSize(1);
            assertThat(seen.get(12).scored().get(0).getValue()).isEqualTo("Palermo");
            assertThat(seen.get(13).value()).startsWith("HYLL");

            seen.clear();
            raw.call("XADD", "s:{t}2", "2-0", "a", "b", "c", "d");
            consumer.rebuild().toCompletableFuture().get(60, java.util.concurrent.TimeUnit.SECONDS);
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> seen.stream()
                    .filter(c -> c.op() == Op.SNAPSHOT).count() == 4);
            Change<String, String> s2 = seen.stream().filter(c -> c.op() == Op.SNAPSHOT && c.key().equals("s:{t}2"))
                    .findFirst().orElseThrow();
            assertThat(s2.valueType()).isEqualTo(ValueType.STREAM);
            assertThat(s2.streamEntries()).extracting(StreamMessage::getId).containsExactly("1-1", "2-0");
            assertThat(s2.streamEntries().get(1).getBody()).isEqualTo(Map.of("a", "b", "c", "d"));
            assertThat(s2.streamLastId()).isEqualTo("2-0");
            assertThat(s2.streamEntriesAdded()).hasValue(2);
            Change<String, String> s1 = seen.stream().filter(c -> c.op() == Op.SNAPSHOT && c.key().equals("s:{t}1"))
                    .findFirst().orElseThrow();
            assertThat(s1.streamEntries()).isEmpty(); // an empty stream exists and is rebuilt as one
            assertThat(s1.streamLastId()).isEqualTo("99999999999999-7");
            Change<String, String> hll = seen.stream().filter(c -> c.op() == Op.SNAPSHOT && c.key().equals("h:{t}1"))
                    .findFirst().orElseThrow();
            assertThat(hll.valueType()).isEqualTo(ValueType.STRING);
            assertThat(hll.bytes().value()).isEqualTo(server.lettuceBinary().get("h:{t}1".getBytes()));
            consumer.close();
        }
    }

    @Test
    void upstreamVerbatimStreamFramesDecodeWithoutFailing() {
        Change<String, String> add = decode("xadd", "k", "NOMKSTREAM", "MAXLEN", "~", "10", "*", "f", "v");
        assertThat(add.op()).isEqualTo(Op.XADD);
        assertThat(add.exact()).isFalse();
        assertThat(add.streamIds()).isEmpty();
        assertThat(add.fields()).hasSize(1);
        Change<String, String> read = decode("XREADGROUP", "GROUP", "g", "c", "COUNT", "1", "STREAMS", "a", "b", ">",
                ">");
        assertThat(read.op()).isEqualTo(Op.XCLAIM);
        assertThat(read.exact()).isFalse();
        assertThat(read.keys()).containsExactly("a", "b");
        assertThat(decode("XGROUP", "CREATE", "k", "g", "$").exact()).isFalse();
        assertThat(decode("XAUTOCLAIM", "k", "g", "c", "10", "0-0").op()).isEqualTo(Op.XCLAIM);
        assertThat(decode("XCLAIM", "k", "g", "c", "10", "1-1").exact()).isFalse();
        assertThat(decode("XADD", "k").op()).isEqualTo(Op.OTHER); // malformed: no failure
        assertThat(decode("XGROUP", "HELP").op()).isEqualTo(Op.OTHER);
    }

    private static Change<String, String> decode(String... argv) {
        byte[][] a = new byte[argv.length][];
        for (int i = 0; i < a.length; i++) {
            a[i] = argv[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        return Change.of(StringCodec.UTF8, 0, 1, new Frame(0, a), 0);
    }

    @Test
    void aStreamMirrorEqualsXrangeAndXinfoAfterARandomWorkloadWithRebuilds() throws Exception {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        System.out.println("FeedStreamIT: seed " + seed);
        Random r = new Random(seed);
        try (TestServer server = Servers.start(c -> c.with(ServerOptions.SHARDS, 4));
             FeedSource source = FeedSource.connect(server.uri()); RawClient raw = server.raw();
             FeedMirror<String, String> mirror = FeedMirror.builder(StringCodec.UTF8).source(source)
                     .name("stream-mirror").prefixes("x:").build()) {
            for (int i = 0; i < 50; i++) {
                raw.call("XADD", "x:" + r.nextInt(6), "*", "f", "v" + i);
            }
            mirror.start().toCompletableFuture().get();
            assertThat(mirror.awaitSynced(Duration.ofSeconds(60))).isTrue();
            RedisCommands<String, String> redis = server.lettuce();
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 300; i++) {
                    String k = "x:" + r.nextInt(6);
                    long now = System.currentTimeMillis();
                    switch (r.nextInt(7)) {
                        case 0, 1 -> raw.call("XADD", k, "*", "f", "v" + i, "n", Integer.toString(r.nextInt(9)));
                        case 2 -> raw.call("XADD", k, "MAXLEN", r.nextBoolean() ? "~" : "=",
                                Integer.toString(r.nextInt(8)), "*", "f", "t" + i);
                        case 3 -> raw.call("XTRIM", k, "MAXLEN", Integer.toString(r.nextInt(6)));
                        case 4 -> raw.call("XTRIM", k, "MINID", "~", Long.toString(now - r.nextInt(5)));
                        case 5 -> {
                            List<StreamMessage<String, String>> all = redis.xrange(k,
                                    io.lettuce.core.Range.create("-", "+"));
                            if (!all.isEmpty()) {
                                raw.call("XDEL", k, all.get(r.nextInt(all.size())).getId(), "1-0");
                            }
                        }
                        default -> raw.call("XSETID", k, (now + 1 + r.nextInt(3)) + "-0", "ENTRIESADDED", "100000");
                    }
                }
                if (round % 2 == 1) {
                    mirror.consumer().rebuild().toCompletableFuture().get(60, java.util.concurrent.TimeUnit.SECONDS);
                }
                Servers.awaitCaughtUp(mirror.consumer(), source, Duration.ofSeconds(60));
                int streams = 0;
                for (int k = 0; k < 6; k++) {
                    String key = "x:" + k;
                    if (redis.exists(key) == 0) {
                        assertThat(mirror.get(key)).isEmpty();
                        continue;
                    }
                    streams++;
                    MirroredValue<String> m = mirror.get(key).orElseThrow();
                    assertThat(m.type()).isEqualTo(ValueType.STREAM);
                    List<String> server2 = new ArrayList<>();
                    redis.xrange(key, io.lettuce.core.Range.create("-", "+"))
                            .forEach(e -> server2.add(e.getId() + " " + e.getBody()));
                    List<String> local = new ArrayList<>();
                    m.stream().forEach(e -> local.add(e.getId() + " " + e.getBody()));
                    assertThat(local).as("seed %d round %d %s", seed, round, key).isEqualTo(server2);
                    List<Object> info = redis.xinfoStream(key);
                    assertThat(m.streamLastId()).isEqualTo(infoField(info, "last-generated-id"));
                    assertThat(m.streamEntriesAdded()).isEqualTo(infoField(info, "entries-added"));
                    assertThat(m.streamMaxDeletedId()).isEqualTo(infoField(info, "max-deleted-entry-id"));
                }
                System.out.println("FeedStreamIT: round " + round + ": " + streams + " stream(s) equal to XRANGE and"
                        + " XINFO STREAM");
            }
        }
    }

    private static Object infoField(List<Object> info, String name) {
        for (int i = 0; i + 1 < info.size(); i += 2) {
            if (name.equals(info.get(i))) {
                return info.get(i + 1);
            }
        }
        throw new AssertionError("XINFO STREAM has no " + name + ": " + info);
    }
}
