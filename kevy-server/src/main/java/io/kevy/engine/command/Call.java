package io.kevy.engine.command;

import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.Waiter;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.ReplySink;
import io.kevy.resp.RequestBytes;

/**
 * One command invocation as a handler sees it: the arguments, the reply sink, the session, the engine, the
 * dispatcher that runs it (its command table and statistics), and
 * the time the command started (one snapshot per command, so every TTL check in it agrees).
 *
 * <p>Key access goes through the owning shard, which the dispatcher has locked; {@link #emit} routes an effect
 * frame to the shard of its key (argument 1). Not thread-safe: used by one thread for one command.
 */
public final class Call {
    private final Dispatcher dispatcher;
    private final Engine engine;
    private final Session session;
    private ReplySink reply;
    private byte[][] argv;
    private CommandSpec spec;
    private long now;
    private boolean failed;
    private boolean emitted;
    private boolean closeRequested;
    private boolean mayBlock;
    private BlockedClient blocked;
    /** The key whose shard the dispatcher already resolved (compared by identity), and that shard. */
    private byte[] pinnedKey;
    private Shard pinnedShard;
    /** The bytes the client sent for this command, or null ({@link #request}). */
    private RequestBytes request;
    /** {@link #replyOverLimit}'s room, read at its first call for the command; {@link #ROOM_UNREAD} before. */
    private long replyRoom = ROOM_UNREAD;
    private static final long ROOM_UNREAD = Long.MIN_VALUE;

    Call(Dispatcher dispatcher, Session session, ReplySink reply, byte[][] argv, CommandSpec spec, long now) {
        this.dispatcher = dispatcher;
        this.engine = dispatcher.engine();
        this.session = session;
        this.reply = reply;
        this.argv = argv;
        this.spec = spec;
        this.now = now;
    }

    /** Re-targets this call at another command of the same session (EXEC runs its queue this way). */
    void reset(byte[][] argv, CommandSpec spec, long now) {
        this.argv = argv;
        this.spec = spec;
        this.now = now;
        this.failed = false;
        this.mayBlock = false;
        this.pinnedKey = null;
        this.pinnedShard = null;
        this.request = null;
        this.replyRoom = ROOM_UNREAD;
    }

    /**
     * The RESP bytes the client sent for this command (null: none, as for an embedded caller or a queued
     * command): {@link #emit} passes them to the shard when the frame is the command itself. The dispatcher sets
     * them before the handler runs and clears them when it returns, under the command's locks.
     */
    void request(RequestBytes request) {
        this.request = request;
    }

    /**
     * Records that {@code key} (an argv element, compared by identity) lives on {@code shard}, so the key
     * accessors and {@link #emit} skip re-hashing it: the dispatcher resolves a single-key command's shard once.
     */
    void pin(byte[] key, Shard shard) {
        this.pinnedKey = key;
        this.pinnedShard = shard;
    }

    private Shard shardOf(byte[] key) {
        return key == pinnedKey ? pinnedShard : engine.shardFor(key);
    }

    /** Allows {@link #block} (set by the dispatcher for a top-level command, never inside EXEC). */
    void mayBlock(boolean allowed) {
        this.mayBlock = allowed;
    }

    /**
     * True when this command may park ({@link #block}); false inside MULTI/EXEC, where blocking commands
     * answer at once as if they had timed out (as in Redis).
     */
    public boolean mayBlock() {
        return mayBlock;
    }

    /**
     * Parks this command: the handler writes no reply, registers {@link BlockedClient#wake()} where the
     * awaited event is signalled (under the lock that guards it), and returns; the dispatcher starts the
     * timeout and answers {@code Outcome.BLOCKED}. The reply comes later from {@code waiter} on the session's
     * own thread. Only once per command, and only when {@link #mayBlock()}.
     *
     * @param timeoutMs the timeout in ms, 0 for none
     * @return the blocked client, whose {@code wake} the handler registers
     * @throws IllegalStateException when blocking is not allowed here or was already requested
     */
    public BlockedClient block(Waiter waiter, long timeoutMs) {
        if (!mayBlock || blocked != null) {
            throw new IllegalStateException("command " + spec.name() + " cannot block here");
        }
        blocked = new BlockedClient(session, waiter, timeoutMs);
        return blocked;
    }

