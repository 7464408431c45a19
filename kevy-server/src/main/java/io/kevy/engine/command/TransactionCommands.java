package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.SKIP_SLOWLOG;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Engine;
import io.kevy.engine.ShardLocks;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.WatchedKey;
import io.kevy.resp.ReplySink;
import java.util.List;

/**
 * Transactions (Redis 7.0 semantics, replies and error texts): MULTI, EXEC, DISCARD, WATCH, UNWATCH.
 *
 * <p><b>Queueing</b> is the {@link Dispatcher}'s: inside MULTI every command but EXEC, DISCARD, MULTI, WATCH,
 * QUIT and RESET answers {@code QUEUED}; a command refused at queue time (unknown, wrong arity, NOAUTH,
 * NO_MULTI) flags the transaction, and EXEC then answers {@code EXECABORT} and runs nothing. Errors a queued
 * command raises when it runs stay in its slot of EXEC's reply.
 *
 * <p><b>Atomicity.</b> EXEC locks, in ascending order, the shards of every queued command's keys and of every
 * watched key, and holds them while it checks the watches, runs the whole queue with one time snapshot, and
 * serves the clients blocked on keys it made ready. No other client can see a shard in between, and the
 * frames of the queued commands are consecutive per shard, in order (feed contract §7). Locking only the
 * union keeps transactions on other shards running; a queued command whose shards cannot be told from its
 * arguments (no key positions, SORT with BY/GET patterns, commands that lock for themselves such as SCAN or
 * INFO) makes EXEC lock every shard instead. Blocking commands inside EXEC answer at once, as on a timeout.
 *
 * <p><b>WATCH</b> registers the keys on their shards ({@link io.kevy.engine.KeySignals}); any frame touching a
 * key marks its watchers dirty (every change emits one, expiry included), FLUSHALL/FLUSHDB mark those of
 * stored keys, and EXEC also fails when a watched key expired since WATCH without being reaped yet. A key
 * already expired when WATCH ran counts as absent from the start. A dirty EXEC answers the null array and
 * emits nothing. EXEC, DISCARD, UNWATCH, RESET and a disconnect forget the watches.
 */
final class TransactionCommands {
    static final String GROUP = "transactions";
    private static final ErrorReply NESTED = ErrorReply.err("MULTI calls can not be nested");
    private static final ErrorReply EXEC_WITHOUT_MULTI = ErrorReply.err("EXEC without MULTI");
    private static final ErrorReply DISCARD_WITHOUT_MULTI = ErrorReply.err("DISCARD without MULTI");
    private static final ErrorReply WATCH_INSIDE_MULTI = ErrorReply.err("WATCH inside MULTI is not allowed");

