package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.Glob;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Commands that walk the whole keyspace: SCAN, KEYS, RANDOMKEY. They run without the dispatcher's locks
 * ({@link CommandFlag#NO_LOCK}) and lock one shard at a time, so a walk never stalls every shard at once.
 * Expired keys are never returned (SCAN and RANDOMKEY delete those they meet, emitting {@code DEL k} as lazy
 * expiry does; KEYS only skips them, as Redis).
 *
 * <p>SCAN's cursor spans the shards; its encoding and guarantee are documented in {@link ScanCursor}.
 */
final class ScanCommands {
    private ScanCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("scan", -2).flags(READONLY, NO_LOCK).group("generic").since("2.8.0")
                .summary("Iterates over the key names in the database.").handler(ScanCommands::scan));
        t.add(command("keys", 2).flags(READONLY, NO_LOCK).group("generic").since("1.0.0")
                .summary("Returns all key names that match a pattern.").handler(ScanCommands::keys));
        t.add(command("randomkey", 1).flags(READONLY, NO_LOCK).group("generic").since("1.0.0")
                .summary("Returns a random key name from the database.").handler(ScanCommands::randomKey));
    }

    /**
     * SCAN cursor [MATCH pattern] [COUNT n] [TYPE type] (Redis's {@code scanGenericCommand}): the cursor is
     * checked first, then the options (COUNT must be an integer, at least 1). COUNT bounds the keys visited
     * (before MATCH/TYPE filtering), and at most 10 × COUNT buckets are visited per call. An unknown TYPE
     * matches nothing.
     */
    private static void scan(Call c) {
        long cursor = ScanCursor.parse(c.arg(1));
        long count = 10;
        byte[] pattern = null;
        byte[] type = null;
        for (int i = 2; i < c.argc(); ) {
            boolean hasValue = i + 1 < c.argc();
            if (c.argIs(i, "count") && hasValue) {
                count = c.longArg(i + 1);
                if (count < 1) {
                    throw Call.fail(Errors.SYNTAX);
                }
            } else if (c.argIs(i, "match") && hasValue) {
                byte[] p = c.arg(i + 1);
                pattern = p.length == 1 && p[0] == '*' ? null : p;
            } else if (c.argIs(i, "type") && hasValue) {
                type = c.arg(i + 1);
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
            i += 2;
        }
        int shards = c.engine().shardCount();
        int shard = ScanCursor.shard(cursor, shards);
        long dc = ScanCursor.dictCursor(cursor, shards);
        List<byte[]> out = new ArrayList<>();
        long next = 0;
        long[] budget = {count > Long.MAX_VALUE / 10 ? Long.MAX_VALUE : count * 10};
        long[] visited = {0};
        while (shard < shards) {
            dc = scanShard(c, c.engine().shard(shard), dc, count, budget, visited, pattern, type, out);
            if (dc != 0) {
                next = ScanCursor.encode(shard, dc, shards);
                break;
            }
            shard++;
            if (shard == shards) {
                break;
            }
            if (visited[0] >= count || budget[0] <= 0) {
                next = ScanCursor.encode(shard, 0, shards);
                break;
            }
        }
        c.reply().array(2);
        c.reply().bulk(Bytes.utf8(Long.toUnsignedString(next)));
        c.reply().array(out.size());
        for (byte[] k : out) {
            c.reply().bulk(k);
        }
    }

    /**
     * Scans one shard under its lock from Dict cursor {@code dc} until {@code count} keys were visited in this
     * call, the bucket budget is spent or the shard is done; then filters what it visited and adds the
     * survivors to {@code out}.
     *
     * @return the shard's next Dict cursor, 0 when the shard is done
     */
    private static long scanShard(Call c, Shard shard, long dc, long count, long[] budget, long[] visited,
                                  byte[] pattern, byte[] type, List<byte[]> out) {
        List<Dict.Node<Object>> nodes = new ArrayList<>();
        shard.lock().lock();
        try {
            Keyspace db = shard.keyspace();
            do {
                dc = db.scan(dc, nodes::add);
            } while (dc != 0 && budget[0]-- > 0 && visited[0] + nodes.size() < count);
            visited[0] += nodes.size();
            long now = c.now();
            for (Dict.Node<Object> n : nodes) {
                byte[] key = n.key();
                if (pattern != null && !Glob.matches(pattern, key, false)) {
                    continue;
                }
                Dict.Node<Object> live = db.peek(key, now); // deletes an expired key (DEL frame)
                if (live == null) {
                    continue;
                }
                if (type != null && !Bytes.equalsIgnoreCase(type, Keyspace.typeOf(live.value()).typeName())) {
                    continue;
                }
                out.add(key);
            }
        } finally {
            shard.lock().unlock();
        }
        return dc;
    }

    /** KEYS pattern: every live key matching the glob, one shard locked at a time. */
    private static void keys(Call c) {
        byte[] pattern = c.arg(1);
        boolean all = pattern.length == 1 && pattern[0] == '*';
        long now = c.now();
        List<byte[]> out = new ArrayList<>();
        for (int s = 0; s < c.engine().shardCount(); s++) {
            Shard shard = c.engine().shard(s);
            shard.lock().lock();
            try {
                shard.keyspace().forEach(n -> {
                    if (Keyspace.isLive(n, now) && (all || Glob.matches(pattern, n.key(), false))) {
                        out.add(n.key());
                    }
                });
            } finally {
                shard.lock().unlock();
            }
        }
        c.reply().array(out.size());
        for (byte[] k : out) {
            c.reply().bulk(k);
        }
    }

    /**
     * RANDOMKEY: a shard is drawn with probability proportional to its size (each read under its own lock),
     * then a random live key of that shard; nil when every shard is empty.
     */
    private static void randomKey(Call c) {
        int shards = c.engine().shardCount();
        for (int attempt = 0; attempt < 2 * shards + 2; attempt++) {
            long[] sizes = new long[shards];
            long total = 0;
            for (int s = 0; s < shards; s++) {
                Shard shard = c.engine().shard(s);
                shard.lock().lock();
                try {
                    sizes[s] = shard.keyspace().size();
                } finally {
                    shard.lock().unlock();
                }
                total += sizes[s];
            }
            if (total == 0) {
                break;
            }
            long pick = ThreadLocalRandom.current().nextLong(total);
            int s = 0;
            while (pick >= sizes[s]) {
                pick -= sizes[s];
                s++;
            }
            Shard shard = c.engine().shard(s);
            byte[] key;
            shard.lock().lock();
            try {
                key = shard.keyspace().randomKey(c.now());
            } finally {
                shard.lock().unlock();
            }
            if (key != null) {
                c.reply().bulk(key);
                return;
            }
        }
        c.reply().nullBulk();
    }
}
