package io.kevy.feed.client.support;

import io.kevy.embedded.Config;
import io.kevy.embedded.Reply;
import io.kevy.embedded.Store;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.Handler;
import io.kevy.feed.client.Op;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A mirror of a kevy keyspace maintained by a consumer: an embedded store (feed off) that applies each feed
 * change's frame as a command, each SNAPSHOT entry as DEL + the value's writes + PEXPIREAT, and each VANISHED
 * entry as DEL. It also records, per key, the tokens (values starting with "t") in the order changes carried
 * them, and per shard the offsets delivered. Thread-safe (batches of different shards arrive concurrently).
 */
public final class StoreMirror implements Handler<String, String>, AutoCloseable {
    private final Store store = Store.open(Config.defaults());
    private final Map<String, List<String>> tokens = new ConcurrentHashMap<>();
    private final Map<Integer, List<Long>> offsets = new ConcurrentHashMap<>();
    public final AtomicLong changes = new AtomicLong();
    public final AtomicLong snapshots = new AtomicLong();
    public final AtomicLong vanished = new AtomicLong();

    public Store store() {
        return store;
    }

    @Override
    public void handle(Batch<String, String> batch) {
        for (Change<String, String> c : batch) {
            apply(c);
        }
    }

    /** Applies one change. */
    public void apply(Change<String, String> c) {
        if (c.op() == Op.SNAPSHOT) {
            snapshots.incrementAndGet();
            load(c);
            return;
        }
        if (c.op() == Op.VANISHED) {
            vanished.incrementAndGet();
            ok(store.execute("DEL", c.key()));
            return;
        }
        changes.incrementAndGet();
        offsets.computeIfAbsent(c.shard(), s -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(c.offset());
        ok(store.execute(c.argv().toArray(new byte[0][])));
        recordTokens(c);
    }

    private void recordTokens(Change<String, String> c) {
        if (c.op() == Op.MSET) {
            for (KeyValue<String, String> kv : c.fields()) {
                token(kv.getKey(), kv.getValue());
            }
            return;
        }
        String key = c.key();
        token(key, c.value());
        for (KeyValue<String, String> kv : c.fields()) {
            token(key, kv.getValue());
        }
        if (c.op() != Op.SREM && c.op() != Op.ZREM && c.scored().isEmpty()) {
            for (String e : c.elements()) {
                token(key, e);
            }
        }
        for (ScoredValue<String> sv : c.scored()) {
            token(key, sv.getValue());
        }
    }

    private void token(String key, String value) {
        if (value != null && value.startsWith("t")) {
            tokens.computeIfAbsent(key, k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(value);
        }
    }

    private void load(Change<String, String> c) {
        String k = c.key();
        ok(store.execute("DEL", k));
        List<String> argv = new ArrayList<>();
        switch (c.valueType()) {
            case STRING:
                argv.addAll(List.of("SET", k, c.value()));
                break;
            case LIST:
                argv.addAll(List.of("RPUSH", k));
                argv.addAll(c.elements());
                break;
            case SET:
                argv.addAll(List.of("SADD", k));
                argv.addAll(c.elements());
                break;
            case HASH:
                argv.addAll(List.of("HSET", k));
                for (KeyValue<String, String> kv : c.fields()) {
                    argv.add(kv.getKey());
                    argv.add(kv.getValue());
                }
                break;
            case ZSET:
                argv.addAll(List.of("ZADD", k));
                for (ScoredValue<String> sv : c.scored()) {
                    argv.add(score(sv.getScore()));
                    argv.add(sv.getValue());
                }
                break;
            default:
                return;
        }
        ok(store.execute(argv.toArray(new String[0])));
        c.expireAtMillis().ifPresent(t -> ok(store.execute("PEXPIREAT", k, Long.toString(t))));
    }

    private static String score(double d) {
        if (Double.isInfinite(d)) {
            return d > 0 ? "+inf" : "-inf";
        }
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static void ok(Reply r) {
        if (r.isError()) {
            throw new IllegalStateException("mirror rejected a change: " + r);
        }
    }

    /** The keys the mirror holds (for the sweep). */
    public List<String> keys() {
        return store.scan("*");
    }

    /** Tokens per key in delivery order. */
    public Map<String, List<String>> tokens() {
        return tokens;
    }

    /** Offsets delivered per shard, in delivery order. */
    public Map<Integer, List<Long>> offsets() {
        return offsets;
    }

    public Map<String, String> dump() {
        return Dump.dump(Dump.of(store));
    }

    @Override
    public void close() {
        store.close();
    }
}
