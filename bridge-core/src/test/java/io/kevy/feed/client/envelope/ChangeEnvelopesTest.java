package io.kevy.feed.client.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.Frame;
import io.kevy.feed.client.RebuildReason;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.TestChanges;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The CloudEvents change envelope: fields, ids, per-key splits, binary safety, and the JSON Schema in docs. */
class ChangeEnvelopesTest {
    private static final ChangeEnvelopes ENV = ChangeEnvelopes.forSource("127.0.0.1:6004");
    private static final MiniJsonSchema SCHEMA = schema();

    private static MiniJsonSchema schema() {
        try {
            Path p = Path.of("..", "docs", "schema", "change-envelope.schema.json");
            return new MiniJsonSchema(ChangeEnvelopes.mapper().readTree(Files.readAllBytes(p)));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Change<String, String> change(int shard, long gen, long offset, String... argv) {
        return Change.of(StringCodec.UTF8, shard, gen, TestChanges.frame(offset, argv), 1_700_000_000_123L);
    }

    private static void valid(JsonNode e) {
        assertThat(SCHEMA.validate(e)).as(e.toString()).isEmpty();
    }

    @Test
    void aSetBecomesOneCloudEvent() {
        ObjectNode e = ENV.envelope(change(2, 8812, 41, "SET", "user:1", "ada", "PXAT", "1800000000000"));
        valid(e);
        assertThat(e.get("specversion").asText()).isEqualTo("1.0");
        assertThat(e.get("id").asText()).isEqualTo("2:8812:41");
        assertThat(e.get("source").asText()).isEqualTo("kevy://127.0.0.1:6004/shard/2");
        assertThat(e.get("type").asText()).isEqualTo("io.kevy.change.set");
        assertThat(e.get("subject").asText()).isEqualTo("user:1");
        assertThat(e.get("time").asText()).isEqualTo("2023-11-14T22:13:20.123Z");
        assertThat(e.get("datacontenttype").asText()).isEqualTo("application/json");
        assertThat(e.get("kevygeneration").asText()).isEqualTo("8812");
        JsonNode d = e.get("data");
        assertThat(d.get("op").asText()).isEqualTo("set");
        assertThat(d.get("key").asText()).isEqualTo("user:1");
        assertThat(d.get("value").asText()).isEqualTo("ada");
        assertThat(d.get("expireAtMs").asLong()).isEqualTo(1_800_000_000_000L);
        assertThat(d.get("exact").asBoolean()).isTrue();
        assertThat(d.get("argv").toString()).isEqualTo("[\"SET\",\"user:1\",\"ada\",\"PXAT\",\"1800000000000\"]");
    }

    @Test
    void binaryBytesAreBase64WithAMarkerAndRoundTrip() {
        byte[] key = {'k', (byte) 0xff, 0, 1};
        byte[] value = {(byte) 0xc3, (byte) 0x28};
        Change<byte[], byte[]> c = Change.of(io.lettuce.core.codec.ByteArrayCodec.INSTANCE, 0, 1,
                new Frame(0, new byte[][] {"SET".getBytes(StandardCharsets.US_ASCII), key, value}), 0);
        ObjectNode e = ENV.envelope(c);
        valid(e);
        assertThat(e.get("data").get("key").get("base64").asText()).isEqualTo("a/8AAQ==");
        assertThat(ChangeEnvelopes.decodeBytes(e.get("data").get("key"))).isEqualTo(key);
        assertThat(ChangeEnvelopes.decodeBytes(e.get("data").get("value"))).isEqualTo(value);
        assertThat(e.get("subject").asText()).isEqualTo("base64:a/8AAQ==");
        assertThat(ChangeEnvelopes.decodeBytes(ChangeEnvelopes.bytes("héllo".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("héllo".getBytes(StandardCharsets.UTF_8));
        assertThat(ChangeEnvelopes.bytes("plain".getBytes(StandardCharsets.UTF_8)).isTextual()).isTrue();
        assertThatThrownBy(() -> ChangeEnvelopes.decodeBytes(ChangeEnvelopes.mapper().createArrayNode()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void multiKeyFramesSplitPerKeyWithIndexedIds() {
        List<ObjectNode> mset = ENV.perKey(change(1, 5, 9, "MSET", "a", "1", "b", "2"));
        assertThat(mset).extracting(n -> n.get("id").asText()).containsExactly("1:5:9:0", "1:5:9:1");
        assertThat(mset).extracting(n -> n.get("type").asText()).containsOnly("io.kevy.change.set");
        assertThat(mset).extracting(n -> n.get("subject").asText()).containsExactly("a", "b");
        assertThat(mset).extracting(n -> n.get("data").get("value").asText()).containsExactly("1", "2");
        List<ObjectNode> del = ENV.perKey(change(1, 5, 10, "DEL", "a", "b", "c"));
        assertThat(del).extracting(n -> n.get("subject").asText()).containsExactly("a", "b", "c");
        List<ObjectNode> rename = ENV.perKey(change(1, 5, 11, "RENAME", "a", "b"));
        assertThat(rename.get(0).get("data").get("to").asText()).isEqualTo("b");
        assertThat(rename.get(1).get("data").get("from").asText()).isEqualTo("a");
        List<ObjectNode> single = ENV.perKey(change(1, 5, 12, "HSET", "h", "f", "v"));
        assertThat(single).extracting(n -> n.get("id").asText()).containsExactly("1:5:12");
        for (ObjectNode n : concat(mset, del, rename, single)) {
            valid(n);
        }
        ObjectNode whole = ENV.envelope(change(1, 5, 9, "MSET", "a", "1", "b", "2"));
        valid(whole);
        assertThat(whole.get("data").get("keys").toString()).isEqualTo("[\"a\",\"b\"]");
    }

    @SafeVarargs
    private static List<ObjectNode> concat(List<ObjectNode>... lists) {
        List<ObjectNode> out = new ArrayList<>();
        for (List<ObjectNode> l : lists) {
            out.addAll(l);
        }
        return out;
    }

    @Test
    void everyOpOfTheDecoderTablesValidates() {
        for (String[] argv : TestChanges.ALL_SHAPES) {
            Change<String, String> c = change(0, 3, 7, argv);
            valid(ENV.envelope(c));
            ENV.perKey(c).forEach(ChangeEnvelopesTest::valid);
        }
    }

    /** Our stream effect frames (docs/cdc.md) and upstream's verbatim stream commands. */
    private static final String[][] STREAM_SHAPES = {
        {"XADD", "s", "1700000000000-0", "f", "v", "g", "w"}, {"XADD", "s", "MAXLEN", "=", "3", "5-1", "f", "v"},
        {"XADD", "s", "*", "f", "v"}, {"XADD", "s", "NOMKSTREAM", "MINID", "~", "5", "*", "f", "v"},
        {"XTRIM", "s", "MAXLEN", "=", "2"}, {"XTRIM", "s", "MINID", "5-0"}, {"XTRIM", "s", "MAXLEN", "~", "2", "LIMIT", "10"},
        {"XDEL", "s", "1-1", "2-0"}, {"XSETID", "s", "9-9", "ENTRIESADDED", "12", "MAXDELETEDID", "4-0"},
        {"XSETID", "s", "9-9"}, {"XGROUP", "CREATE", "s", "g", "0-0", "ENTRIESREAD", "0"},
        {"XGROUP", "CREATE", "s", "g", "$", "MKSTREAM"}, {"XGROUP", "SETID", "s", "g", "5-0"},
        {"XGROUP", "DESTROY", "s", "g"}, {"XGROUP", "CREATECONSUMER", "s", "g", "c"},
        {"XGROUP", "DELCONSUMER", "s", "g", "c"}, {"XACK", "s", "g", "1-1", "2-0"},
        {"XCLAIM", "s", "g", "c", "0", "1-1", "TIME", "1700000000000", "RETRYCOUNT", "1", "FORCE", "JUSTID"},
        {"XCLAIM", "s", "g", "c", "3600000", "1-1"}, {"XAUTOCLAIM", "s", "g", "c", "0", "0-0"},
        {"XREADGROUP", "GROUP", "g", "c", "COUNT", "2", "STREAMS", "s", "t", ">", ">"},
    };

    @Test
    void everyStreamOpValidatesAndCarriesItsIdsGroupAndCounters() {
        for (String[] argv : STREAM_SHAPES) {
            Change<String, String> c = change(0, 3, 7, argv);
            valid(ENV.envelope(c));
            ENV.perKey(c).forEach(ChangeEnvelopesTest::valid);
        }
        JsonNode xadd = ENV.envelope(change(0, 3, 7, "XADD", "s", "MAXLEN", "=", "3", "5-1", "f", "v")).get("data");
        assertThat(xadd.get("op").asText()).isEqualTo("xadd");
        assertThat(xadd.get("ids").toString()).isEqualTo("[\"5-1\"]");
        assertThat(xadd.get("fields").toString()).isEqualTo("[{\"name\":\"f\",\"value\":\"v\"}]");
        assertThat(xadd.get("count").asLong()).isEqualTo(3);
        assertThat(xadd.get("valueType").asText()).isEqualTo("stream");
        assertThat(ENV.envelope(change(0, 3, 7, "XADD", "s", "*", "f", "v")).get("data").has("ids")).isFalse();
        JsonNode setid = ENV.envelope(change(0, 3, 8, "XSETID", "s", "9-9", "ENTRIESADDED", "12", "MAXDELETEDID",
                "4-0")).get("data");
        assertThat(setid.get("lastId").asText()).isEqualTo("9-9");
        assertThat(setid.get("entriesAdded").asLong()).isEqualTo(12);
        assertThat(setid.get("maxDeletedId").asText()).isEqualTo("4-0");
        JsonNode group = ENV.envelope(change(0, 3, 9, "XGROUP", "CREATECONSUMER", "s", "g", "c")).get("data");
        assertThat(group.get("key").asText()).isEqualTo("s");
        assertThat(group.get("subcommand").asText()).isEqualTo("CREATECONSUMER");
        assertThat(group.get("group").asText()).isEqualTo("g");
        assertThat(group.get("consumer").asText()).isEqualTo("c");
        JsonNode claim = ENV.envelope(change(0, 3, 10, "XCLAIM", "s", "g", "c", "0", "1-1", "TIME", "1700000000000",
                "RETRYCOUNT", "1", "FORCE", "JUSTID")).get("data");
        assertThat(claim.get("ids").toString()).isEqualTo("[\"1-1\"]");
        assertThat(claim.get("exact").asBoolean()).isTrue();
        JsonNode ack = ENV.envelope(change(0, 3, 11, "XACK", "s", "g", "1-1", "2-0")).get("data");
        assertThat(ack.get("ids").toString()).isEqualTo("[\"1-1\",\"2-0\"]");
        assertThat(ack.get("group").asText()).isEqualTo("g");
    }

    @Test
    void aStreamSnapshotCarriesItsEntriesAndCounters() {
        Cursor carried = new Cursor(1, 9, 100);
        io.kevy.feed.client.KeySnapshot stream = new io.kevy.feed.client.KeySnapshot(TestChanges.utf8("s"),
                io.kevy.feed.client.ValueType.STREAM,
                java.util.Arrays.stream(new String[] {"5-0", "3", "2-0", "1-0", "4", "f", "v", "g", "w", "5-0", "2",
                    "f", "x"}).map(TestChanges::utf8).toList(), -1, -1);
        ObjectNode e = ENV.envelope(TestChanges.snapshot(StringCodec.UTF8, carried, 0, stream, 1_000L));
        valid(e);
        JsonNode d = e.get("data");
        assertThat(d.get("valueType").asText()).isEqualTo("stream");
        assertThat(d.get("entries").toString()).isEqualTo("[{\"id\":\"1-0\",\"fields\":[{\"name\":\"f\","
                + "\"value\":\"v\"},{\"name\":\"g\",\"value\":\"w\"}]},{\"id\":\"5-0\",\"fields\":"
                + "[{\"name\":\"f\",\"value\":\"x\"}]}]");
        assertThat(d.get("lastId").asText()).isEqualTo("5-0");
        assertThat(d.get("entriesAdded").asLong()).isEqualTo(3);
        assertThat(d.get("maxDeletedId").asText()).isEqualTo("2-0");
        assertThat(d.has("ids")).isFalse();
    }

    @Test
    void zsetScoresKeepInfinities() {
        ObjectNode e = ENV.envelope(change(0, 1, 0, "ZADD", "z", "inf", "a", "-inf", "b", "1.5", "c"));
        valid(e);
        assertThat(e.get("data").get("scored").toString()).isEqualTo(
                "[{\"member\":\"a\",\"score\":\"inf\"},{\"member\":\"b\",\"score\":\"-inf\"},"
                        + "{\"member\":\"c\",\"score\":1.5}]");
    }

    @Test
    void rebuildMarkersCarryGenerationAndTail() {
        RebuildScope scope = new RebuildScope(3, RebuildReason.RESYNC, Map.of(1, new Cursor(1, 77, 1200)), 4,
                List.of("user:".getBytes(StandardCharsets.UTF_8)));
        ObjectNode begin = ENV.rebuildBegin(scope, 1);
        ObjectNode end = ENV.rebuildEnd(scope, 1, new RebuildResult(10, 2, Duration.ofMillis(5)));
        valid(begin);
        valid(end);
        assertThat(begin.get("type").asText()).isEqualTo("io.kevy.resync.begin");
        assertThat(begin.get("data").get("generation").asLong()).isEqualTo(77);
        assertThat(begin.get("data").get("tail").asLong()).isEqualTo(1200);
        assertThat(end.get("data").get("keys").asLong()).isEqualTo(10);
        assertThat(end.get("id").asText()).isEqualTo("1:77:1200:rebuild:3:end");
        assertThatThrownBy(() -> ENV.rebuildBegin(scope, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void snapshotAndVanishedEntriesValidate() {
        Cursor carried = new Cursor(2, 9, 100);
        io.kevy.feed.client.KeySnapshot hash = new io.kevy.feed.client.KeySnapshot(TestChanges.utf8("h"),
                io.kevy.feed.client.ValueType.HASH, List.of(TestChanges.utf8("f"), TestChanges.utf8("v")), 5000, -1);
        ObjectNode e = ENV.envelope(TestChanges.snapshot(StringCodec.UTF8, carried, 0, hash, 1_000L));
        valid(e);
        assertThat(e.get("id").asText()).isEqualTo("2:9:100:snapshot:0");
        assertThat(e.get("type").asText()).isEqualTo("io.kevy.change.snapshot");
        assertThat(e.get("data").get("valueType").asText()).isEqualTo("hash");
        assertThat(e.get("data").get("expireAtMs").asLong()).isEqualTo(6_000L);
        assertThat(e.get("data").has("argv")).isFalse();
        ObjectNode v = ENV.envelope(TestChanges.vanished(StringCodec.UTF8, carried, 4, TestChanges.utf8("gone")));
        valid(v);
        assertThat(v.get("id").asText()).isEqualTo("2:9:100:vanished:4");
    }
}
