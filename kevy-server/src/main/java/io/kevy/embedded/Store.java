package io.kevy.embedded;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.session.Session;
import io.kevy.feed.Feed;
import io.kevy.feed.FeedCursor;
import io.kevy.feed.FeedFrame;
import io.kevy.feed.FeedRead;
import io.kevy.feed.PrefixFilter;
import io.kevy.persist.Persistence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * kevy embedded: the server's engine in-process, without the network. One shard, so one change stream
 * (feed contract §9: {@link #feedShards()} is 1). Commands run through the same command table and dispatcher
 * as on the server, with the same semantics and effect frames.
 *
 * <pre>{@code
 * try (Store store = Store.open(Config.defaults().withFeed(0))) {
 *     store.set("user:1", "ada");
 *     FeedCursor start = store.changesTail();
 *     ChangeBatch batch = store.changesSince(start.generation(), start.offset(), 256,
 *             List.of("user:".getBytes(UTF_8)));
 *     for (Change c : batch.changes()) { ... }
 * }
 * }</pre>
 *
 * <p><b>Thread-safe.</b> Any number of threads may call any method at once. Each {@link #execute} call is
 * its own client: MULTI/WATCH state does not carry from one call to the next ({@link #multi} runs a whole
 * MULTI/EXEC block). A blocking command (and the
 * blocking {@link #changesSince(long, long, int, List, Duration) changesSince}) parks the calling thread
 * only. Arguments are copied on the way in and replies on the way out, so callers may reuse their arrays.
 */
public final class Store implements AutoCloseable {
    private final Config config;
    private final KevyInstance kevy;
    private final Engine engine;
    private final Set<EmbeddedChannel> parked = ConcurrentHashMap.newKeySet();
    private final Set<Runnable> waitingReads = ConcurrentHashMap.newKeySet();
    private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
    private final Persistence persistence;
    private volatile boolean closed;

    private Store(Config config) throws IOException {
        this.config = config;
        this.kevy = KevyInstance.assemble(EngineConfig.defaults().withShards(1).withHz(config.hz()),
                config.feedConfig());
        this.engine = kevy.engine();
        try {
            this.persistence = config.persistence() == null ? null : kevy.startPersistence(config.persistence());
        } catch (IOException | RuntimeException e) {
            engine.close();
            throw e;
        }
        engine.startCron();
    }

    /**
     * Opens a store: in memory, or over the data directory of {@link Config#withDataDir} (loading it, and
     * deciding the feed generation as the server does, feed contract §5). Close it to stop its background
     * threads and, with a data directory, to write the clean-shutdown marker.
     *
     * @throws UncheckedIOException when the data directory cannot be used (the message names file and reason)
     * @throws IllegalStateException ({@link io.kevy.persist.DataDirInUseException}) when another store or
     *         kevy-server holds the data directory's lock ({@code kevy.lock}); the message names dir and pid
     */
    public static Store open(Config config) {
        try {
            return new Store(config);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    /**
     * Stops like a crash: no clean-shutdown marker, so the next open starts a new feed generation. For tests
     * of consumers' recovery.
     */
    public void abort() {
        if (closed) {
            return;
        }
        closed = true;
        releaseWaiters();
        try {
            if (persistence != null) {
                persistence.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            engine.close();
        }
    }

    public Config config() {
        return config;
    }

    /** The engine (for the in-module test harness and the persistence layer). */
    Engine engine() {
        return engine;
    }

    /** The assembled parts: engine, feed, dispatcher (for the in-module test harness). */
    KevyInstance instance() {
        return kevy;
    }

    /* ---------------- Pub/Sub ---------------- */

    /**
     * PUBLISH: delivers {@code message} to the subscribers of {@code channel} and of every matching pattern, on
     * this store ({@link #subscribe}). Emits no feed frame: a message is not a write.
     *
     * @return the number of subscribers that will receive it (PUBLISH's reply)
     * @throws IllegalStateException when the store is closed
     */
    public long publish(byte[] channel, byte[] message) {
        ensureOpen();
        return kevy.pubsub().publish(channel.clone(), message.clone());
    }

    /** {@link #publish(byte[], byte[])} with UTF-8 strings. */
    public long publish(String channel, String message) {
        ensureOpen();
        return kevy.pubsub().publish(utf8(channel), utf8(message));
    }

    /**
     * Starts a subscription delivering to {@code listener} (on a thread of the subscription's own) and
     * subscribes it to {@code channels}; add patterns with {@link Subscription#psubscribe}. Keyspace
     * notifications arrive here too once {@code notify-keyspace-events} is set (CONFIG SET through
     * {@link #execute}).
     *
     * @throws IllegalStateException when the store is closed
     */
    public Subscription subscribe(MessageListener listener, String... channels) {
        ensureOpen();
        Subscription[] self = new Subscription[1];
        Subscription s = new Subscription(kevy.pubsub(), listener, () -> subscriptions.remove(self[0]));
        self[0] = s;
        subscriptions.add(s);
        return s.subscribe(channels);
    }

    /* ---------------- generic commands ---------------- */

    /**
     * Runs one command, verb first, and returns its reply; an error is returned as {@link Reply.Error}, not
     * thrown. A blocking command (BLPOP, FEED.READ ... BLOCK) parks the calling thread until it completes.
     *
     * @throws IllegalArgumentException when {@code argv} is empty
     * @throws IllegalStateException when the store is closed
     * @throws java.util.concurrent.CancellationException when the thread is interrupted while a blocking
     *         command waits (the interrupt status is kept), or the store is closed meanwhile
     */
    public Reply execute(byte[]... argv) {
        if (argv.length == 0) {
            throw new IllegalArgumentException("empty command");
        }
        ensureOpen();
        byte[][] args = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            args[i] = argv[i].clone();
        }
        EmbeddedChannel channel = new EmbeddedChannel();
        Session session = engine.sessions().open(channel, engine.clock().millis(), true);
        try {
            ReplyTree out = new ReplyTree();
            Dispatcher.Outcome outcome = kevy.dispatcher().dispatch(session, args, out);
            if (outcome != Dispatcher.Outcome.BLOCKED) {
                return out.result();
            }
            parked.add(channel);
            try {
                if (closed) {
                    channel.close();
                }
                return channel.awaitReply(session);
            } finally {
                parked.remove(channel);
            }
        } finally {
            engine.unwatchAll(session);
            session.killed(true);
            engine.sessions().close(session);
        }
    }

    /**
     * Applies one effect frame (feed contract §7) the way kevy's own appliers do, a replica's link and snapshot and
     * AOF loading: its effect is stored exactly as the frame states it, so a sorted-set score of -0 keeps its sign
     * even in a set {@link #execute} would keep listpack-encoded (where Redis stores a client's -0 as 0). For the
     * completeness tests, which replay a feed onto an empty store.
     *
     * @throws IllegalStateException when the store is closed or the frame blocks (frames never do)
     */
    Reply applyFrame(byte[]... frame) {
        ensureOpen();
        byte[][] args = new byte[frame.length][];
        for (int i = 0; i < frame.length; i++) {
            args[i] = frame[i].clone(); // stored values keep argument arrays
        }
        Session session = engine.sessions().open(new EmbeddedChannel(), engine.clock().millis(), true);
        session.appliesFrames(true);
        try {
            ReplyTree out = new ReplyTree();
            if (kevy.dispatcher().dispatch(session, args, out) == Dispatcher.Outcome.BLOCKED) {
                throw new IllegalStateException("a frame blocked: " + new String(frame[0], StandardCharsets.UTF_8));
            }
            return out.result();
        } finally {
            session.killed(true);
            engine.sessions().close(session);
        }
    }

    /**
     * Runs {@code MULTI}, each of {@code commands} (verb first, UTF-8), then {@code EXEC}, all on one client: a
     * Redis transaction, the commands applied as one atomic block (no other write in between; the feed carries
     * their frames as one EXEC's, docs/cdc.md). Returns EXEC's reply: an array of the commands' replies in
     * order, or {@link Reply.Error} {@code EXECABORT ...} when one was refused while queued (nothing ran). As in
     * Redis, a blocking command inside the block does not block. The way to get MULTI/EXEC embedded, since
     * {@link #execute(String...)} is a new client per call.
     *
     * @throws IllegalArgumentException when a command is empty
     * @throws IllegalStateException when the store is closed
     */
    public Reply multi(List<String[]> commands) {
        List<byte[][]> block = new ArrayList<>(commands.size() + 2);
        block.add(new byte[][] {utf8("MULTI")});
        for (String[] argv : commands) {
            if (argv.length == 0) {
                throw new IllegalArgumentException("empty command in a MULTI block");
            }
            byte[][] b = new byte[argv.length][];
            for (int i = 0; i < argv.length; i++) {
                b[i] = utf8(argv[i]);
            }
            block.add(b);
        }
        block.add(new byte[][] {utf8("EXEC")});
        ensureOpen();
        Session session = engine.sessions().open(new EmbeddedChannel(), engine.clock().millis(), true);
        try {
            Reply last = null;
            for (byte[][] args : block) {
                ReplyTree out = new ReplyTree();
                if (kevy.dispatcher().dispatch(session, args, out) == Dispatcher.Outcome.BLOCKED) {
                    throw new IllegalStateException("a command blocked inside MULTI: "
                            + new String(args[0], StandardCharsets.UTF_8));
                }
                last = out.result();
            }
            return last;
        } finally {
            engine.unwatchAll(session);
            session.killed(true);
            engine.sessions().close(session);
        }
    }

    /** {@link #execute(byte[]...)} with UTF-8 arguments. */
    public Reply execute(String... argv) {
        byte[][] b = new byte[argv.length][];
        for (int i = 0; i < argv.length; i++) {
            b[i] = utf8(argv[i]);
        }
        return execute(b);
    }

    /* ---------------- typed commands (errors throw ReplyException) ---------------- */

    /** GET: the value, or null when absent. @throws ReplyException for WRONGTYPE */
    public byte[] get(byte[] key) {
        return execute(bytes("GET"), key).asBytes();
    }

    /** GET with UTF-8 key and value; null when absent. @throws ReplyException for WRONGTYPE */
    public String get(String key) {
        return execute("GET", key).asString();
    }

    /** SET: stores the value, clearing any TTL. */
    public void set(byte[] key, byte[] value) {
        execute(bytes("SET"), key, value).orThrow();
    }

    /** SET with UTF-8 key and value. */
    public void set(String key, String value) {
        execute("SET", key, value).orThrow();
    }

    /**
     * SET with a TTL ({@code SET key value PX ms}).
     *
     * @param ttl at least 1 ms
     * @throws ReplyException when the TTL is out of range
     */
    public void set(String key, String value, Duration ttl) {
        execute("SET", key, value, "PX", Long.toString(ttl.toMillis())).orThrow();
    }

    /** DEL: the number of keys removed. */
    public long del(String... keys) {
        return execute(prepend("DEL", keys)).asLong();
    }

    /** EXISTS: how many of the keys exist (a key named twice counts twice). */
    public long exists(String... keys) {
        return execute(prepend("EXISTS", keys)).asLong();
    }

    /** PEXPIRE: true when the key exists and got the TTL. @throws ReplyException for an invalid TTL */
    public boolean expire(String key, Duration ttl) {
        return execute("PEXPIRE", key, Long.toString(ttl.toMillis())).asLong() == 1;
    }

    /** HSET of one field: 1 when the field is new, 0 when it was updated. @throws ReplyException WRONGTYPE */
    public long hset(String key, String field, String value) {
        return execute("HSET", key, field, value).asLong();
    }

    /** HSET of several fields (in map order): how many are new. @throws ReplyException WRONGTYPE */
    public long hset(String key, Map<String, String> fields) {
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("no fields");
        }
        List<String> argv = new ArrayList<>(2 + fields.size() * 2);
        argv.add("HSET");
        argv.add(key);
        fields.forEach((f, v) -> {
            argv.add(f);
            argv.add(v);
        });
        return execute(argv.toArray(new String[0])).asLong();
    }

    /** HGETALL: the fields and values in the hash's order (empty when absent). @throws ReplyException WRONGTYPE */
    public Map<String, String> hgetall(String key) {
        List<Reply> e = execute("HGETALL", key).elements();
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i + 1 < e.size(); i += 2) {
            out.put(e.get(i).asString(), e.get(i + 1).asString());
        }
        return out;
    }

    /**
     * EVAL: runs the Lua {@code script} with {@code keys} as {@code KEYS} and {@code args} as {@code ARGV}, as one
     * critical section over every shard (Redis 7.0's scripting surface and conversion rules; the feed carries
     * the effects of its writes). The script's reply; a script error is returned as {@link Reply.Error} (use
     * {@link Reply#orThrow()} to throw it), as {@link #execute(String...)} does.
     */
    public Reply eval(String script, List<String> keys, List<String> args) {
        List<String> argv = new ArrayList<>(3 + keys.size() + args.size());
        argv.add("EVAL");
        argv.add(script);
        argv.add(Integer.toString(keys.size()));
        argv.addAll(keys);
        argv.addAll(args);
        return execute(argv.toArray(new String[0]));
    }

    /**
     * Every live key matching the glob {@code pattern} (SCAN ... MATCH pattern until the cursor is 0; keys
     * present for the whole scan are returned exactly once here).
     */
    public List<String> scan(String pattern) {
        Set<String> keys = new LinkedHashSet<>();
        String cursor = "0";
        do {
            List<Reply> page = execute("SCAN", cursor, "MATCH", pattern, "COUNT", "1000").elements();
            cursor = page.get(0).asString();
            for (Reply k : page.get(1).elements()) {
                keys.add(k.asString());
            }
        } while (!cursor.equals("0"));
        return new ArrayList<>(keys);
    }

    /* ---------------- the change feed (feed contract §9) ---------------- */

    /** Always 1: the embedded store has one stream. */
    public int feedShards() {
        return 1;
    }

    /**
     * The cursor a fresh consumer starts from: the current generation and next offset.
     *
     * @throws FeedException.Disabled when the store was opened without the feed
     */
    public FeedCursor changesTail() {
        Feed feed = feed();
        return feed.tail(0);
    }

    /**
     * The changes from {@code (generation, offset)} on, without waiting: the same rules as FEED.READ (feed
     * contract §4). {@code limit} (clamped to [1, 4096]) bounds the changes <em>scanned</em>; {@code prefixes}
     * (OR; empty = all) filter changes of single-key shape, others are always delivered (§8). The returned
     * cursor moves past filtered changes too.
     *
     * @throws FeedException.Resync    the generation is not the current one, or the offset was evicted
     * @throws FeedException.Future    the offset is past the tail
     * @throws FeedException.Disabled  the store was opened without the feed
     */
    public ChangeBatch changesSince(long generation, long offset, int limit, List<byte[]> prefixes) {
        FeedRead read = feed().open(0, generation, offset, Feed.clampCount(limit), PrefixFilter.of(prefixes));
        FeedRead.Result r = read.step();
        return toBatch(r == null ? read.idle() : r);
    }

    /**
     * As {@link #changesSince(long, long, int, List)}, but when nothing is deliverable waits up to {@code wait}
     * for changes (the server's BLOCK): returns as soon as a change passes the filter, {@code limit} changes
     * were scanned, or the time is up (then with no changes and the cursor past any filtered ones).
     * {@link Duration#ZERO} does not wait. Closing the store ends the wait early (with no changes).
     *
     * @throws InterruptedException when interrupted while waiting
     * @throws FeedException as the non-blocking variant, also when the stream is reset while waiting
     */
    public ChangeBatch changesSince(long generation, long offset, int limit, List<byte[]> prefixes, Duration wait)
            throws InterruptedException {
        FeedRead read = feed().open(0, generation, offset, Feed.clampCount(limit), PrefixFilter.of(prefixes));
        long deadline = System.nanoTime() + wait.toNanos();
        Semaphore signal = new Semaphore(0);
        Runnable wake = signal::release;
        waitingReads.add(wake);
        try {
            while (true) {
                FeedRead.Result r = read.step();
                if (r != null) {
                    return toBatch(r);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return toBatch(read.idle());
                }
                if (read.park(wake)) {
                    signal.tryAcquire(left, TimeUnit.NANOSECONDS);
                    signal.drainPermits();
                }
            }
        } finally {
            waitingReads.remove(wake);
            read.close(wake);
        }
    }

    /** Live keys starting with {@code prefix} and how many have a TTL (PREFIX.STATS; works without the feed). */
    public PrefixInfo infoPrefix(byte[] prefix) {
        ensureOpen();
        Feed.PrefixStats st = kevy.feed().prefixStats(prefix.clone());
        return new PrefixInfo(st.keys(), st.expires());
    }

    /** {@link #infoPrefix(byte[])} with a UTF-8 prefix. */
    public PrefixInfo infoPrefix(String prefix) {
        return infoPrefix(utf8(prefix));
    }

    private Feed feed() {
        ensureOpen();
        Feed feed = kevy.feed();
        if (!feed.enabled()) {
            throw new FeedException.Disabled();
        }
        return feed;
    }

    private static ChangeBatch toBatch(FeedRead.Result r) {
        if (r instanceof FeedRead.Batch b) {
            List<Change> changes = new ArrayList<>(b.frames().size());
            for (FeedFrame f : b.frames()) {
                changes.add(new Change(f.offset(), f.argv()));   // decoded into new arrays: the caller's own
            }
            return new ChangeBatch(changes, new FeedCursor(b.generation(), b.next()));
        }
        if (r instanceof FeedRead.Resync rs) {
            throw new FeedException.Resync(rs.generation(), rs.tail());
        }
        throw new FeedException.Future();
    }

    /* ---------------- life cycle ---------------- */

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("store closed");
        }
    }

    /**
     * Stops the store: callers blocked in {@link #execute} get a CancellationException, waiting
     * {@code changesSince} calls return; later calls fail. With a data directory this is a clean shutdown: the
     * AOF is fsynced (a snapshot is saved when there is no AOF and save rules exist) and the clean-shutdown
     * marker keeps the feed generation for the next open. Idempotent.
     *
     * @throws UncheckedIOException when the data cannot be made durable (the next open starts a new generation)
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        releaseWaiters();
        try {
            if (persistence != null) {
                persistence.shutdown(null);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("clean shutdown failed; the next open starts a new generation", e);
        } finally {
            engine.close();
        }
    }

    private void releaseWaiters() {
        for (EmbeddedChannel c : parked) {
            c.close();
        }
        for (Runnable w : waitingReads) {
            w.run();
        }
        for (Subscription s : subscriptions) {
            s.close();
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String ascii) {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }

    private static String[] prepend(String verb, String[] rest) {
        String[] out = new String[rest.length + 1];
        out[0] = verb;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }
}
