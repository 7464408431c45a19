package io.kevy.bridge.kafka.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.Change;
import io.kevy.feed.client.Cursor;
import io.kevy.feed.client.KeySnapshot;
import io.kevy.feed.client.TestChanges;
import io.kevy.feed.client.ValueType;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.lettuce.core.codec.StringCodec;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;

/**
 * The envelope as a Connect struct: every decoder shape and every stream op converts to a struct that validates
 * against {@link EnvelopeSchema#ENVELOPE}, and the stream content (ids, group, consumer, counters, a snapshot's
 * entries) is carried, not dropped.
 */
class EnvelopeSchemaTest {
    private static final ChangeEnvelopes ENV = ChangeEnvelopes.forSource("127.0.0.1:6004");

    private static Struct struct(String... argv) {
        Change<String, String> c = Change.of(StringCodec.UTF8, 0, 3, TestChanges.frame(7, argv), 0);
        Struct s = EnvelopeSchema.struct(ENV.envelope(c));
        s.validate();
        return s;
    }

    @Test
    void everyDecoderShapeBecomesAValidStruct() {
        for (String[] argv : TestChanges.ALL_SHAPES) {
            assertThat(struct(argv).getStruct("data").getString("op")).as(Arrays.toString(argv)).isNotEmpty();
        }
    }

    @Test
    void streamOpsCarryIdsGroupConsumerAndCounters() {
        Struct xadd = struct("XADD", "s", "MAXLEN", "=", "3", "5-1", "f", "v").getStruct("data");
        assertThat(xadd.getString("op")).isEqualTo("xadd");
        assertThat(xadd.getArray("ids")).containsExactly("5-1");
        assertThat(xadd.getInt64("count")).isEqualTo(3L);
        assertThat(((Struct) xadd.getArray("fields").get(0)).getString("name")).isEqualTo("f");
        Struct setid = struct("XSETID", "s", "9-9", "ENTRIESADDED", "12", "MAXDELETEDID", "4-0").getStruct("data");
        assertThat(setid.getString("lastId")).isEqualTo("9-9");
        assertThat(setid.getInt64("entriesAdded")).isEqualTo(12L);
        assertThat(setid.getString("maxDeletedId")).isEqualTo("4-0");
        Struct group = struct("XGROUP", "DELCONSUMER", "s", "g", "c").getStruct("data");
        assertThat(group.getString("subcommand")).isEqualTo("DELCONSUMER");
        assertThat(group.getString("group")).isEqualTo("g");
        assertThat(group.getString("consumer")).isEqualTo("c");
        Struct ack = struct("XACK", "s", "g", "1-1", "2-0").getStruct("data");
        assertThat(ack.getArray("ids")).containsExactly("1-1", "2-0");
        struct("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">");
        struct("XCLAIM", "s", "g", "c", "0", "1-1", "TIME", "1", "RETRYCOUNT", "1", "FORCE", "JUSTID");
    }

    @Test
    void aStreamSnapshotCarriesItsEntries() {
        KeySnapshot snap = new KeySnapshot(TestChanges.utf8("s"), ValueType.STREAM,
                Arrays.stream(new String[] {"5-0", "2", "0-0", "1-0", "2", "f", "v", "5-0", "2", "g", "w"})
                        .map(TestChanges::utf8).toList(), -1, -1);
        Struct s = EnvelopeSchema.struct(ENV.envelope(
                TestChanges.snapshot(StringCodec.UTF8, new Cursor(0, 3, 9), 0, snap, 1_000L)));
        s.validate();
        Struct data = s.getStruct("data");
        List<Object> entries = data.getArray("entries");
        assertThat(entries).extracting(e -> ((Struct) e).getString("id")).containsExactly("1-0", "5-0");
        Struct second = (Struct) ((Struct) entries.get(1)).getArray("fields").get(0);
        assertThat(second.getString("name")).isEqualTo("g");
        assertThat(second.getString("value")).isEqualTo("w");
        assertThat(data.getString("lastId")).isEqualTo("5-0");
        assertThat(data.getInt64("entriesAdded")).isEqualTo(2L);
    }
}
