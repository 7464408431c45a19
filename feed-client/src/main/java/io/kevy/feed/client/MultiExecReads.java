package io.kevy.feed.client;

import io.kevy.common.Slots;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link FeedSource#reads} on a server without FEED.VALUE (upstream kevy): each key read together with its
 * shard's FEED.TAIL in one MULTI/EXEC, so the value and the cursor are one instant wherever EXEC is atomic
 * ({@link KeyRead#exact()}: the consumer then skips exactly the frames the read holds, list pushes and pops
 * included). Two pipelines per call, whatever the number of keys:
 * <ol>
 *   <li>{@code TYPE} of every key: the value read depends on the type, and a transaction cannot branch;</li>
 *   <li>per shard, up to {@value #KEYS_PER_EXEC} keys at a time:
 *       {@code MULTI, (PEXPIRETIME k, <the read for k's type>) ..., FEED.TAIL <shard>, EXEC} (PTTL where the
 *       server has no PEXPIRETIME). The read tells whether the type is still the one TYPE answered: GET, LRANGE,
 *       SMEMBERS, ZRANGE and HGETALL answer WRONGTYPE for another type, nil or empty for a missing key; a stream
 *       (XRANGE is empty for an empty stream too), another type and a missing key get {@code TYPE k} inside the
 *       transaction as well. FEED.TAIL comes last, so a lazy expiry the reads cause is below the cursor, as
 *       with FEED.VALUE.</li>
 * </ol>
 * A key whose type changed between TYPE and EXEC is read again in one more transaction that holds TYPE and the
 * read of every type (the others answer WRONGTYPE inside EXEC), so a key whose type keeps changing is read in
 * two transactions at most. Per key that is the three commands of the non-atomic reads (TYPE, PEXPIRETIME, the
 * read), plus MULTI, FEED.TAIL and EXEC per transaction.
 *
 * <p>When the server refuses the transaction (MULTI unknown, FEED.TAIL refused while queued or failing inside
 * EXEC, EXEC failing, a reply of another shape), the reads fall back, from then on and with one WARN line, to
 * {@link AbstractFeedSource#plainReads} (FEED.TAIL, then the plain reads: not exact). A connection error fails the
 * stage and changes nothing (the rebuild is retried).
 *
 * <p>On kevy for Java an EXEC with FEED.TAIL (which names no key) locks every shard while it runs: keys per EXEC
 * are bounded so that one EXEC stays short. Thread-safe.
 */
final class MultiExecReads {
    private static final Logger LOG = LoggerFactory.getLogger(MultiExecReads.class);
    /** Keys of one shard per MULTI/EXEC: bounds how long one EXEC holds the server's locks. */
    static final int KEYS_PER_EXEC = 64;
    /** Transactions a key gets at most: its type's, then every type's (and once more without PEXPIRETIME). */
    static final int ATTEMPTS = 3;
    /** The types with a whole-value read, in the order a transaction of every read queues them. */
    private static final ValueType[] READ_TYPES = {ValueType.STRING, ValueType.LIST, ValueType.SET, ValueType.ZSET,
        ValueType.HASH, ValueType.STREAM};
    private static final byte[] MULTI = AbstractFeedSource.ascii("MULTI");
    private static final byte[] EXEC = AbstractFeedSource.ascii("EXEC");
    private static final byte[] FEED_TAIL = AbstractFeedSource.ascii("FEED.TAIL");

    private final AbstractFeedSource source;
    /** True once a transaction was refused: the plain reads from then on. */
    private volatile boolean refused;

    MultiExecReads(AbstractFeedSource source) {
        this.source = source;
    }

    /** True once the server refused a transaction (the reads are not exact from then on). */
    boolean refused() {
        return refused;
    }

    CompletionStage<List<KeyRead>> reads(List<byte[]> keys, int shardCount) {
        if (refused) {
            return source.plainReads(keys, shardCount);
        }
        List<byte[][]> types = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            types.add(new byte[][] {AbstractFeedSource.TYPE, k});
        }
        CompletableFuture<?>[] replies = AbstractFeedSource.futures(source.callAll(types, new boolean[keys.size()]));
        return CompletableFuture.allOf(AbstractFeedSource.handled(replies)).thenCompose(done -> {
            ValueType[] type = new ValueType[keys.size()];
            for (int i = 0; i < replies.length; i++) {
                Throwable err = AbstractFeedSource.failure(replies[i]);
                if (err != null) {
                    return CompletableFuture.failedFuture(err);
                }
                type[i] = typeOf(replies[i].join());
            }
            KeyRead[] out = new KeyRead[keys.size()];
            List<Integer> all = new ArrayList<>(keys.size());
            for (int i = 0; i < keys.size(); i++) {
                all.add(i);
            }
            return attempt(keys, shardCount, type, all, out, false, 1);
        });
    }

    private static ValueType typeOf(Object reply) {
        if (!(reply instanceof byte[] b)) {
            throw new KevyProtocolException("TYPE answered " + reply);
        }
        return ValueType.ofTypeReply(new String(b, StandardCharsets.US_ASCII));
    }

    /** Why a transaction cannot be used on this server; {@link #reads} then falls back. */
    private static final class Refused extends RuntimeException {
        Refused(String why) {
            super(why, null, false, false);
        }
    }

    /** One transaction: the shard, the indexes of its keys, and where each command's reply is. */
    private static final class Tx {
        final int shard;
        final List<Integer> keys = new ArrayList<>();
        final List<byte[][]> commands = new ArrayList<>();
        int first;

        Tx(int shard) {
            this.shard = shard;
        }
    }

    /**
     * Reads the keys at {@code pending} (indexes into {@code keys}) in transactions into {@code out}, each with
     * the read of its type as {@code type} guesses it, or with the read of every type ({@code everyRead}); keys
     * whose type changed go round again with every read.
     */
    private CompletableFuture<List<KeyRead>> attempt(List<byte[]> keys, int shardCount, ValueType[] type,
            List<Integer> pending, KeyRead[] out, boolean everyRead, int attempt) {
        boolean withExpireTime = source.pexpiretime;
        Map<Integer, List<Tx>> byShard = new LinkedHashMap<>();
        List<Tx> txs = new ArrayList<>();
        List<byte[][]> argvs = new ArrayList<>();
        for (int i : pending) {
            int shard = Slots.shard(keys.get(i), shardCount);
            List<Tx> open = byShard.computeIfAbsent(shard, s -> new ArrayList<>());
            if (open.isEmpty() || open.get(open.size() - 1).keys.size() >= KEYS_PER_EXEC) {
                Tx tx = new Tx(shard);
                open.add(tx);
                txs.add(tx);
            }
            Tx tx = open.get(open.size() - 1);
            tx.keys.add(i);
            byte[] k = keys.get(i);
            if (everyRead || !selfChecking(type[i])) {
                tx.commands.add(new byte[][] {AbstractFeedSource.TYPE, k});
            }
            if (everyRead || type[i] != null) {
                tx.commands.add(new byte[][] {withExpireTime ? AbstractFeedSource.PEXPIRETIME
                        : AbstractFeedSource.PTTL, k});
            }
            if (everyRead) {
                for (ValueType t : READ_TYPES) {
                    tx.commands.add(AbstractFeedSource.valueRead(t, k));
                }
            } else if (type[i] != null && AbstractFeedSource.valueRead(type[i], k) != null) {
                tx.commands.add(AbstractFeedSource.valueRead(type[i], k));
            }
        }
        for (Tx tx : txs) {
            tx.first = argvs.size();
            argvs.add(new byte[][] {MULTI});
            argvs.addAll(tx.commands);
            argvs.add(new byte[][] {FEED_TAIL, AbstractFeedSource.num(tx.shard)});
            argvs.add(new byte[][] {EXEC});
        }
        boolean[] arrays = new boolean[argvs.size()];
        for (Tx tx : txs) {
            arrays[tx.first + tx.commands.size() + 2] = true; // EXEC
        }
        CompletableFuture<?>[] replies = AbstractFeedSource.futures(source.callAll(argvs, arrays));
        return CompletableFuture.allOf(AbstractFeedSource.handled(replies)).thenCompose(done -> {
            List<Integer> again = new ArrayList<>();
            boolean pexpiretimeRefused = false;
            long now = System.currentTimeMillis();
            try {
                for (Tx tx : txs) {
                    List<?> exec = exec(tx, replies, withExpireTime);
                    if (exec == null) { // PEXPIRETIME refused while queued: this server has none
                        source.pexpiretime = false;
                        again.addAll(tx.keys);
                        pexpiretimeRefused = true;
                        continue;
                    }
                    Cursor at = tail(tx.shard, exec.get(exec.size() - 1));
                    int e = 0;
                    for (int i : tx.keys) {
                        e = read(keys.get(i), i, type, exec, e, at, withExpireTime, everyRead, now, out, again);
                    }
                }
            } catch (Refused r) {
                return fallBack(r.getMessage(), keys, shardCount);
            } catch (RuntimeException r) {
                return CompletableFuture.failedFuture(r);
            }
            if (again.isEmpty()) {
                return CompletableFuture.completedFuture(List.of(out));
            }
            if (attempt >= ATTEMPTS) {
                byte[] k = keys.get(again.get(0));
                return CompletableFuture.failedFuture(new KevyProtocolException("key "
                        + new String(k, StandardCharsets.UTF_8) + " kept changing type while being read"));
            }
            return attempt(keys, shardCount, type, again, out, everyRead || !pexpiretimeRefused, attempt + 1);
        });
    }

    /**
     * The EXEC reply of {@code tx}, checked: null when PEXPIRETIME was refused while queued (and nothing else);
     * throws {@link Refused} when the server refused the transaction, the error when the connection failed.
     */
    private static List<?> exec(Tx tx, CompletableFuture<?>[] replies, boolean withExpireTime) {
        Throwable multi = AbstractFeedSource.failure(replies[tx.first]);
        if (multi instanceof KevyServerException) {
            throw new Refused("MULTI answered " + multi.getMessage());
        }
        rethrow(multi);
        boolean expireTimeRefused = false;
        for (int c = 0; c < tx.commands.size() + 1; c++) {
            Throwable queued = AbstractFeedSource.failure(replies[tx.first + 1 + c]);
            if (queued instanceof KevyServerException) {
                byte[] verb = c < tx.commands.size() ? tx.commands.get(c)[0] : FEED_TAIL;
                if (withExpireTime && verb == AbstractFeedSource.PEXPIRETIME) {
                    expireTimeRefused = true;
                    continue;
                }
                throw new Refused(new String(verb, StandardCharsets.US_ASCII) + " inside MULTI answered "
                        + queued.getMessage());
            }
            rethrow(queued);
        }
        CompletableFuture<?> execReply = replies[tx.first + tx.commands.size() + 2];
        Throwable exec = AbstractFeedSource.failure(execReply);
        if (expireTimeRefused && exec instanceof KevyServerException) {
            return null;
        }
        if (exec instanceof KevyServerException e) {
            if (e.getMessage().contains("EXEC without MULTI")) {
                // MULTI was answered OK, so the server lost the transaction: the connection was re-made meanwhile
                throw new KevyConnectionException("the transaction was lost (" + e.getMessage() + "): read again", e);
            }
            throw new Refused("EXEC answered " + e.getMessage());
        }
        rethrow(exec);
        Object reply = execReply.join();
        if (!(reply instanceof List<?> l) || l.size() != tx.commands.size() + 1) {
            throw new Refused("EXEC answered " + describe(reply) + ", expected " + (tx.commands.size() + 1)
                    + " replies");
        }
        return l;
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t != null) {
            throw new KevyException(t.toString(), t);
        }
    }

    /** FEED.TAIL's reply inside EXEC as the cursor. */
    private static Cursor tail(int shard, Object reply) {
        if (reply instanceof List<?> l && l.size() == 2 && l.get(0) instanceof Long g && l.get(1) instanceof Long n) {
            return new Cursor(shard, g, n);
        }
        throw new Refused("FEED.TAIL inside EXEC answered " + describe(reply));
    }

    /**
     * True when the read of {@code type} tells a key of another type (WRONGTYPE) and a missing key (nil, empty)
     * apart from a key of the type, so the transaction needs no TYPE: not for a stream (XRANGE of an empty stream
     * is empty), another type or a missing key.
     */
    private static boolean selfChecking(ValueType type) {
        return type != null && type != ValueType.STREAM && type != ValueType.OTHER;
    }

    /**
     * Sets {@code out[i]} from the replies of key {@code i} in {@code exec} from index {@code e}, or adds
     * {@code i} to {@code again} when its type changed; returns the index after its replies.
     */
    private static int read(byte[] key, int i, ValueType[] type, List<?> exec, int e, Cursor at,
            boolean withExpireTime, boolean everyRead, long now, KeyRead[] out, List<Integer> again) {
        ValueType guessed = type[i];
        boolean withType = everyRead || !selfChecking(guessed);
        ValueType seen = withType ? typeOf(element(exec.get(e++), key, "TYPE")) : guessed;
        Object expire = null;
        Object value = List.of();
        if (everyRead || guessed != null) {
            expire = element(exec.get(e++), key, withExpireTime ? "PEXPIRETIME" : "PTTL");
        }
        if (everyRead) {
            for (ValueType t : READ_TYPES) {
                Object reply = exec.get(e++);
                if (t == seen) {
                    value = reply;
                }
            }
            guessed = seen;
        } else if (guessed != null && AbstractFeedSource.valueRead(guessed, key) != null) {
            value = exec.get(e++);
        }
        if (!withType && value instanceof ReplyOutput.ErrorElement err && err.message().startsWith("WRONGTYPE")) {
            again.add(i); // another type now
            return e;
        }
        if (seen == null) {
            out[i] = new KeyRead(key, at, null, true);
            return e;
        }
        if (seen != guessed) {
            type[i] = seen;
            again.add(i);
            return e;
        }
        element(value, key, seen.word() + " read");
        long t = (Long) expire;
        long pttl = withExpireTime ? (t < 0 ? t : Math.max(0, t - now)) : t;
        KeySnapshot snap = AbstractFeedSource.toSnapshot(key, guessed, value, pttl).orElse(null);
        if (snap != null && withExpireTime && t >= 0) {
            snap = new KeySnapshot(key, snap.type(), snap.value(), snap.ttlMillis(), t);
        }
        out[i] = new KeyRead(key, at, snap, true);
        return e;
    }

    /** {@code reply}, or a failure when it is an error (the type matched, so an error is not a type change). */
    private static Object element(Object reply, byte[] key, String what) {
        if (reply instanceof ReplyOutput.ErrorElement err) {
            throw ServerErrors.fromReply(err.message());
        }
        return reply;
    }

    private CompletionStage<List<KeyRead>> fallBack(String why, List<byte[]> keys, int shardCount) {
        if (!refused) {
            refused = true;
            LOG.warn("{}: no FEED.VALUE, and MULTI/EXEC with FEED.TAIL refused ({}): rebuilds read FEED.TAIL, then "
                    + "each key, from now on, not exactly (a list push or pop made during a key's read may be applied "
                    + "twice: docs/consumer.md, Exact rebuilds)", source, why);
        }
        return source.plainReads(keys, shardCount);
    }

    private static String describe(Object reply) {
        if (reply instanceof byte[] b) {
            return "\"" + new String(b, StandardCharsets.UTF_8) + "\"";
        }
        if (reply instanceof ReplyOutput.ErrorElement e) {
            return "-" + e.message();
        }
        return String.valueOf(reply);
    }
}
