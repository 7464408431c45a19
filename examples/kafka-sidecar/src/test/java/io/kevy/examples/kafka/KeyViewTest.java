package io.kevy.examples.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The view's rules, on envelopes in the documented format (docs/consumer.md, docs/bridges.md). */
class KeyViewTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final KeyView view = new KeyView();

    private void apply(int partition, String data) throws Exception {
        JsonNode e = JSON.readTree("{\"specversion\":\"1.0\",\"type\":\"io.kevy.change.x\",\"data\":" + data + "}");
        view.apply(partition, e);
    }

    @Test
    void followsStringsAndHashes() throws Exception {
        apply(0, "{\"op\":\"hset\",\"key\":\"pkg:a\",\"shard\":0,\"fields\":[{\"name\":\"version\",\"value\":\"1\"},"
                + "{\"name\":\"name\",\"value\":\"a\"}]}");
        apply(0, "{\"op\":\"hset\",\"key\":\"pkg:a\",\"shard\":0,\"fields\":[{\"name\":\"version\",\"value\":\"2\"}]}");
        apply(1, "{\"op\":\"set\",\"key\":\"user:1\",\"shard\":1,\"value\":\"Ada\"}");
        apply(1, "{\"op\":\"expire\",\"key\":\"user:1\",\"shard\":1,\"expireAtMs\":1}");
        assertThat(view.hashes()).containsExactly(Map.entry("pkg:a", Map.of("name", "a", "version", "2")));
        assertThat(view.string("user:1")).isEqualTo("Ada");
        apply(0, "{\"op\":\"hdel\",\"key\":\"pkg:a\",\"shard\":0,\"fieldNames\":[\"version\"]}");
        assertThat(view.hashes()).containsExactly(Map.entry("pkg:a", Map.of("name", "a")));
        apply(0, "{\"op\":\"hdel\",\"key\":\"pkg:a\",\"shard\":0,\"fieldNames\":[\"name\"]}");
        assertThat(view.hashes()).as("the last field gone: the key is gone").isEmpty();
        apply(1, "{\"op\":\"del\",\"key\":\"user:1\",\"shard\":1}");
        assertThat(view.size()).isZero();
        assertThat(view.applied()).isEqualTo(7);
    }

    @Test
    void renamesMoveTheValueWhicheverRecordComesFirst() throws Exception {
        apply(0, "{\"op\":\"set\",\"key\":\"a\",\"shard\":0,\"value\":\"v\"}");
        apply(1, "{\"op\":\"rename\",\"key\":\"b\",\"shard\":0,\"from\":\"a\"}");
        apply(0, "{\"op\":\"rename\",\"key\":\"a\",\"shard\":0,\"to\":\"b\"}");
        assertThat(view.keys()).containsExactly("b");
        assertThat(view.string("b")).isEqualTo("v");
    }

    @Test
    void aRebuildReplacesTheKeysOfItsPartitionAndShard() throws Exception {
        apply(0, "{\"op\":\"set\",\"key\":\"k1\",\"shard\":0,\"value\":\"old\"}");
        apply(0, "{\"op\":\"set\",\"key\":\"gone\",\"shard\":0,\"value\":\"x\"}");
        apply(1, "{\"op\":\"set\",\"key\":\"other-partition\",\"shard\":0,\"value\":\"x\"}");
        apply(0, "{\"op\":\"set\",\"key\":\"other-shard\",\"shard\":1,\"value\":\"x\"}");
        apply(0, "{\"op\":\"resync.begin\",\"shard\":0,\"rebuild\":1}");
        apply(0, "{\"op\":\"snapshot\",\"key\":\"k1\",\"shard\":0,\"valueType\":\"string\",\"value\":\"new\"}");
        apply(0, "{\"op\":\"snapshot\",\"key\":\"h\",\"shard\":0,\"valueType\":\"hash\","
                + "\"fields\":[{\"name\":\"f\",\"value\":\"v\"}]}");
        apply(0, "{\"op\":\"resync.end\",\"shard\":0,\"rebuild\":1}");
        assertThat(view.keys()).containsExactly("h", "k1", "other-partition", "other-shard");
        assertThat(view.string("k1")).isEqualTo("new");
        assertThat(view.hashes()).containsEntry("h", Map.of("f", "v"));
    }
}
