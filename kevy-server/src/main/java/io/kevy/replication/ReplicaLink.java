package io.kevy.replication;

import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.session.Session;
import io.kevy.engine.struct.Dict;
import io.kevy.feed.FeedCursor;
import io.kevy.persist.Snapshots;
import io.kevy.resp.DiscardingReplySink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replica's link to its primary: the replication stream is the primary's change feed. The link reads
 * {@code FEED.SHARDS}, takes a full sync when it holds no cursor the primary can serve, then follows every
 * primary shard over its own connection with {@code FEED.READ shard gen offset COUNT 4096 BLOCK 1000}, applying
 * each frame under the local shard lock and acknowledging each applied batch with
 * {@code REPLCONF FEED-ACK shard gen offset} (pipelined before the next read), which WAIT and the primary's
 * INFO count.
 *
 * <p><b>Mirroring.</b> With the primary's shard count, keys map to the same shard on both sides (feed contract
 * §2), so local shard i applies exactly primary shard i's frames: each frame is applied with the shard's own
 * frames suppressed (loading mode) and then emitted as the primary's frame at the primary's offset, so the
 * replica's feed, AOF and backlog carry the primary's generations and offsets, and a consumer's cursor means the
 * same on both. A primary that continued under a new generation (a promotion) is followed with
 * {@link Shard#continueStream}. With another shard count the frames are applied as commands (re-routed by key)
 * and the replica's feed has its own generations: cursors do not carry over between the two.
 *
 * <p><b>Full sync.</b> {@code REPL.SNAPSHOT shard} for every primary shard, each streamed in chunks
 * ({@code REPL.CHUNK}) to a temporary file and checksum-verified; only when all arrived is the local keyspace replaced, under all shard locks. A primary
 * that dies mid-sync leaves the old data in place.
 *
 * <p><b>Faults.</b> A broken connection ends all followers; the link retries every second from the cursors it
 * has (a partial resync when the primary's backlog still holds them, else {@code -FEEDRESYNC} and a full sync).
 * Each reason the link is down is logged once (again at most every {@link #REPEAT_LOG_MS} while it lasts), each
 * link up once. A primary that is not kevy (Redis: FEED.SHARDS is an unknown command) or has its feed off is
 * refused with a reason saying so: kevy replicates only from kevy.
 *
 * <p>Thread-safe: one supervisor thread and one follower thread per primary shard; state read by INFO is
 * volatile.
 */
final class ReplicaLink {
    private static final byte[] FUNCTION = "FUNCTION".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final byte[] FLUSH = "FLUSH".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final Logger log = LoggerFactory.getLogger(ReplicaLink.class);
    static final int CONNECT_TIMEOUT_MS = 2000;
    /** The follower's BLOCK; reads time out well after it. */
    static final int BLOCK_MS = 1000;
    static final int READ_TIMEOUT_MS = 30_000;
    /** How long a replica waits for its primary to write one shard's snapshot (REPL.SNAPSHOT), ms. */
    static final int SNAPSHOT_TIMEOUT_MS = 30 * 60_000;
    static final long RETRY_MS = 1000;
    /** While the link stays down for the same reason, that reason is logged again at most this often, ms. */
    static final long REPEAT_LOG_MS = 5 * 60_000;

    /** The link's state, named as ROLE's replica states. */
    enum State {
        CONNECT("connect"), CONNECTING("connecting"), SYNC("sync"), CONNECTED("connected");

        final String role;

        State(String role) {
            this.role = role;
        }
    }

    /**
     * The primary answers but cannot be replicated from: it is not kevy (Redis answers FEED.SHARDS with unknown
     * command), or its feed is off. Retrying goes on (it may be restarted as one), but this is a setup error.
     */
    private static final class NotReplicable extends IOException {
        NotReplicable(String why) {
            super(why);
        }
    }

    /** A FEEDRESYNC from the primary: the cursors are gone, a full sync is needed. */
    private static final class ResyncNeeded extends IOException {
        ResyncNeeded(String why) {
            super(why);
        }
    }

    final String host;
    final int port;
    private final Replication replication;
    private final Engine engine;
    private final Dispatcher dispatcher;
    private final Thread supervisor;
    private final List<RespClient> open = new ArrayList<>();
    /** The sessions frames are applied through, one per connection that applies (CLIENT LIST's master clients). */
    private final List<Session> sessions = new ArrayList<>();
    private volatile boolean stopped;
    private volatile State state = State.CONNECT;
    private volatile long lastIoMs;
    private volatile long downSinceMs;
    private volatile String lastError;
    /** The down reason last logged, when, and the attempts that failed for it since (supervisor thread only). */
    private String loggedReason;
    private long loggedAtMs;
    private int repeats;
    /** The primary shard count last logged as differing from ours, or 0 (supervisor thread only). */
    private int loggedShards;
    private boolean everUp;
    private volatile boolean mirror;
    /** Per primary shard, the cursor applied up to (non-mirrored mode; mirrored uses the local shards). */
    private volatile long[] gens;
    private volatile long[] offsets;

    ReplicaLink(Replication replication, String host, int port) {
        this.replication = replication;
        this.engine = replication.engine();
        this.dispatcher = replication.dispatcher();
        this.host = host;
        this.port = port;
        this.downSinceMs = engine.clock().millis();
        this.supervisor = new Thread(this::supervise, "kevy-replica-of-" + host + ":" + port);
        supervisor.setDaemon(true);
    }

    void start() {
        supervisor.start();
    }

    /**
     * Stops the link: no frame is applied after this returns (each apply checks under the shard lock), its
     * connections close and its threads end on their own. Does not wait for them, so it may be called with shard
     * locks held (REPLICAOF inside EXEC, as Sentinel sends it).
     */
    void stop() {
        stopped = true;
        closeAll();
        closeSessions();
        supervisor.interrupt();
    }

    /**
     * Opens the session that applies what arrives over {@code c}: Redis's master client ({@code flags=M} in CLIENT
     * LIST at the connection's addresses, obeyed on a read-only replica); CLIENT KILL of it closes {@code c}.
     *
     * @throws IOException when the link was stopped meanwhile
     */
    private Session openSession(RespClient c, String name) throws IOException {
        synchronized (sessions) {
            if (stopped) {
                throw new IOException("link stopped");
            }
            Session s = engine.sessions().open(new MasterChannel(c), engine.clock().millis(), true);
            s.master(true);
            s.name(name);
            sessions.add(s);
            return s;
        }
    }

    private void closeSession(Session s) {
        synchronized (sessions) {
            sessions.remove(s);
        }
        engine.sessions().close(s);
    }

    private void closeSessions() {
        synchronized (sessions) {
            for (Session s : sessions) {
                engine.sessions().close(s);
            }
            sessions.clear();
        }
    }

    State state() {
        return state;
    }

    boolean up() {
        return state == State.CONNECTED;
    }

    long lastIoMs() {
        return lastIoMs;
    }

    long downSinceMs() {
        return downSinceMs;
    }

    /** Why the link last went down (INFO's {@code kevy_master_link_error}), or null. */
    String lastError() {
        return lastError;
    }

    /** The sum of the applied primary offsets (INFO's slave_repl_offset), or 0 before a sync. */
    long appliedOffset() {
        long sum = 0;
        if (mirror) {
            for (int i = 0; i < engine.shardCount(); i++) {
                Shard s = engine.shard(i);
                s.lock().lock();
                try {
                    sum += s.nextOffset();
                } finally {
                    s.lock().unlock();
                }
            }
            return sum;
        }
        long[] o = offsets;
        if (o != null) {
            for (long v : o) {
                sum += v;
            }
        }
        return sum;
    }

    private void supervise() {
        boolean needFull = false;
        while (!stopped) {
            try {
                state = State.CONNECTING;
                int shards;
                String how;
                try (RespClient c = connect()) {
                    shards = (int) (long) expectLong(feedShards(c), "FEED.SHARDS");
                    if (shards < 1) {
                        throw new IOException("primary reports " + shards + " shards");
                    }
                    checkFeedOn(c);
                    mirror = shards == engine.shardCount();
                    logShardCount(shards);
                    for (int i = 0; i < engine.shardCount(); i++) {
                        engine.shard(i).mirror(mirror);
                    }
                    boolean full = needFull || !haveCursors(shards) || !servable(c, shards);
                    if (full) {
                        state = State.SYNC;
                        fullSync(c, shards);
                        replication.countFullSync();
                        needFull = false;
                        how = "full sync of " + shards + " shard(s)";
                    } else {
                        replication.countPartialSync();
                        how = "partial resync from replica offset " + appliedOffset();
                    }
                    Object id = c.call("REPLCONF", "KEVY-REPLID"); // an older primary refuses it: keep ours
                    if (id instanceof byte[] b) {
                        replication.adoptReplId(new String(b, StandardCharsets.UTF_8), full, appliedOffset());
                    }
                }
                follow(shards, how);
            } catch (ResyncNeeded e) {
                log.info("replica of {}:{}: {}; taking a full sync", host, port, e.getMessage());
                needFull = true;
                linkDown();
            } catch (IOException | RuntimeException e) {
                if (!stopped) {
                    lastError = e.getMessage() == null ? e.toString() : e.getMessage().replace("\r", " ")
                            .replace("\n", " ");
                    logDown(e);
                }
                linkDown();
                pause();
            }
        }
    }

    /**
     * Logs why the link is down: once per reason (a new reason, or the first after the link was up), then, while
     * the retries every second keep failing the same way, at most every {@link #REPEAT_LOG_MS} with the number of
     * attempts since, instead of a line a second.
     */
    private void logDown(Exception e) {
        String reason = lastError;
        long now = engine.clock().millis();
        if (reason.equals(loggedReason) && now - loggedAtMs < REPEAT_LOG_MS) {
            repeats++;
            log.debug("replica of {}:{}: link down: {}", host, port, e.toString());
            return;
        }
        String again = reason.equals(loggedReason) ? " (still, " + (repeats + 1) + " attempts since the last "
                + "report; retrying every " + RETRY_MS + " ms)" : "";
        if (e instanceof NotReplicable) {
            log.warn("replica of {}:{}: link down: {}{}", host, port, reason, again);
        } else {
            log.info("replica of {}:{}: link down: {}{}", host, port, e.toString(), again);
        }
        loggedReason = reason;
        loggedAtMs = now;
        repeats = 0;
    }

    /**
     * FEED.SHARDS, which every kevy answers (with the feed off too); an unknown command means the primary is not
     * kevy (a Redis: kevy's replication is its feed, not Redis's PSYNC).
     */
    private Object feedShards(RespClient c) throws IOException {
        Object r = c.call("FEED.SHARDS");
        if (r instanceof RespClient.Error e && e.message().startsWith("ERR unknown command")) {
            throw new NotReplicable("the primary at " + host + ":" + port + " is not a kevy server (FEED.SHARDS: "
                    + "unknown command); kevy replicates only from a kevy server with its feed on");
        }
        return r;
    }

    /** Refuses a kevy primary whose feed is off: the feed is the replication stream. */
    private void checkFeedOn(RespClient c) throws IOException {
        Object r = c.call("FEED.TAIL", 0);
        if (r instanceof RespClient.Error e && e.message().startsWith("ERR feed disabled")) {
            throw new NotReplicable("the primary at " + host + ":" + port + " has its change feed off (FEED.TAIL: "
                    + e.message() + "); kevy replicates over the primary's feed: turn it on there");
        }
    }

    /** Says once (per primary shard count seen) what a shard count other than ours means for this replica. */
    private void logShardCount(int shards) {
        if (shards == engine.shardCount()) {
            loggedShards = 0;
            return;
        }
        if (shards == loggedShards) {
            return;
        }
        loggedShards = shards;
        log.info("replica of {}:{}: the primary has {} shard(s), this replica {}: its frames are applied as "
                + "commands re-routed by key to this replica's shards, and this replica's feed carries them under "
                + "its own generations and offsets (a consumer's cursor does not carry over between the two; give "
                + "the replica the primary's shard count to mirror its feed)", host, port, shards,
                engine.shardCount());
    }

    private void linkDown() {
        closeAll();
        if (state == State.CONNECTED || downSinceMs == 0) {
            downSinceMs = engine.clock().millis();
        }
        state = State.CONNECT;
    }

    private void pause() {
        try {
            Thread.sleep(RETRY_MS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
        }
    }

    /**
     * Whether the primary can serve every cursor this replica holds (the PSYNC question): a {@code FEED.READ ...
     * COUNT 1} per shard answers frames or caught-up, not {@code -FEEDRESYNC}. In mirrored mode the local shards'
     * positions are the cursors: a generation is a random identity, so an unrelated one always gets a resync.
     */
    private boolean servable(RespClient c, int shards) throws IOException {
        for (int p = 0; p < shards; p++) {
            long[] cur = cursor(p);
            Object r = c.call("FEED.READ", p, cur[0], cur[1], "COUNT", 1);
            if (r instanceof RespClient.Error e) {
                if (e.message().startsWith("FEEDRESYNC") || e.message().startsWith("ERR feed cursor ahead")) {
                    return false;
                }
                throw new IOException("FEED.READ " + p + " refused: " + e.message());
            }
        }
        return true;
    }

    private boolean haveCursors(int shards) {
        if (mirror) {
            return true;
        }
        long[] g = gens;
        return g != null && g.length == shards;
    }

    /** Opens an authenticated connection to the primary, refusing a primary that is this server. */
    private RespClient connect() throws IOException {
        RespClient c = RespClient.connect(host, port, CONNECT_TIMEOUT_MS, READ_TIMEOUT_MS);
        synchronized (open) {
            if (stopped) {
                c.close();
                throw new IOException("link stopped");
            }
            open.add(c);
        }
        String auth = replication.masterAuth();
        if (auth != null && !auth.isEmpty()) {
            Object r = c.call("AUTH", auth);
            if (r instanceof RespClient.Error e) {
                throw new IOException("AUTH refused by the primary: " + e.message());
            }
        }
        Object id = c.call("REPLCONF", "KEVY-RUN-ID", engine.runId());
        if (id instanceof RespClient.Error e && (e.message().startsWith("ERR replica of itself")
                || e.message().startsWith("ERR replica loop"))) {
            throw new IOException("refused by " + host + ":" + port + ": " + e.message().substring(4));
        }
        Object chain = c.call("REPLCONF", "KEVY-CHAIN");
        if (chain instanceof List<?> ids) {
            List<String> up = new ArrayList<>(ids.size());
            for (Object o : ids) {
                if (o instanceof byte[] b) {
                    up.add(new String(b, StandardCharsets.UTF_8));
                }
            }
            if (up.contains(engine.runId())) { // this server is upstream of its primary: a loop
                throw new IOException("refused: " + host + ":" + port + " replicates from this server (a loop)");
            }
            replication.upstream(up);
        }
        String ip = replication.announceIp();
        Object r = ip.isEmpty() ? c.call("REPLCONF", "LISTENING-PORT", replication.announcePort())
                : c.call("REPLCONF", "LISTENING-PORT", replication.announcePort(), "IP-ADDRESS", ip);
        if (r instanceof RespClient.Error e) {
            throw new IOException("primary refused REPLCONF: " + e.message());
        }
        lastIoMs = engine.clock().millis();
        return c;
    }

    private void closeAll() {
        synchronized (open) {
            for (RespClient c : open) {
                c.close();
            }
            open.clear();
        }
    }

    private void fullSync(RespClient c, int shards) throws IOException {
        Path dir = Files.createTempDirectory("kevy-fullsync-");
        try {
            FeedCursor[] cursors = new FeedCursor[shards];
            Path[] files = new Path[shards];
            for (int p = 0; p < shards; p++) {
                files[p] = dir.resolve("dump-" + p + ".rdb");
                receiveSnapshot(c, p, files[p]);
                cursors[p] = Snapshots.read(files[p], new Snapshots.Entries() { // verify before any change
                    @Override
                    public void string(byte[] key, long expireAt, byte[] value) {
                    }

                    @Override
                    public void frames(byte[] key, long expireAt, byte[][][] frames) {
                    }
                });
                lastIoMs = engine.clock().millis();
            }
            Session session = openSession(c, "replication-sync");
            try {
                load(files, cursors, session);
            } finally {
                closeSession(session);
            }
            log.info("replica of {}:{}: full sync of {} shard(s) done", host, port, shards);
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
        String err = engine.durability().save(); // the AOF restarts at the new cursors: a snapshot must back it
        if (err != null && !err.startsWith("ERR no data directory")) {
            log.warn("replica of {}:{}: SAVE after the full sync failed: {}", host, port, err);
        }
    }

    /**
     * Receives primary shard {@code p}'s snapshot into {@code file}: {@code REPL.SNAPSHOT p} (the primary writes
     * it in the background and answers its size and transfer id), then {@code REPL.CHUNK id offset} until all
     * its bytes arrived, each chunk appended as it comes (no whole snapshot in memory).
     */
    private void receiveSnapshot(RespClient c, int p, Path file) throws IOException {
        c.readTimeout(SNAPSHOT_TIMEOUT_MS); // the primary writes the whole shard before it answers
        Object r;
        try {
            r = c.call("REPL.SNAPSHOT", p);
        } finally {
            c.readTimeout(READ_TIMEOUT_MS);
        }
        if (!(r instanceof List<?> l) || l.size() != 4 || !(l.get(2) instanceof Long size)
                || !(l.get(3) instanceof byte[] id) || size < 0) {
            throw new IOException("REPL.SNAPSHOT " + p + ": unexpected reply " + describe(r));
        }
        String transfer = new String(id, StandardCharsets.UTF_8);
        try (var out = Files.newOutputStream(file)) {
            long got = 0;
            while (got < size) {
                if (stopped) {
                    throw new IOException("link stopped");
                }
                Object chunk = c.call("REPL.CHUNK", transfer, got);
                if (!(chunk instanceof byte[] b) || b.length == 0 || got + b.length > size) {
                    throw new IOException("REPL.CHUNK " + transfer + " " + got + ": unexpected reply "
                            + describe(chunk));
                }
                out.write(b);
                got += b.length;
                lastIoMs = engine.clock().millis();
            }
        }
    }

    /** Replaces the keyspace with the verified snapshots, under every shard lock. */
    private void load(Path[] files, FeedCursor[] cursors, Session session) throws IOException {
        DiscardingReplySink sink = new DiscardingReplySink();
        long now = engine.clock().millis();
        engine.lockAll();
        try {
            if (stopped) {
                throw new IOException("link stopped");
            }
            for (int i = 0; i < engine.shardCount(); i++) {
                Shard s = engine.shard(i);
                s.keyspace().clear();
                s.loading(true);
            }
            // the primary's libraries replace ours: its shard 0 snapshot restates them (FUNCTION LOAD REPLACE)
            dispatcher.dispatch(session, new byte[][] {FUNCTION, FLUSH}, sink);
            for (Path f : files) {
                Snapshots.read(f, new Snapshots.Entries() {
                    @Override
                    public void serverFrames(byte[][][] frames) {
                        for (byte[][] fr : frames) {
                            dispatcher.dispatch(session, fr, sink);
                        }
                    }

                    @Override
                    public void string(byte[] key, long expireAt, byte[] value) {
                        if (expireAt != Keyspace.NO_EXPIRY && expireAt <= now) {
                            return;
                        }
                        Keyspace ks = engine.shardFor(key).keyspace();
                        Dict.Node<Object> n = ks.put(key, value, false);
                        if (expireAt != Keyspace.NO_EXPIRY) {
                            ks.setExpiry(n, expireAt);
                        }
                    }

                    @Override
                    public void frames(byte[] key, long expireAt, byte[][][] frames) {
                        if (expireAt != Keyspace.NO_EXPIRY && expireAt <= now) {
                            return;
                        }
                        for (byte[][] fr : frames) {
                            dispatcher.dispatch(session, fr, sink);
                        }
                        if (expireAt != Keyspace.NO_EXPIRY) {
                            Keyspace ks = engine.shardFor(key).keyspace();
                            Dict.Node<Object> n = ks.node(key, now);
                            if (n != null) {
                                ks.setExpiry(n, expireAt);
                            }
                        }
                    }
                });
            }
            long[] g = new long[cursors.length];
            long[] o = new long[cursors.length];
            for (int p = 0; p < cursors.length; p++) {
                g[p] = cursors[p].generation();
                o[p] = cursors[p].offset();
            }
            for (int i = 0; i < engine.shardCount(); i++) {
                Shard s = engine.shard(i);
                s.loading(false);
                if (mirror) {
                    s.resetStream(g[i], o[i]); // the primary's stream, from the snapshot's cursor on
                } else {
                    s.resetStream(Engine.newGeneration(s.generation()), 0);
                }
            }
            gens = g;
            offsets = o;
        } finally {
            for (int i = 0; i < engine.shardCount(); i++) {
                engine.shard(i).loading(false);
            }
            engine.unlockAll();
        }
    }

    /**
     * Runs one follower per primary shard, each over its own connection and applying through its own session,
     * until one fails; rethrows its failure. The sessions close with their connections.
     */
    private void follow(int shards, String how) throws IOException {
        List<RespClient> clients = new ArrayList<>();
        List<Session> applying = new ArrayList<>();
        try {
            for (int p = 0; p < shards; p++) {
                clients.add(connect());
                applying.add(openSession(clients.get(p), "replication-" + p));
            }
            followAll(shards, clients, applying, how);
        } finally {
            for (Session s : applying) {
                closeSession(s);
            }
        }
    }

    private void followAll(int shards, List<RespClient> clients, List<Session> applying, String how)
            throws IOException {
        AtomicReference<IOException> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        long down = downSinceMs == 0 ? -1 : engine.clock().millis() - downSinceMs;
        state = State.CONNECTED;
        downSinceMs = 0;
        lastError = null;
        loggedReason = null;
        log.info("replica of {}:{}: link up, {}{}", host, port, how,
                everUp && down >= 0 ? " (down " + (down / 1000) + " s)" : "");
        everUp = true;
        Object done = new Object();
        for (int p = 0; p < shards; p++) {
            int shard = p;
            RespClient c = clients.get(p);
            Session session = applying.get(p);
            Thread t = new Thread(() -> {
                try {
                    followShard(c, shard, session);
                } catch (IOException e) {
                    failure.compareAndSet(null, e);
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, new IOException(e));
                } finally {
                    synchronized (done) {
                        done.notifyAll();
                    }
                }
            }, "kevy-replica-shard-" + p);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        synchronized (done) {
            while (failure.get() == null && !stopped) {
                try {
                    done.wait(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopped = true;
                }
            }
        }
        closeAll();
        for (Thread t : threads) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        IOException f = failure.get();
        if (f != null && !stopped) {
            throw f;
        }
    }

    private void followShard(RespClient c, int p, Session session) throws IOException {
        while (!stopped) {
            long[] cur = cursor(p);
            c.send("REPLCONF", "FEED-ACK", p, cur[0], cur[1]);
            c.send("FEED.READ", p, cur[0], cur[1], "COUNT", 4096, "BLOCK", BLOCK_MS);
            c.flush();
            Object ack = c.read();
            if (ack instanceof RespClient.Error e) {
                throw new IOException("REPLCONF FEED-ACK refused: " + e.message());
            }
            Object r = c.read();
            lastIoMs = engine.clock().millis();
            if (r instanceof RespClient.Error e) {
                if (e.message().startsWith("FEEDRESYNC")) {
                    throw new ResyncNeeded("shard " + p + ": " + e.message());
                }
                throw new IOException("FEED.READ " + p + " refused: " + e.message());
            }
            if (!(r instanceof List<?> l) || l.size() != 3 || !(l.get(0) instanceof Long gen)
                    || !(l.get(1) instanceof Long next) || !(l.get(2) instanceof List<?> frames)) {
                throw new IOException("FEED.READ " + p + ": unexpected reply " + describe(r));
            }
            for (Object f : frames) {
                if (!(f instanceof List<?> fr) || fr.size() != 2 || !(fr.get(0) instanceof Long offset)
                        || !(fr.get(1) instanceof List<?> argvList)) {
                    throw new IOException("FEED.READ " + p + ": unexpected frame " + describe(f));
                }
                byte[][] argv = new byte[argvList.size()][];
                for (int i = 0; i < argv.length; i++) {
                    if (!(argvList.get(i) instanceof byte[] b)) {
                        throw new IOException("FEED.READ " + p + ": frame argument is not a bulk string");
                    }
                    argv[i] = b;
                }
                apply(p, gen, offset, argv, session);
            }
            advance(p, gen, next);
        }
    }

    /** The cursor applied up to on primary shard {@code p}: {generation, next offset}. */
    private long[] cursor(int p) {
        if (mirror) {
            Shard s = engine.shard(p);
            s.lock().lock();
            try {
                return new long[] {s.generation(), s.nextOffset()};
            } finally {
                s.lock().unlock();
            }
        }
        return new long[] {gens[p], offsets[p]};
    }

    private void advance(int p, long gen, long next) throws IOException {
        if (mirror) {
            Shard s = engine.shard(p);
            s.lock().lock();
            try {
                if (stopped) {
                    throw new IOException("link stopped");
                }
                if (s.generation() != gen) {
                    s.continueStream(gen); // the primary went on under a new generation (a promotion)
                }
                if (s.nextOffset() != next) {
                    throw new ResyncNeeded("shard " + p + " is at offset " + s.nextOffset() + " but the primary's "
                            + "cursor says " + next);
                }
            } finally {
                s.lock().unlock();
            }
            return;
        }
        synchronized (this) {
            gens[p] = gen;
            offsets[p] = next;
        }
    }

    private void apply(int p, long gen, long offset, byte[][] argv, Session session) throws IOException {
        DiscardingReplySink sink = new DiscardingReplySink();
        if (!mirror) {
            dispatcher.dispatch(session, argv, sink);
            report(argv, sink);
            return;
        }
        Shard s = engine.shard(p);
        s.lock().lock();
        try {
            if (stopped) {
                throw new IOException("link stopped"); // promoted or re-pointed meanwhile: not ours to apply
            }
            if (s.generation() != gen) {
                s.continueStream(gen);
            }
            if (s.nextOffset() != offset) {
                throw new ResyncNeeded("shard " + p + " is at offset " + s.nextOffset() + " but the primary sent "
                        + "frame " + offset);
            }
            s.loading(true);
            try {
                dispatcher.dispatch(session, argv, sink);
            } finally {
                s.loading(false);
            }
            s.emit(argv); // the primary's frame at the primary's offset
        } finally {
            s.lock().unlock();
        }
        report(argv, sink);
    }

    private void report(byte[][] argv, DiscardingReplySink sink) {
        if (sink.error() != null) {
            log.warn("replica of {}:{}: frame {} failed to apply: {}", host, port,
                    new String(argv[0], StandardCharsets.UTF_8), sink.error().message());
        }
    }

    private static long expectLong(Object r, String what) throws IOException {
        if (r instanceof Long l) {
            return l;
        }
        throw new IOException(what + ": unexpected reply " + describe(r));
    }

    private static String describe(Object r) {
        if (r instanceof RespClient.Error e) {
            return "-" + e.message();
        }
        if (r instanceof byte[] b) {
            return "$" + b.length;
        }
        return String.valueOf(r);
    }
}
