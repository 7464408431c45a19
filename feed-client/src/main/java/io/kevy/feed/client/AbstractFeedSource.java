package io.kevy.feed.client;

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
        return snapshot(key, 1);
    }

    private CompletionStage<Optional<KeySnapshot>> snapshot(byte[] key, int attempt) {
        return call(false, ascii("TYPE"), key).thenCompose(t -> {
            ValueType type = ValueType.ofTypeReply(new String((byte[]) t, StandardCharsets.US_ASCII));
            if (type == null) {
                return CompletableFuture.completedFuture(Optional.empty());
            }
            CompletionStage<Object> value = readValue(type, key);
            CompletionStage<Object> pttl = call(false, ascii("PTTL"), key);
            CompletionStage<Long> at = call(false, ascii("PEXPIRETIME"), key)
                    .handle((r, e) -> e == null && r instanceof Long l ? l : -1L);
            return value.thenCombine(pttl, (v, p) -> toSnapshot(key, type, v, (Long) p))
                    .thenCombine(at, (snap, exp) -> snap.map(x -> exp < 0 ? x
                            : new KeySnapshot(x.key(), x.type(), x.value(), x.ttlMillis(), exp)))
                    .handle((snap, err) -> {
                        if (err == null && snap != null) {
                            return CompletableFuture.completedFuture(snap);
                        }
                        Throwable cause = err instanceof java.util.concurrent.CompletionException && err.getCause()
                                != null ? err.getCause() : err;
                        boolean typeChanged = cause == null || (cause instanceof KevyServerException e
                                && e.code().equals("WRONGTYPE"));
                        if (typeChanged && attempt < SNAPSHOT_ATTEMPTS) {
                            return snapshot(key, attempt + 1);
                        }
                        return CompletableFuture.<Optional<KeySnapshot>>failedFuture(cause != null ? cause
                                : new KevyProtocolException("key " + new String(key, StandardCharsets.UTF_8)
                                        + " kept changing type while being read"));
                    }).thenCompose(s -> s);
        });
    }

    private CompletionStage<Object> readValue(ValueType type, byte[] key) {
        switch (type) {
            case STRING:
                return call(false, ascii("GET"), key);
            case LIST:
                return call(true, ascii("LRANGE"), key, ascii("0"), ascii("-1"));
            case SET:
                return call(true, ascii("SMEMBERS"), key);
            case HASH:
                return call(true, ascii("HGETALL"), key);
            case ZSET:
                return call(true, ascii("ZRANGE"), key, ascii("0"), ascii("-1"), ascii("WITHSCORES"));
            default:
                return CompletableFuture.completedFuture(List.of());
        }
    }

    /** The snapshot, Optional.empty() when the key is gone, or null when its type changed meanwhile. */
    private static Optional<KeySnapshot> toSnapshot(byte[] key, ValueType type, Object value, long pttl) {
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
            for (Object o : list(value, type.word())) {
                flat.add((byte[]) o);
            }
            if (flat.isEmpty() && type != ValueType.STREAM && type != ValueType.OTHER) {
                return Optional.empty();
            }
        }
        return Optional.of(new KeySnapshot(key, type, flat, pttl < 0 ? -1 : pttl, -1));
    }

    static List<?> list(Object reply, String what) {
        if (reply instanceof List<?> l) {
            return l;
        }
        throw new KevyProtocolException(what + ": expected an array reply, got " + reply);
    }

    /** Decodes a FEED.READ reply {@code [generation, next, [[offset, [argv...]] ...]]} of {@code shard}. */
    static FrameBatch decodeRead(int shard, Object reply) {
        List<?> l = list(reply, "FEED.READ");
        if (l.size() != 3) {
            throw new KevyProtocolException("FEED.READ: expected 3 elements, got " + l.size());
        }
        List<?> frames = list(l.get(2), "FEED.READ frames");
        List<Frame> out = new ArrayList<>(frames.size());
        for (Object f : frames) {
            List<?> fl = list(f, "FEED.READ frame");
            List<?> argv = list(fl.get(1), "FEED.READ argv");
            byte[][] a = new byte[argv.size()][];
            for (int i = 0; i < a.length; i++) {
                a[i] = (byte[]) argv.get(i);
            }
            out.add(new Frame((Long) fl.get(0), a));
        }
        return new FrameBatch(new Cursor(shard, (Long) l.get(0), (Long) l.get(1)), out);
    }
}
