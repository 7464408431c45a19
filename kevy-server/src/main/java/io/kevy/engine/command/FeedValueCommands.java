package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.type.StreamValue;
import java.nio.charset.StandardCharsets;

/**
 * {@code FEED.VALUE key} (ours, for exact rebuilds; feed contract §11.3): a key's type, expiry and whole value
 * together with the feed cursor of the key's shard, read atomically under that shard's lock (the dispatcher
 * locks the key's shard, key position 1). Reply, always five elements:
 * <pre>
 * *5 [:generation, :next_offset, +type, :pexpiretime, value]
 * </pre>
 * {@code next_offset} is the shard's next offset at the read: the value contains exactly the effects of the
 * frames below it. {@code type} is what TYPE answers ({@code none} when the key does not exist);
 * {@code pexpiretime} what PEXPIRETIME answers (-1 no TTL, -2 absent); {@code value} the reply of the read that
 * returns the whole value: GET (string), LRANGE 0 -1 (list), SMEMBERS (set), HGETALL (hash),
 * ZRANGE 0 -1 WITHSCORES (zset), for a stream
 * {@code *4 [last-generated-id, :entries-added, max-deleted-entry-id, XRANGE - +]} (the counters as XINFO STREAM
 * names them, the entries as XRANGE answers them; consumer groups are not part of it), and {@code $-1} for
 * {@code none} or a type without a whole-value read. A lazy
 * expiry caused by the read happens before the cursor is taken, so its DEL frame is below {@code next_offset}.
 *
 * <p>The reply is this RESP2 shape on both protocols (the nested reads are written in RESP2 on a RESP3
 * connection too): FEED.* replies are the feed contract's bytes, whatever the connection negotiated.
 *
 * <p>One command instead of {@code MULTI FEED.TAIL <shard> TYPE ... EXEC}: FEED.TAIL names no key, so such an
 * EXEC would lock every shard (see {@link TransactionCommands}), and the value read depends on the type.
 */
public final class FeedValueCommands {
    private FeedValueCommands() {
    }

    public static void register(CommandTable t) {
        t.add(command("feed.value", 2).flags(READONLY).keys(1, 1, 1).group("server").since("1.0.0")
                .summary("Returns [generation, next_offset, type, pexpiretime, value] of a key, read atomically "
                        + "with its shard's feed cursor (for exact rebuilds).")
                .handler(FeedValueCommands::value));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void value(Call c) {
        byte[] key = c.arg(1);
        Dict.Node<Object> n = c.peekRead(key); // a lazy expiry emits its DEL now, before the cursor is taken
        Shard shard = c.shard(key);
        String type = n == null ? "none" : Keyspace.typeOf(n.value()).typeName();
        c.reply().array(5);
        c.reply().integer(shard.generation());
        c.reply().integer(shard.nextOffset());
        c.reply().simple(type);
        byte[][] read = switch (type) {
            case "string" -> new byte[][] {ascii("GET"), key};
            case "list" -> new byte[][] {ascii("LRANGE"), key, ascii("0"), ascii("-1")};
            case "set" -> new byte[][] {ascii("SMEMBERS"), key};
            case "hash" -> new byte[][] {ascii("HGETALL"), key};
            case "zset" -> new byte[][] {ascii("ZRANGE"), key, ascii("0"), ascii("-1"), ascii("WITHSCORES")};
            case "stream" -> new byte[][] {ascii("XRANGE"), key, ascii("-"), ascii("+")};
            default -> null;
        };
        byte[][] self = c.argv();
        CommandSpec selfSpec = c.spec();
        long now = c.now();
        int protocol = c.reply().protocol();
        c.reply().protocol(2); // the feed contract's shape: the same bytes on a RESP3 connection
        try {
            nested(c, new byte[][] {ascii("PEXPIRETIME"), key}, now);
            if (read == null) {
                c.reply().nullBulk();
            } else if (n.value() instanceof StreamValue s) {
                // what XRANGE cannot say and a mirror needs to go on applying XADD / XSETID frames
                c.reply().array(4);
                c.reply().bulk(s.lastId().toBytes());
                c.reply().integer(s.entriesAdded());
                c.reply().bulk(s.maxDeletedId().toBytes());
                nested(c, read, now);
            } else {
                nested(c, read, now);
            }
        } finally {
            c.reply().protocol(protocol);
            c.reset(self, selfSpec, now);
        }
    }

    /** Runs the read {@code argv} under the locks already held, its reply written in place. */
    private static void nested(Call c, byte[][] argv, long now) {
        CommandSpec spec = c.dispatcher().resolve(argv);
        c.reset(argv, spec, now);
        Dispatcher.runHandler(c, spec);
    }
}
