package io.kevy.engine.session;

import io.kevy.engine.Engine;
import io.kevy.engine.KeySignals;
import io.kevy.resp.ReplySink;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The state of one client: identity (CLIENT ID/SETNAME/SETINFO), authentication, the transaction in
 * progress and watched keys, and whether it is blocked. One per connection (or per embedded caller).
 *
 * <p>The command-loop fields are confined to the thread that runs the session's commands; fields other
 * threads read (CLIENT LIST, CLIENT KILL, WATCH invalidation) are volatile.
 */
public final class Session {
    private static final VarHandle LAST_INTERACTION;
    private static final VarHandle LAST_COMMAND;
    private static final VarHandle COMMAND_THREAD;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LAST_INTERACTION = l.findVarHandle(Session.class, "lastInteractionMs", long.class);
            LAST_COMMAND = l.findVarHandle(Session.class, "lastCommand", String.class);
            COMMAND_THREAD = l.findVarHandle(Session.class, "commandThread", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long id;
    private final ClientChannel channel;
    private final long createdAtMs;

    private volatile String name = "";
    private volatile String libName = "";
    private volatile String libVersion = "";
    // Written by the session's own thread for every command, read by CLIENT LIST/INFO from others: release stores
    // and acquire loads (plain moves on x86) instead of volatile ones, each of which was a full fence per command.
    private long lastInteractionMs;
    private String lastCommand = "NULL";
    private volatile boolean authenticated;
    private volatile BlockedClient blockedClient;
    private volatile boolean killed;
    private volatile boolean master;
    private volatile boolean replica;
    private volatile boolean appliesFrames;
    /** A write command ran since the transport last flushed replies (appendfsync always gates those). */
    private boolean wrote;
    /** Per shard, the cursor right after this session's last write there ({@link #recordWrite}); lazily. */
    private long[] writeGens;
    private long[] writeOffsets;
    private long writeSeq;

    /** Commands queued by MULTI, or null outside a transaction. */
    private List<byte[][]> multiQueue;
    private boolean multiError;
    /** Set by any thread that changes a watched key (under that key's shard lock); read by EXEC. */
    private volatile boolean dirtyCas;
    private final List<WatchedKey> watched = new ArrayList<>(0);
    /** Pub/Sub subscriptions, created by the first (P|S)SUBSCRIBE; null before. */
    private volatile SubscriptionState subscriptions;
    /** The RESP version the connection speaks: 2 until HELLO 3, back to 2 on RESET. */
    private volatile int protocol = 2;
    /** CLIENT TRACKING's mode, null while tracking is off. */
    private volatile TrackingState tracking;
    /**
     * The id of the thread running this session's command now ({@link #commandStarted}), 0 between commands.
     * Written by that thread (opaque: a primitive, so no barrier per command) and read by any thread, which can
     * find its own id here only while it runs this session's command: it wrote both that id and the 0 after it.
     */
    private long commandThread;
    /** Pushes the running command caused to this connection, written after its reply; null until the first. */
    private ArrayList<byte[]> pushesAfterReply;
    /** BCAST pushes the running command caused to this connection, sent once its reply is handed over. */
    private ArrayList<byte[]> pushesAfterBatch;

    public Session(long id, ClientChannel channel, long createdAtMs, boolean authenticated) {
        this.id = id;
        this.channel = channel;
        this.createdAtMs = createdAtMs;
        this.lastInteractionMs = createdAtMs;
        this.authenticated = authenticated;
    }

    public long id() {
        return id;
    }

    public ClientChannel channel() {
        return channel;
    }

    public long createdAtMs() {
        return createdAtMs;
    }

    public String name() {
        return name;
    }

    public void name(String name) {
        this.name = name;
    }

    public String libName() {
        return libName;
    }

    public void libName(String libName) {
        this.libName = libName;
    }

    public String libVersion() {
        return libVersion;
    }

    public void libVersion(String libVersion) {
        this.libVersion = libVersion;
    }

    public long lastInteractionMs() {
        return (long) LAST_INTERACTION.getAcquire(this);
    }

    /** Records the start of a command (CLIENT LIST's {@code idle} and {@code cmd}). */
    public void touch(long nowMs, String command) {
        LAST_INTERACTION.setRelease(this, nowMs);
        if (lastCommand != command) { // the same command again: no store, so no GC card mark for an old session
            LAST_COMMAND.setRelease(this, command);
        }
    }

    public String lastCommand() {
        return (String) LAST_COMMAND.getAcquire(this);
    }

    public boolean authenticated() {
        return authenticated;
    }

    public void authenticated(boolean authenticated) {
        this.authenticated = authenticated;
    }

    /** True while the session is parked on a blocking command (CLIENT LIST flag {@code b}, blocked_clients). */
    public boolean blocked() {
        return blockedClient != null;
    }

    /** The blocking command the session is parked on, or null. */
    public BlockedClient blockedClient() {
        return blockedClient;
    }

    /** Records that the session is parked on {@code b} (called by {@link BlockedClient#arm}). */
    void blockedClient(BlockedClient b) {
        this.blockedClient = b;
    }

    /** Clears the parked command if it is still {@code b}. */
    void clearBlockedClient(BlockedClient b) {
        if (blockedClient == b) {
            blockedClient = null;
        }
    }

    /** Cancels the blocking command the session is parked on, if any (disconnect, CLIENT KILL). */
    public void cancelBlocked() {
        BlockedClient b = blockedClient;
        if (b != null) {
            b.cancel();
        }
    }

    /** True once CLIENT KILL (or a disconnect) ended the session. */
    public boolean killed() {
        return killed;
    }

    public void killed(boolean killed) {
        this.killed = killed;
    }

    /**
     * True for the session through which a replica applies its primary's frames (Redis's {@code CLIENT_MASTER}):
     * it is obeyed on a read-only replica, where every other session's writes get {@code -READONLY}.
     */
    public boolean master() {
        return master;
    }

    public void master(boolean master) {
        this.master = master;
    }

    /**
     * True for a session that applies effect frames (feed contract §7) which another writer already applied: a
     * replica's link to its primary ({@link #master()}) and the boot session that loads snapshots and replays the
     * AOF, the two kinds of client Redis's {@code mustObeyClient} names. A frame states an effect, not a request,
     * so such a session stores exactly what it says: a sorted-set score of -0 in a frame keeps its sign, where a
     * client's {@code ZADD} of -0 to a listpack-encoded set stores 0 as in Redis (see
     * {@code ZSetValue#keepNegativeZero}).
     */
    public boolean appliesFrames() {
        return master || appliesFrames;
    }

    /** Marks a session that applies effect frames without being a primary's link: see {@link #appliesFrames()}. */
    public void appliesFrames(boolean appliesFrames) {
        this.appliesFrames = appliesFrames;
    }

    /**
     * True for a replica's link on its primary (Redis's {@code CLIENT_SLAVE}): set once the connection announced
     * itself with {@code REPLCONF LISTENING-PORT}. CLIENT LIST shows it with flag {@code S} and lists it under
     * {@code TYPE replica}, not {@code normal}, so Sentinel's {@code CLIENT KILL TYPE normal} leaves it.
     */
    public boolean replica() {
        return replica;
    }

    public void replica(boolean replica) {
        this.replica = replica;
    }

    /** Records that a write command ran (its reply must wait for the fsync under appendfsync always). */
    public void markWrote() {
        wrote = true;
    }

    /** Returns and clears the flag of {@link #markWrote()}. */
    public boolean takeWrote() {
        boolean w = wrote;
        wrote = false;
        return w;
    }

    /**
     * Records that this session's command wrote to shard {@code shard} (of {@code shardCount}): the shard's cursor
     * right after the write,
     * {@code (generation, next offset)}, is what WAIT waits for (Redis's {@code c->woff}, the replication offset
     * after the client's last propagated write). Callers hold the shard's lock; the session's thread.
     */
    public void recordWrite(int shardCount, int shard, long generation, long nextOffset) {
        if (writeOffsets == null) {
            writeGens = new long[shardCount];
            writeOffsets = new long[shardCount];
        }
        writeGens[shard] = generation;
        writeOffsets[shard] = nextOffset;
        writeSeq++;
    }

    /** Counts {@link #recordWrite} calls: a command that changed it recorded its writes. Session's thread. */
    public long writeSeq() {
        return writeSeq;
    }

    /**
     * The cursors of this session's last writes ({@link #recordWrite}) as {@code {generations, offsets}} per
     * shard, a shard never written at offset 0 (nothing to wait for); null when the session never wrote.
     * Copies. Session's thread.
     */
    public long[][] writeCursors() {
        return writeOffsets == null ? null : new long[][] {writeGens.clone(), writeOffsets.clone()};
    }

    /** True between MULTI and EXEC/DISCARD. */
    public boolean inMulti() {
        return multiQueue != null;
    }

    /** Enters MULTI (the caller checked it is not already in one). */
    public void beginMulti() {
        multiQueue = new ArrayList<>();
        multiError = false;
    }

    /** The queued commands; null outside MULTI. */
    public List<byte[][]> multiQueue() {
        return multiQueue;
    }

    /** Marks the transaction as failed at queue time (EXEC will answer EXECABORT). */
    public void flagMultiError() {
        if (multiQueue != null) {
            multiError = true;
        }
    }

    public boolean multiError() {
        return multiError;
    }

    /** Leaves MULTI, dropping the queue. */
    public void endMulti() {
        multiQueue = null;
        multiError = false;
    }

    /** True when a watched key was modified since WATCH (EXEC will abort). */
    public boolean dirtyCas() {
        return dirtyCas;
    }

    public void dirtyCas(boolean dirty) {
        this.dirtyCas = dirty;
    }

    /**
     * The keys this session watches, each also registered on its shard ({@link KeySignals#watch}); confined to
     * the session's command loop. {@link Engine#unwatchAll} clears it.
     */
    public List<WatchedKey> watched() {
        return watched;
    }

    /** True when this session already watches {@code key}. */
    public boolean watches(byte[] key) {
        for (WatchedKey w : watched) {
            if (Arrays.equals(w.key(), key)) {
                return true;
            }
        }
        return false;
    }

    /** The session's Pub/Sub subscriptions, or null when it never subscribed. */
    public SubscriptionState subscriptions() {
        return subscriptions;
    }

    public void subscriptions(SubscriptionState subscriptions) {
        this.subscriptions = subscriptions;
    }

    /** The RESP version the connection speaks (2 or 3; CLIENT LIST's {@code resp}). */
    public int protocol() {
        return protocol;
    }

    /** Records the RESP version HELLO or RESET chose; the caller switches the connection's reply sink too. */
    public void protocol(int version) {
        this.protocol = version;
    }

    /**
     * True while subscribed on RESP2, where Redis 7.0 allows only the Pub/Sub commands, PING, QUIT and RESET
     * (a RESP3 connection runs any command while subscribed).
     */
    public boolean inSubscribedMode() {
        return protocol == 2 && subscribed();
    }

    /** True while subscribed to a channel, pattern or shard channel. */
    public boolean subscribed() {
        SubscriptionState s = subscriptions;
        return s != null && s.active();
    }

    /** The client's tracking mode ({@code CLIENT TRACKING}), or null while tracking is off. */
    public TrackingState tracking() {
        return tracking;
    }

    /** Sets the tracking mode (null: off); only {@link io.kevy.engine.KeyTracking} implementations call it. */
    public void tracking(TrackingState tracking) {
        this.tracking = tracking;
    }

    /**
     * Marks the start of this session's command on the calling thread (the dispatcher, around a command's
     * execution, also on the script thread): until {@link #commandEnded}, pushes to this connection that the
     * command causes are held ({@link #holdPush}), as Redis 7.0 holds the invalidations of the current client
     * while {@code call()} runs.
     */
    public void commandStarted() {
        COMMAND_THREAD.setOpaque(this, Thread.currentThread().getId());
    }

    /** Ends what {@link #commandStarted} began; on the same thread. */
    public void commandEnded() {
        COMMAND_THREAD.setOpaque(this, 0L);
    }

    /**
     * Holds a push frame ({@code >...}) for this session's own connection when the calling thread runs this
     * session's command (Redis 7.0's {@code server.tracking_pending_keys}, flushed by {@code afterCommand} after
     * the reply), so it follows that command's reply instead of preceding it or trailing the next ones; false
     * otherwise, and the caller sends it through the channel. Any thread.
     *
     * @param afterBatch a BCAST invalidation: Redis sends those at the end of the event-loop cycle
     *                   ({@code beforeSleep}), so it is held until the reply is handed over
     *                   ({@link #sendPushesHeldAfterBatch}), then queued behind the replies of the commands already
     *                   read; otherwise it is written right after the reply ({@link #writePushesHeldAfterReply})
     */
    public boolean holdPush(byte[] frame, boolean afterBatch) {
        if ((long) COMMAND_THREAD.getOpaque(this) != Thread.currentThread().getId()) {
            return false;
        }
        if (afterBatch) {
            if (pushesAfterBatch == null) {
                pushesAfterBatch = new ArrayList<>(2);
            }
            pushesAfterBatch.add(frame);
        } else {
            if (pushesAfterReply == null) {
                pushesAfterReply = new ArrayList<>(2);
            }
            pushesAfterReply.add(frame);
        }
        return true;
    }

    /**
     * Writes the pushes held after the reply ({@link #holdPush}) into {@code out}, after the reply the command
     * wrote there. On the thread that ran the command, after {@link #commandEnded}.
     */
    public void writePushesHeldAfterReply(ReplySink out) {
        ArrayList<byte[]> held = pushesAfterReply;
        if (held == null || held.isEmpty()) {
            return;
        }
        for (byte[] frame : held) {
            out.pushFrame(frame);
        }
        held.clear();
    }

    /**
     * Sends the BCAST pushes held by {@link #holdPush} through the channel, queued behind the command's reply,
     * once that is handed over. On the thread that ran the command.
     */
    public void sendPushesHeldAfterBatch() {
        ArrayList<byte[]> held = pushesAfterBatch;
        if (held == null || held.isEmpty()) {
            return;
        }
        for (byte[] frame : held) {
            channel.sendPush(frame);
        }
        held.clear();
    }

    /** CLIENT LIST's {@code redir}: the redirect client id while tracking (0 for none), -1 while off. */
    public long trackingRedirect() {
        TrackingState t = tracking;
        return t == null ? -1 : t.redirect();
    }

    /**
     * CLIENT LIST's {@code flags} field, in Redis 7.0's order ({@code catClientInfoString}: S M P x b t R B d). A
     * replica's link waiting in {@code FEED.READ ... BLOCK} shows {@code S} alone, as a Redis replica, which is
     * never blocked: the blocking read is how kevy streams to it.
     */
    public String flags() {
        StringBuilder sb = new StringBuilder();
        if (replica) {
            sb.append('S');
        }
        if (master) {
            sb.append('M');
        }
        if (subscribed()) {
            sb.append('P');
        }
        if (multiQueue != null) {
            sb.append('x');
        }
        if (blockedClient != null && !replica) {
            sb.append('b');
        }
        TrackingState t = tracking;
        if (t != null) {
            sb.append('t');
            if (t.brokenRedirect()) {
                sb.append('R');
            }
            if (t.bcast()) {
                sb.append('B');
            }
        }
        if (dirtyCas) {
            sb.append('d');
        }
        return sb.length() == 0 ? "N" : sb.toString();
    }

    /** Number of queued commands, or -1 outside MULTI (CLIENT LIST's {@code multi}). */
    public int multiCount() {
        List<byte[][]> q = multiQueue;
        return q == null ? -1 : q.size();
    }
}
