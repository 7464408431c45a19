package io.kevy.feed.client.cli;

import io.kevy.feed.client.Change;
import io.kevy.feed.client.Op;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A change as commands that reproduce it on another server: a feed change is its frame (a DEL or MSET narrowed
 * to fewer keys: the DEL or MSET of those keys); a SNAPSHOT entry is
 * {@code DEL k}, the writes of its value and {@code PEXPIREAT k t}; a VANISHED entry is {@code DEL k}. Written
 * as RESP arrays, so {@code kevy tail --format resp | redis-cli --pipe} replays a feed. Stateless.
 */
final class ChangeCommands {
    private ChangeCommands() {
    }

    /**
     * True for a DEL or MSET with fewer keys than its frame: the exact prefix filter or an exact rebuild's overlap
     * (the keys whose rebuild read already holds the frame) dropped some, so the frame would do too much.
     */
    private static boolean narrowed(Change<byte[], byte[]> c) {
        int argvKeys = c.op() == Op.DEL ? c.argv().size() - 1 : c.op() == Op.MSET ? (c.argv().size() - 1) / 2 : -1;
        return argvKeys >= 0 && c.keys().size() < argvKeys;
    }

    /** {@code DEL} of the change's keys, or {@code MSET} of its pairs. */
    private static List<byte[]> keysOnly(Change<byte[], byte[]> c) {
        List<byte[]> argv = new ArrayList<>();
        argv.add(b(c.op() == Op.DEL ? "DEL" : "MSET"));
        if (c.op() == Op.DEL) {
            argv.addAll(c.keys());
        } else {
            for (KeyValue<byte[], byte[]> kv : c.fields()) {
                argv.add(kv.getKey());
                argv.add(kv.getValue());
            }
        }
        return argv;
    }

    static List<List<byte[]>> of(Change<byte[], byte[]> c) {
        List<List<byte[]>> out = new ArrayList<>();
        if (c.fromFeed()) {
            out.add(narrowed(c) ? keysOnly(c) : c.argv());
            return out;
        }
        byte[] k = c.key();
        out.add(List.of(b("DEL"), k));
        if (c.op() == Op.VANISHED) {
            return out;
        }
        List<byte[]> w = new ArrayList<>();
        switch (c.valueType()) {
            case STRING:
                w.addAll(List.of(b("SET"), k, c.value()));
                break;
            case LIST:
                w.addAll(List.of(b("RPUSH"), k));
                w.addAll(c.elements());
                break;
            case SET:
                w.addAll(List.of(b("SADD"), k));
                w.addAll(c.elements());
                break;
            case HASH:
                w.addAll(List.of(b("HSET"), k));
                for (KeyValue<byte[], byte[]> kv : c.fields()) {
                    w.add(kv.getKey());
                    w.add(kv.getValue());
                }
                break;
            case ZSET:
                w.addAll(List.of(b("ZADD"), k));
                for (ScoredValue<byte[]> sv : c.scored()) {
                    double s = sv.getScore();
                    w.add(b(Double.isInfinite(s) ? (s > 0 ? "+inf" : "-inf") : Double.toString(s)));
                    w.add(sv.getValue());
                }
                break;
            default:
                return out;
        }
        out.add(w);
        c.expireAtMillis().ifPresent(t -> out.add(List.of(b("PEXPIREAT"), k, b(Long.toString(t)))));
        return out;
    }

    /** The RESP array encoding of {@code argv}. */
    static byte[] resp(List<byte[]> argv) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(b("*" + argv.size() + "\r\n"));
        for (byte[] a : argv) {
            out.writeBytes(b("$" + a.length + "\r\n"));
            out.writeBytes(a);
            out.writeBytes(b("\r\n"));
        }
        return out.toByteArray();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