    /** The blocked client requested by the handler, or null. */
    BlockedClient blocked() {
        return blocked;
    }

    public Engine engine() {
        return engine;
    }

    /** The dispatcher running this command: its command table (COMMAND) and statistics (INFO commandstats). */
    public Dispatcher dispatcher() {
        return dispatcher;
    }

    public Session session() {
        return session;
    }

    public ReplySink reply() {
        return reply;
    }

    /** Replaces the reply sink (used by commands that buffer a nested reply). */
    void reply(ReplySink sink) {
        this.reply = sink;
    }

    public CommandSpec spec() {
        return spec;
    }

    /** The command's start time, ms since the epoch. */
    public long now() {
        return now;
    }

    public byte[][] argv() {
        return argv;
    }

    public int argc() {
        return argv.length;
    }

    public byte[] arg(int i) {
        return argv[i];
    }

    /** True when argument {@code i} equals {@code lower} ignoring ASCII case. */
    public boolean argIs(int i, String lower) {
        return Bytes.equalsIgnoreCase(argv[i], lower);
    }

    /** Argument {@code i} as a Redis integer, else {@link Errors#NOT_INTEGER}. */
    public long longArg(int i) {
        return RedisNumbers.parseLong(argv[i], Errors.NOT_INTEGER);
    }

    /** Argument {@code i} as a Redis integer, else {@code error}. */
    public long longArg(int i, ErrorReply error) {
        return RedisNumbers.parseLong(argv[i], error);
    }

    /** Argument {@code i} as a Redis float, else {@link Errors#NOT_FLOAT}. */
    public double doubleArg(int i) {
        return RedisNumbers.parseDouble(argv[i], Errors.NOT_FLOAT);
    }

    /** Shorthand for throwing {@code error} (the command fails before changing anything). */
    public static CommandException fail(ErrorReply error) {
        return new CommandException(error);
    }

    /** The shard of {@code key}; locked by the dispatcher for this command. */
    public Shard shard(byte[] key) {
        return shardOf(key);
    }

    /** The keyspace of {@code key}'s shard. */
    public Keyspace db(byte[] key) {
        return shardOf(key).keyspace();
    }

    /** The live node of {@code key} (lazy expiry), or null. */
    public Dict.Node<Object> node(byte[] key) {
        return db(key).node(key, now);
    }

    /**
     * The live node of {@code key} (lazy expiry) without updating its access time, or null: Redis's
     * {@code LOOKUP_NOTOUCH} lookups (TYPE, EXISTS, TTL, OBJECT).
     */
    public Dict.Node<Object> peek(byte[] key) {
        return db(key).peek(key, now);
    }

    /** As {@link #peek}, counting a keyspace hit or miss (read commands: EXISTS, TYPE, TTL, OBJECT). */
    public Dict.Node<Object> peekRead(byte[] key) {
        Shard shard = shardOf(key);
        Dict.Node<Object> n = shard.keyspace().peek(key, now);
        shard.countLookup(n != null);
        return n;
    }

    /** The live value of {@code key} or null, for a write (no hit/miss accounting). */
    public Object value(byte[] key) {
        return db(key).get(key, now);
    }

    /**
     * The live value of {@code key} if it is a {@code type}, null when absent; WRONGTYPE otherwise. In a write
     * command the value may be changed in place (a snapshot's captured value is copied first, see
     * {@link Keyspace#valueForWrite}); read commands use {@link #read}.
     */
    public <T> T value(byte[] key, Class<T> type) {
        return spec.isWrite() ? db(key).valueForWrite(key, now, type) : db(key).get(key, now, type);
    }

    /** As {@link #value(byte[], Class)}, counting a keyspace hit or miss (read commands). */
    public <T> T read(byte[] key, Class<T> type) {
        Shard shard = shardOf(key);
        T v = shard.keyspace().get(key, now, type);
        shard.countLookup(v != null);
        return v;
    }

