package io.kevy.feed.client;

import io.kevy.common.RedisDoubles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What both sources share: the key reads a rebuild needs, built on one primitive, {@link #call}, which runs a
 * command and answers its reply as plain objects ({@code Long}, {@code byte[]} for bulk and simple strings,
 * {@code List<Object>} for arrays, null for nil), failing with {@link ServerErrors#fromReply} for errors.
 */
abstract class AbstractFeedSource implements FeedSource {
    /** How often {@link #snapshot} reads a key again when its type changed between TYPE and the value read. */
    private static final int SNAPSHOT_ATTEMPTS = 5;

    /** Runs {@code argv} and answers its reply; {@code array} says whether the reply is an array. */
    abstract CompletionStage<Object> call(boolean array, byte[]... argv);

    /**
     * Runs the commands {@code argvs} (array replies where {@code arrays} says so) as one pipeline and answers
     * their replies in order, as {@link #call} does for one. This implementation calls {@link #call} for each;
     * the remote source sends them all in one write.
     */
    List<CompletionStage<Object>> callAll(List<byte[][]> argvs, boolean[] arrays) {
        List<CompletionStage<Object>> out = new ArrayList<>(argvs.size());
        for (int i = 0; i < argvs.size(); i++) {
            out.add(call(arrays[i], argvs.get(i)));
        }
        return out;
    }

    /** False once the server answered PEXPIRETIME with an error (upstream without it): not sent again. */
    volatile boolean pexpiretime = true;

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] num(long n) {
        return ascii(Long.toString(n));
    }

    @Override
    public CompletionStage<ScanPage> scan(String cursor, byte[] match, int count) {
        byte[][] argv = match == null
                ? new byte[][] {ascii("SCAN"), ascii(cursor), ascii("COUNT"), num(count)}
                : new byte[][] {ascii("SCAN"), ascii(cursor), ascii("MATCH"), match, ascii("COUNT"), num(count)};
        return call(true, argv).thenApply(r -> {
            List<?> l = list(r, "SCAN");
            List<byte[]> keys = new ArrayList<>();
            for (Object k : list(l.get(1), "SCAN keys")) {
                keys.add((byte[]) k);
            }
            return new ScanPage(new String((byte[]) l.get(0), StandardCharsets.US_ASCII), keys);
        });
    }

    @Override
    public CompletionStage<byte[]> get(byte[] key) {
        return call(false, ascii("GET"), key).thenApply(r -> (byte[]) r);
    }

    @Override
    public CompletionStage<Void> set(byte[] key, byte[] value) {
        return call(false, ascii("SET"), key, value).thenApply(r -> null);
    }

    @Override
    public CompletionStage<Void> del(byte[] key) {
        return call(false, ascii("DEL"), key).thenApply(r -> null);
    }

    @Override
    public CompletionStage<Optional<KeySnapshot>> snapshot(byte[] key) {
        return snapshots(List.of(key)).thenApply(l -> l.get(0));
    }

    /**
     * Two pipelines whatever the number of keys: TYPE and PEXPIRETIME of every key, then the value read of every
     * key that exists, with PTTL for those that have a TTL (or all when the server has no PEXPIRETIME). A key
     * without a TTL costs three commands, one with four. A key whose type changed between the two (the value
     * read fails with WRONGTYPE) is read again on its own, up to {@link #SNAPSHOT_ATTEMPTS} times in all.
     */
    @Override
    public CompletionStage<List<Optional<KeySnapshot>>> snapshots(List<byte[]> keys) {
        return snapshots(keys, 1);
    }

    /**
     * Null until the server answered a first FEED.VALUE, then whether it has the command: false after its
     * "unknown command" (upstream kevy), and {@link #reads} never sends it again.
     */
    private volatile Boolean feedValue;
    /** The one FEED.VALUE sent while {@link #feedValue} is unknown; the reads that start meanwhile wait for it. */
    private final java.util.concurrent.atomic.AtomicReference<CompletableFuture<Boolean>> feedValueProbe =
            new java.util.concurrent.atomic.AtomicReference<>();
    /** The reads of a server without FEED.VALUE. */
    private final MultiExecReads multiExecReads = new MultiExecReads(this);

    /**
     * {@code FEED.VALUE} of every key in one pipeline (exact reads, {@link KeyRead#exact()}). Until the server has
     * answered one FEED.VALUE, one key's is sent alone first (every other read waits for it), so a server without
     * the command (upstream kevy) refuses it once per source, not once per key of a pipeline in flight; from then
     * on the keys are read with their shard's FEED.TAIL in MULTI/EXEC ({@link MultiExecReads}: exact too when the
     * server runs EXEC atomically), or, when the server refuses that, with the {@link FeedSource#reads default}
     * (FEED.TAIL, then the plain reads: not exact).
     */
    @Override
    public CompletionStage<List<KeyRead>> reads(List<byte[]> keys, int shardCount) {
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        Boolean known = feedValue;
        if (known == null) {
            return probeFeedValue(keys.get(0)).thenCompose(x -> reads(keys, shardCount));
        }
        if (!known) {
            return multiExecReads.reads(keys, shardCount);
        }
        List<byte[][]> argvs = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            argvs.add(new byte[][] {FEED_VALUE, k});
        }
        boolean[] arrays = new boolean[keys.size()];
        java.util.Arrays.fill(arrays, true);
        CompletableFuture<?>[] replies = futures(callAll(argvs, arrays));
        return CompletableFuture.allOf(handled(replies)).thenCompose(done -> {
            List<KeyRead> out = new ArrayList<>(keys.size());
            long now = System.currentTimeMillis();
            for (int i = 0; i < replies.length; i++) {
                Throwable err = failure(replies[i]);
                if (refusesFeedValue(err)) { // another server behind the same address (a failover to upstream)
                    feedValue = false;
                    return multiExecReads.reads(keys, shardCount);
                }
                if (err != null) {
                    return CompletableFuture.failedFuture(err);
                }
                out.add(keyRead(keys.get(i), shardCount, list(replies[i].join(), "FEED.VALUE"), now));
            }
            return CompletableFuture.completedFuture(out);
        });
    }

    /**
     * This source as if the server had answered FEED.VALUE with "unknown command": {@link #reads} are
     * {@link MultiExecReads}' from the start ({@code bench/rebuild.sh --read plain} measures them on our server).
     */
    AbstractFeedSource withoutFeedValue() {
        feedValue = false;
        return this;
    }

    /** The fallback of a server without FEED.VALUE when MULTI/EXEC is refused too: the interface's default. */
    CompletionStage<List<KeyRead>> plainReads(List<byte[]> keys, int shardCount) {
        return FeedSource.super.reads(keys, shardCount);
    }

    private static boolean refusesFeedValue(Throwable err) {
        return err instanceof KevyServerException e && e.getMessage().startsWith("ERR unknown command");
    }

    /** Completes with whether the server has FEED.VALUE, asking it with {@code key} once (again after a failure). */
    private CompletableFuture<Boolean> probeFeedValue(byte[] key) {
        CompletableFuture<Boolean> mine = new CompletableFuture<>();
        CompletableFuture<Boolean> sent = feedValueProbe.compareAndExchange(null, mine);
        if (sent != null) {
            return sent;
        }
        call(true, FEED_VALUE, key).whenComplete((r, e) -> {
            Throwable err = e == null ? null : e instanceof java.util.concurrent.CompletionException c
                    && c.getCause() != null ? c.getCause() : e;
            if (err == null || refusesFeedValue(err)) {
                feedValue = err == null;
                mine.complete(err == null);
            } else {
                feedValueProbe.set(null); // a connection error says nothing: the next read asks again
                mine.completeExceptionally(err);
            }
        });
        return mine;
    }

    /** A FEED.VALUE reply {@code [generation, next_offset, type, pexpiretime, value]} as a {@link KeyRead}. */
    private static KeyRead keyRead(byte[] key, int shardCount, List<?> r, long now) {
        if (r.size() != 5) {
            throw new KevyProtocolException("FEED.VALUE: expected 5 elements, got " + r.size());
        }
        Cursor at = new Cursor(io.kevy.common.Slots.shard(key, shardCount), (Long) r.get(0), (Long) r.get(1));
        ValueType type = ValueType.ofTypeReply(new String((byte[]) r.get(2), StandardCharsets.US_ASCII));
        long expireAt = (Long) r.get(3);
        if (type == null || expireAt == -2) {
            return new KeyRead(key, at, null, true);
        }
        Object value = r.get(4);
        List<byte[]> flat = new ArrayList<>();
        if (type == ValueType.STREAM) {
            List<?> v = list(value, "FEED.VALUE of a stream");
            if (v.size() != 4) {
                throw new KevyProtocolException("FEED.VALUE of a stream: expected 4 elements, got " + v.size());
            }
            flat = streamFlat((byte[]) v.get(0), ascii(String.valueOf(v.get(1))), (byte[]) v.get(2),
                    list(v.get(3), "XRANGE"));
        } else if (value instanceof byte[] b) {
            flat.add(b);
        } else if (value instanceof List<?> l) {
            for (Object o : l) {
                flat.add((byte[]) o);
            }
        }
        long ttl = expireAt < 0 ? -1 : Math.max(0, expireAt - now);
        return new KeyRead(key, at, new KeySnapshot(key, type, flat, ttl, expireAt < 0 ? -1 : expireAt), true);
    }

    /** PEXPIRETIME's answer when it was not asked or failed: PTTL decides. */
    private static final long ASK_PTTL = Long.MIN_VALUE;

    private CompletionStage<List<Optional<KeySnapshot>>> snapshots(List<byte[]> keys, int attempt) {
        int n = keys.size();
        if (n == 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        boolean withExpireTime = pexpiretime;
        List<byte[][]> first = new ArrayList<>(2 * n);
        for (byte[] k : keys) {
            first.add(new byte[][] {TYPE, k});
            if (withExpireTime) {
                first.add(new byte[][] {PEXPIRETIME, k});
            }
        }
        CompletableFuture<?>[] firstReplies = futures(callAll(first, new boolean[first.size()]));
        return CompletableFuture.allOf(handled(firstReplies)).thenCompose(done -> {
            ValueType[] type = new ValueType[n];
            long[] expireAt = new long[n];
            List<byte[][]> reads = new ArrayList<>(2 * n);
            List<Boolean> arrays = new ArrayList<>(2 * n);
            int f = 0;
            for (int i = 0; i < n; i++) {
                type[i] = ValueType.ofTypeReply(new String((byte[]) firstReplies[f++].join(),
                        StandardCharsets.US_ASCII));
                expireAt[i] = ASK_PTTL;
                if (withExpireTime) {
                    CompletableFuture<?> at = firstReplies[f++];
                    if (failure(at) != null) {
                        pexpiretime = false;
                    } else if (at.join() instanceof Long l) {
                        expireAt[i] = l;
                    }
                }
                if (expireAt[i] == -2) {
                    type[i] = null; // gone between TYPE and PEXPIRETIME
                }
                if (type[i] != null) {
                    byte[] key = keys.get(i);
                    byte[][] read = valueRead(type[i], key);
                    if (read != null) {
                        reads.add(read);
                        arrays.add(type[i] != ValueType.STRING);
                    }
                    if (expireAt[i] != -1) {
                        reads.add(new byte[][] {PTTL, key});
                        arrays.add(false);
                    }
                }
            }
            boolean[] isArray = new boolean[arrays.size()];
            for (int i = 0; i < isArray.length; i++) {
                isArray[i] = arrays.get(i);
            }
            CompletableFuture<?>[] replies = futures(callAll(reads, isArray));
            return CompletableFuture.allOf(handled(replies)).thenCompose(all -> {
                List<CompletableFuture<Optional<KeySnapshot>>> out = new ArrayList<>(n);
                int r = 0;
                for (int i = 0; i < n; i++) {
                    if (type[i] == null) {
                        out.add(CompletableFuture.completedFuture(Optional.empty()));
                        continue;
                    }
                    CompletableFuture<?> value = valueRead(type[i], keys.get(i)) == null
                            ? CompletableFuture.completedFuture(List.of()) : replies[r++];
                    CompletableFuture<?> pttl = expireAt[i] == -1 ? NO_TTL : replies[r++];
                    out.add(snapshotOf(keys.get(i), type[i], value, pttl, expireAt[i], attempt));
                }
                return CompletableFuture.allOf(out.toArray(new CompletableFuture<?>[0])).thenApply(x -> {
                    List<Optional<KeySnapshot>> l = new ArrayList<>(n);
                    for (CompletableFuture<Optional<KeySnapshot>> o : out) {
                        l.add(o.join());
                    }
                    return l;
                });
            });
        });
    }

    private static final CompletableFuture<Object> NO_TTL = CompletableFuture.completedFuture(-1L);

    /**
     * One key's snapshot from its completed replies ({@code expireAt}: PEXPIRETIME's, or {@link #ASK_PTTL}); a
     * WRONGTYPE value read (type changed) reads it again.
     */
    private CompletableFuture<Optional<KeySnapshot>> snapshotOf(byte[] key, ValueType type, CompletableFuture<?> value,
            CompletableFuture<?> pttl, long expireAt, int attempt) {
        Throwable err = failure(value);
        if (err == null) {
            err = failure(pttl);
        }
        if (err != null) {
            if (err instanceof KevyServerException e && e.code().equals("WRONGTYPE")) {
                if (attempt < SNAPSHOT_ATTEMPTS) {
                    return snapshots(List.of(key), attempt + 1).thenApply(l -> l.get(0)).toCompletableFuture();
                }
                return CompletableFuture.failedFuture(new KevyProtocolException("key "
                        + new String(key, StandardCharsets.UTF_8) + " kept changing type while being read"));
            }
            return CompletableFuture.failedFuture(err);
        }
        long ttl = (Long) pttl.join();
        Optional<KeySnapshot> snap = toSnapshot(key, type, value.join(), ttl);
        // the expiry time only with a TTL that PTTL saw too (a PERSIST in between drops it)
        return CompletableFuture.completedFuture(snap.map(x -> expireAt < 0 || ttl < 0 ? x
                : new KeySnapshot(x.key(), x.type(), x.value(), x.ttlMillis(), expireAt)));
    }

    static CompletableFuture<?>[] futures(List<CompletionStage<Object>> stages) {
        CompletableFuture<?>[] out = new CompletableFuture<?>[stages.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = stages.get(i).toCompletableFuture();
        }
        return out;
    }

    /** Futures that complete normally when {@code fs} complete, however they do (allOf waits for every one). */
    static CompletableFuture<?>[] handled(CompletableFuture<?>[] fs) {
        CompletableFuture<?>[] out = new CompletableFuture<?>[fs.length];
        for (int i = 0; i < fs.length; i++) {
            out[i] = fs[i].handle((v, e) -> null);
        }
        return out;
    }

    /** The failure of a completed future, unwrapped, or null when it succeeded. */
    static Throwable failure(CompletableFuture<?> f) {
        if (!f.isCompletedExceptionally()) {
            return null;
        }
        try {
            f.join();
            return null;
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            return e.getCause() != null ? e.getCause() : e;
        }
    }

    static final byte[] TYPE = ascii("TYPE");
    private static final byte[] FEED_VALUE = ascii("FEED.VALUE");
    static final byte[] PTTL = ascii("PTTL");
    static final byte[] PEXPIRETIME = ascii("PEXPIRETIME");
    private static final byte[] ZERO = ascii("0");
    private static final byte[] LAST = ascii("-1");

    /** The command reading the whole value of a {@code type} key; null for OTHER (not read). */
    static byte[][] valueRead(ValueType type, byte[] key) {
        switch (type) {
            case STRING:
                return new byte[][] {ascii("GET"), key};
            case LIST:
                return new byte[][] {ascii("LRANGE"), key, ZERO, LAST};
            case SET:
                return new byte[][] {ascii("SMEMBERS"), key};
            case HASH:
                return new byte[][] {ascii("HGETALL"), key};
            case ZSET:
                return new byte[][] {ascii("ZRANGE"), key, ZERO, LAST, ascii("WITHSCORES")};
            case STREAM:
                return new byte[][] {ascii("XRANGE"), key, ascii("-"), ascii("+")};
            default:
                return null;
        }
    }

    /** The snapshot, Optional.empty() when the key is gone, or null when its type changed meanwhile. */
    static Optional<KeySnapshot> toSnapshot(byte[] key, ValueType type, Object value, long pttl) {
        if (pttl == -2) {
            return Optional.empty();
        }
        List<byte[]> flat = new ArrayList<>();
        if (type == ValueType.STRING) {
            if (value == null) {
                return Optional.empty();
            }
            flat.add((byte[]) value);
        } else {
            if (type == ValueType.STREAM) {
                // the plain read (upstream): XRANGE - + only; the last id is the last entry's (XDEL'd or trimmed
                // later ids are not seen), entries-added unknown (-1)
                List<?> entries = list(value, "XRANGE");
                byte[] last = entries.isEmpty() ? ascii("0-0")
                        : (byte[]) list(entries.get(entries.size() - 1), "XRANGE entry").get(0);
                flat.addAll(streamFlat(last, ascii("-1"), ascii("0-0"), entries));
            } else {
                for (Object o : list(value, type.word())) {
                    addResp2(flat, o);
                }
            }
            if (flat.isEmpty() && type != ValueType.STREAM && type != ValueType.OTHER) {
                return Optional.empty();
            }
        }
        return Optional.of(new KeySnapshot(key, type, flat, pttl < 0 ? -1 : pttl, -1));
    }

    /**
     * A stream's flat form ({@link KeySnapshot}): last id, entries-added, max-deleted-id, then per entry its id,
     * the count of field and value elements, and those elements, from an XRANGE reply.
     */
    static List<byte[]> streamFlat(byte[] lastId, byte[] entriesAdded, byte[] maxDeletedId, List<?> xrange) {
        List<byte[]> flat = new ArrayList<>();
        flat.add(lastId);
        flat.add(entriesAdded);
        flat.add(maxDeletedId);
        for (Object e : xrange) {
            List<?> entry = list(e, "XRANGE entry");
            List<?> fields = list(entry.get(1), "XRANGE entry fields");
            flat.add((byte[]) entry.get(0));
            flat.add(ascii(String.valueOf(fields.size())));
            for (Object f : fields) {
                flat.add((byte[]) f);
            }
        }
        return flat;
    }

    /**
     * Adds a value read's element as its RESP2 reply has it: on a RESP3 connection ZRANGE WITHSCORES answers
     * {@code [member, score]} pairs with double scores, which become the flat member and {@code %.17g} text
     * (maps and sets arrive as flat lists already).
     */
    private static void addResp2(List<byte[]> flat, Object o) {
        if (o instanceof byte[] b) {
            flat.add(b);
        } else if (o instanceof Double d) {
            flat.add(RedisDoubles.format(d).getBytes(StandardCharsets.US_ASCII));
        } else if (o instanceof List<?> pair) {
            for (Object e : pair) {
                addResp2(flat, e);
            }
        } else {
            throw new KevyProtocolException("a value read answered " + o);
        }
    }

    static List<?> list(Object reply, String what) {
        if (reply instanceof List<?> l) {
            return l;
        }
        throw new KevyProtocolException(what + ": expected an array reply, got " + reply);
    }
}