    private TransactionCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("multi", 1).flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY).group(GROUP).since("1.2.0")
                .summary("Mark the start of a transaction block").complexity("O(1)")
                .handler(TransactionCommands::multi));
        t.add(command("exec", 1).flags(NOSCRIPT, LOADING, STALE, SKIP_SLOWLOG).group(GROUP).since("1.2.0")
                .summary("Execute all commands issued after MULTI").complexity("Depends on commands in the transaction")
                .handler(TransactionCommands::exec));
        t.add(command("discard", 1).flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY).group(GROUP).since("2.0.0")
                .summary("Discard all commands issued after MULTI")
                .complexity("O(N), when N is the number of queued commands").handler(TransactionCommands::discard));
        t.add(command("watch", -2).flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY).keys(1, -1, 1).keyFlags("RO")
                .group(GROUP).since("2.2.0")
                .summary("Watch the given keys to determine execution of the MULTI/EXEC block")
                .complexity("O(1) for every key.").handler(TransactionCommands::watch));
        t.add(command("unwatch", 1).flags(NOSCRIPT, LOADING, STALE, FAST, ALLOW_BUSY).group(GROUP).since("2.2.0")
                .summary("Forget about all watched keys").complexity("O(1)").handler(TransactionCommands::unwatch));
    }

    private static void multi(Call c) {
        if (c.session().inMulti()) {
            throw Call.fail(NESTED);
        }
        c.session().beginMulti();
        c.reply().ok();
    }

    private static void discard(Call c) {
        if (!c.session().inMulti()) {
            throw Call.fail(DISCARD_WITHOUT_MULTI);
        }
        discardTransaction(c.engine(), c.session());
        c.reply().ok();
    }

    /** UNWATCH: forgets the watched keys and the dirty flag. Also queued inside MULTI, like Redis. */
    private static void unwatch(Call c) {
        c.engine().unwatchAll(c.session());
        c.session().dirtyCas(false);
        c.reply().ok();
    }

    /** WATCH key [key ...], with the keys' shards locked by the dispatcher. */
    private static void watch(Call c) {
        Session s = c.session();
        if (s.inMulti()) {
            throw Call.fail(WATCH_INSIDE_MULTI);
        }
        if (!s.dirtyCas()) { // no point in watching more once the transaction is doomed (Redis)
            for (int i = 1; i < c.argc(); i++) {
                byte[] key = c.arg(i);
                if (!s.watches(key)) {
                    s.watched().add(c.shard(key).signals().watch(key, s, c.now()));
                }
            }
        }
        c.reply().ok();
    }

    /**
     * Leaves MULTI (if in it), forgets the watches and the dirty flag: Redis's {@code discardTransaction}, also
     * used by RESET. Call on the session's thread holding no shard lock, or those of every watched key.
     */
    static void discardTransaction(Engine engine, Session session) {
        session.endMulti();
        engine.unwatchAll(session);
        session.dirtyCas(false);
    }

    /**
     * EXEC refused before it ran (Redis's {@code execCommandAbort}): discards the transaction and answers
     * {@code -EXECABORT Transaction discarded because of: <reason>}.
     */
    static void abort(Engine engine, Session session, ReplySink out, String reason) {
        discardTransaction(engine, session);
        ErrorReply e = aborted(reason);
        engine.countError(e);
        out.error(e);
    }

    /** Redis's {@code execCommandAbort} reply: {@code EXECABORT Transaction discarded because of: <reason>}. */
    private static ErrorReply aborted(String reason) {
        return ErrorReply.of("EXECABORT Transaction discarded because of: " + reason);
    }

    private static void exec(Call c) {
        Engine engine = c.engine();
        Session s = c.session();
        if (!s.inMulti()) {
            throw Call.fail(EXEC_WITHOUT_MULTI);
        }
        List<byte[][]> queue = s.multiQueue();
        Dispatcher dispatcher = c.dispatcher();
        CommandSpec[] specs = new CommandSpec[queue.size()];
        boolean writes = false;
        for (int i = 0; i < specs.length; i++) {
            specs[i] = dispatcher.resolve(queue.get(i));
            writes |= specs[i].isWrite();
        }
        String diskError = writes ? engine.durability().writeError() : null;
        if (diskError != null) {
            abort(engine, s, c.reply(), diskError);
            c.markFailed();
            return;
        }
        if (s.multiError()) {
            discardTransaction(engine, s);
            throw Call.fail(Errors.EXECABORT);
        }
        ShardLocks locks = s.master() ? new ShardLocks(engine) : new ShardLocks(engine).forCommand();
        try {
            try {
                lockShards(engine, locks, s, queue, specs);
            } catch (CommandException busy) { // a script past busy-reply-threshold holds a lock (ScriptGate)
                discardTransaction(engine, s); // as Redis rejects an EXEC it reads while busy (rejectCommand)
                throw Call.fail(aborted(busy.reply().message()));
            }
            long now = c.now();
            for (WatchedKey w : s.watched()) {
                if (engine.shard(w.shard()).signals().expiredSinceWatch(w, now)) {
                    s.dirtyCas(true);
                }
            }
            if (s.dirtyCas()) {
                discardTransaction(engine, s);
                c.reply().nullArray();
                return;
            }
            engine.unwatchAll(s); // before running, so the queue's own writes do not count
            runQueue(c, queue, specs); // still in MULTI meanwhile, as Redis (CLIENT LIST shows flag x)
            discardTransaction(engine, s);
            if (writes) {
                s.markWrote(); // the reply waits for the fsync under appendfsync always
                for (int i = 0; i < engine.shardCount(); i++) {
                    if (locks.holds(i)) {
                        Dispatcher.recordWrite(s, engine.shard(i)); // WAIT after EXEC waits for the queue's writes
                    }
                }
            }
            locks.serveReady();
        } finally {
            locks.unlockAll();
        }
    }

    /** Locks, ascending, the shards of the watched keys and of the queued commands' keys (or all; see class doc). */
    private static void lockShards(Engine engine, ShardLocks locks, Session s, List<byte[][]> queue,
                                   CommandSpec[] specs) {
        boolean[] need = new boolean[engine.shardCount()];
        for (WatchedKey w : s.watched()) {
            need[w.shard()] = true;
        }
        for (int i = 0; i < specs.length; i++) {
            CommandSpec spec = specs[i];
            byte[][] argv = queue.get(i);
            int[] pos = spec.lockScope() == CommandSpec.LockScope.KEYS ? spec.keyPositions(argv) : null;
            if (pos == null || (spec.keyFinder() != null && spec.keyFinder().readsUnnamedKeys(argv))) {
                locks.lockAll();
                return;
            }
            for (int p : pos) {
                need[engine.shardIndex(argv[p])] = true;
            }
        }
        for (int i = 0; i < need.length; i++) {
            if (need[i]) {
                locks.lock(i);
            }
        }
    }

    /**
     * Runs the queue under the held locks, each command through {@link Call#reset} (one time snapshot, no
     * blocking), replying the array of their replies; then points the call back at EXEC.
     */
    private static void runQueue(Call c, List<byte[][]> queue, CommandSpec[] specs) {
        byte[][] execArgv = c.argv();
        CommandSpec execSpec = c.spec();
        long now = c.now();
        c.reply().array(queue.size());
        for (int i = 0; i < specs.length; i++) {
            long t0 = System.nanoTime();
            c.reset(queue.get(i), specs[i], now);
            boolean failed = Dispatcher.runHandler(c, specs[i]);
            c.dispatcher().commandStats().called(specs[i], (System.nanoTime() - t0) / 1000, failed || c.failed());
        }
        c.reset(execArgv, execSpec, now);
    }
}