    /**
     * Emits an effect frame (feed contract §7) on the shard of its key, {@code frame[1]} (XGROUP's: {@code frame[2]},
     * {@link io.kevy.resp.FrameKeys#key}). Every key of the
     * frame must live on that shard. The arrays must not be mutated afterwards.
     */
    public void emit(byte[]... frame) {
        RequestBytes r = request;
        Shard shard = shardOf(io.kevy.resp.FrameKeys.key(frame));
        if (shard.tracksOrigin()) {
            shard.origin(spec.name(), argv); // the event name keyspace notifications give this frame
        }
        shard.writer(session); // NOLOOP tracking: who wrote it
        shard.emit(r != null && RequestBytes.isFrame(argv, frame) ? r : null, frame);
        emitted = true;
    }

    /**
     * Emits a frame of server-wide state that belongs to no key ({@code FUNCTION ...}, {@link
     * io.kevy.engine.ServerState}) on shard 0, whose lock the caller holds (an all-shards command). The arrays
     * must not be mutated afterwards.
     */
    public void emitServer(byte[]... frame) {
        engine().shard(0).emit(null, frame);
        emitted = true;
    }

    /**
     * Runs {@code argv} (resolved to {@code spec} and validated by the caller: arity, flags) as a command nested
     * in this one, with this call's locks, session and time snapshot, writing its one reply to {@code into}:
     * a script's {@code redis.call}. Its frames are emitted as the nested command's own, in order, inside this
     * command's critical section; it never blocks (as inside EXEC). The caller must hold the locks of every
     * shard the nested command may touch (a script holds all of them). Counted in INFO commandstats as Redis
     * counts a script's calls.
     *
     * @return true when the nested command failed (it replied an error to {@code into})
     */
    public boolean runNested(byte[][] argv, CommandSpec spec, ReplySink into) {
        byte[][] outerArgv = this.argv;
        CommandSpec outerSpec = this.spec;
        ReplySink outerReply = this.reply;
        boolean outerFailed = this.failed;
        boolean outerMayBlock = this.mayBlock;
        long t0 = System.nanoTime();
        reset(argv, spec, now);
        this.reply = into;
        try {
            boolean failed = Dispatcher.runHandler(this, spec) || this.failed;
            dispatcher.commandStats().called(spec, (System.nanoTime() - t0) / 1000, failed);
            return failed;
        } finally {
            reset(outerArgv, outerSpec, now);
            this.reply = outerReply;
            this.failed = outerFailed;
            this.mayBlock = outerMayBlock;
        }
    }

    /** True when this call emitted a frame: its reply then follows a change (appendfsync always holds it). */
    boolean emitted() {
        return emitted;
    }

    /** Marks this call as failed for INFO commandstats when a handler replies an error without throwing. */
    public void markFailed() {
        failed = true;
    }

    boolean failed() {
        return failed;
    }

    /**
     * For a reply whose length the client chooses (ZRANDMEMBER, HRANDFIELD and SRANDMEMBER with a negative count),
     * checked after each element as Redis checks {@code CLIENT_CLOSE_ASAP}: true when what the reply sink holds
     * takes the connection over its output limits ({@link ClientChannel#outputRoom}, read at the first call of
     * the command). The caller then stops writing and calls {@link #closeAsap}. Always false for a sink that
     * builds a tree ({@link ReplySink#bufferedBytes} -1: a script's {@code redis.call}, the embedded store).
     */
    public boolean replyOverLimit() {
        long held = reply.bufferedBytes();
        if (held < 0) {
            return false;
        }
        if (replyRoom == ROOM_UNREAD) {
            ClientChannel ch = session.channel();
            replyRoom = ch == null ? Long.MAX_VALUE : ch.outputRoom();
        }
        return held > replyRoom;
    }

    /**
     * Closes the connection at once, dropping the replies it has not been sent (this one included) and the
     * commands pipelined behind: Redis's {@code CLIENT_CLOSE_ASAP} for a client over its output limit
     * ({@link #replyOverLimit}).
     *
     * @return false when the session has no connection to close (nothing was done)
     */
    public boolean closeAsap() {
        ClientChannel ch = session.channel();
        if (ch == null) {
            return false;
        }
        ch.closeAsap();
        return true;
    }

    /** Asks the transport to close the connection after this command's reply (QUIT). */
    public void closeAfterReply() {
        closeRequested = true;
    }

    boolean closeRequested() {
        return closeRequested;
    }
}
