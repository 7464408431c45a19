package io.kevy.engine.command;

import io.kevy.engine.Engine;
import io.kevy.engine.ScriptGate;
import io.kevy.engine.Shard;
import io.kevy.engine.ShardLocks;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.session.Session;
import io.kevy.engine.session.TrackingState;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.ReplySink;
import io.kevy.resp.RequestBytes;
import java.util.Arrays;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands: looks the verb up in the {@link CommandTable}, checks existence, arity and authentication in
 * Redis's order, queues inside MULTI, locks the shards of the command's keys in ascending order, runs the
 * handler, serves the blocked clients whose keys the command made ready ({@link ShardLocks#serveReady}) and
 * records statistics. EXEC ({@link TransactionCommands}) locks, runs and serves its queue itself.
 *
 * <p>Thread-safe; called concurrently from every event loop (and embedded callers). A session's commands must
 * be dispatched one at a time, in order.
 */
public final class Dispatcher {
    private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

    /** Commands that act on the transaction itself and are never queued by MULTI (as in Redis 7.0). */
    private static final Set<String> NOT_QUEUED = Set.of("exec", "discard", "multi", "watch", "quit", "reset");

    /** What the transport does after a dispatch. */
    public enum Outcome {
        /** The reply is written; go on with the next command. */
        DONE,
        /** The command parked a waiter; the reply comes later through the session's channel. */
        BLOCKED,
        /** Write the reply, then close the connection (QUIT). */
        CLOSE
    }

    private static final ErrorReply NOT_IN_MULTI = ErrorReply.err("Command not allowed inside a transaction");

    private final Engine engine;
    private final CommandTable commands;
    private final CommandStats commandStats;

    /** A dispatcher running {@code commands} on {@code engine}, with statistics of its own (INFO commandstats). */
    public Dispatcher(Engine engine, CommandTable commands) {
        this.engine = engine;
        this.commands = commands;
        this.commandStats = new CommandStats(commands);
    }

    public Engine engine() {
        return engine;
    }

    /** The command table this dispatcher looks verbs up in. */
    public CommandTable commands() {
        return commands;
    }

    /** This dispatcher's command statistics (INFO commandstats), cleared by CONFIG RESETSTAT. */
    public CommandStats commandStats() {
        return commandStats;
    }

    /**
     * Runs {@code argv} (verb first) for {@code session}, writing exactly one reply to {@code out} unless the
     * outcome is {@link Outcome#BLOCKED}.
     */
    public Outcome dispatch(Session session, byte[][] argv, ReplySink out) {
        return dispatch(session, argv, null, out);
    }

    /**
     * As {@link #dispatch(Session, byte[][], ReplySink)}, with the bytes the client sent for {@code argv}
     * ({@link RequestBytes}, null when there are none): a command whose effect frame is {@code argv} itself
     * has them copied to the feed and the AOF instead of encoded. They need to stay valid until this returns.
     */
    public Outcome dispatch(Session session, byte[][] argv, RequestBytes request, ReplySink out) {
        if (argv.length == 0) {
            return Outcome.DONE;
        }
        CommandSpec spec = commands.lookup(argv[0]);
        if (spec == null) {
            reject(session, out, Errors.unknownCommand(argv));
            return Outcome.DONE;
        }
        if (spec.isContainer() && argv.length >= 2) {
            CommandSpec sub = spec.subcommands().get(Bytes.lowerAscii(argv[1]));
            if (sub == null) {
                reject(session, out, Errors.unknownSubcommand(argv[1], spec.name()));
                return Outcome.DONE;
            }
            spec = sub;
        }
        if (!spec.arityOk(argv.length) || (spec.isContainer() && spec.handler() == null)) {
            commandStats.rejected(spec);
            if (session.inMulti() && spec.name().equals("exec")) {
                // Redis's rejectCommand on EXEC: the transaction is discarded, the reason quoted
                TransactionCommands.abort(engine, session, out,
                        "wrong number of arguments for '" + spec.name() + "' command");
                return Outcome.DONE;
            }
            reject(session, out, Errors.wrongArity(spec.name()));
            return Outcome.DONE;
        }
        if (!session.authenticated() && engine.requirePass() != null && !spec.has(CommandFlag.NO_AUTH)) {
            commandStats.rejected(spec);
            reject(session, out, Errors.NOAUTH);
            return Outcome.DONE;
        }
        if (!spec.has(CommandFlag.ALLOW_BUSY) && engine.scriptBusy() && !session.master()) {
            commandStats.rejected(spec); // before queueing, as Redis's processCommand
            if (session.inMulti() && spec.name().equals("exec")) {
                // Redis's rejectCommand on EXEC: the transaction is discarded, the reason quoted
                TransactionCommands.abort(engine, session, out, engine.scriptBusyReply().message());
                return Outcome.DONE;
            }
            reject(session, out, engine.scriptBusyReply());
            return Outcome.DONE;
        }
        if (spec.isWrite()) { // also at queue time inside MULTI, as Redis: the refusal flags the transaction
            String diskError = engine.durability().writeError();
            if (diskError != null) {
                commandStats.rejected(spec);
                reject(session, out, ErrorReply.of(diskError));
                return Outcome.DONE;
            }
            ErrorReply readOnly = engine.writeRefusal();
            if (readOnly != null && !session.master()) {
                commandStats.rejected(spec);
                reject(session, out, readOnly);
                return Outcome.DONE;
            }
        }
        if (session.inSubscribedMode() && !SubscribedMode.allowed(spec)) {
            commandStats.rejected(spec); // RESP2 subscribed mode (Redis 7.0's processCommand)
            reject(session, out, SubscribedMode.notAllowed(spec));
            return Outcome.DONE;
        }
        if (session.inMulti() && !NOT_QUEUED.contains(spec.name())) {
            if (spec.has(CommandFlag.NO_MULTI)) {
                commandStats.rejected(spec);
                reject(session, out, NOT_IN_MULTI);
                return Outcome.DONE;
            }
            if (!session.multiError() && !session.dirtyCas()) {
                session.multiQueue().add(argv); // as Redis, a doomed transaction stops growing
            }
            out.simple("QUEUED");
            return Outcome.DONE;
        }
        if (runsScript(session, spec)) {
            return executeOnScriptThread(session, spec, argv);
        }
        Outcome outcome = execute(session, spec, argv, request, out);
        session.writePushesHeldAfterReply(out);
        session.sendPushesHeldAfterBatch();
        clearCaching(session, spec);
        return outcome;
    }

    /**
     * CLIENT CACHING applies to the next command only, or to the next transaction (Redis's {@code resetClient}:
     * the flag is cleared after any command but CLIENT's, outside MULTI).
     */
    private static void clearCaching(Session session, CommandSpec spec) {
        TrackingState t = session.tracking();
        if (t != null && t.caching() && !session.inMulti() && !"client".equals(spec.container())) {
            t.caching(false);
        }
    }

    /**
     * True when {@code spec} runs a script (EVAL, EVALSHA, or an EXEC that queued one) for a session whose
     * thread serves other sessions too: it must then run on the script thread ({@link ScriptGate}).
     */
    private boolean runsScript(Session session, CommandSpec spec) {
        if (session.channel() == null || !session.channel().runsScriptsElsewhere()
                || engine.scriptGate().onScriptThread()) {
            return false;
        }
        if (spec.has(CommandFlag.RUNS_SCRIPT)) {
            return true;
        }
        if (session.inMulti() && spec.name().equals("exec")) {
            for (byte[][] queued : session.multiQueue()) {
                CommandSpec q = resolve(queued);
                if (q != null && q.has(CommandFlag.RUNS_SCRIPT)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Hands a script command to the script thread and parks the session as a blocked command does: the reply
     * comes back through the session's channel, in order, held for the fsync under appendfsync always when the
     * script wrote. The request bytes are not passed on (they are valid during this dispatch only).
     */
    private Outcome executeOnScriptThread(Session session, CommandSpec spec, byte[][] argv) {
        var channel = session.channel();
        try {
            engine.scriptGate().execute(() -> {
                ReplySink reply = channel.newAsyncReply();
                try {
                    execute(session, spec, argv, null, reply);
                } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) { // the client waits for a reply
                    log.error("script command {} failed", spec.name(), e);
                    reply.error(ErrorReply.err("internal error in '" + spec.name() + "': " + e));
                }
                // the invalidations of the script's own writes follow its reply, in the same delivery
                session.writePushesHeldAfterReply(reply);
                try {
                    channel.sendAsync(reply, session.takeWrote());
                } catch (java.util.concurrent.RejectedExecutionException closed) {
                    reply.discard(); // the connection's event loop is gone (server shutdown): nobody waits for it
                }
                session.sendPushesHeldAfterBatch(); // behind the reply and the commands it resumes
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return Outcome.CLOSE; // the engine is closing
        }
        return Outcome.BLOCKED;
    }

    /** Records {@code shard}'s cursor as {@code session}'s last write there (WAIT; the caller holds its lock). */
    static void recordWrite(Session session, Shard shard) {
        session.recordWrite(shard.engine().shardCount(), shard.index(), shard.generation(), shard.nextOffset());
    }

    private void reject(Session session, ReplySink out, ErrorReply error) {
        session.flagMultiError();
        engine.countError(error);
        out.error(error);
    }

    /**
     * Resolves the spec of an already validated command (a queued one: EXEC runs it later): the command, or its
     * subcommand for a container.
     */
    CommandSpec resolve(byte[][] argv) {
        CommandSpec spec = commands.lookup(argv[0]);
        if (spec != null && spec.isContainer() && argv.length >= 2) {
            spec = spec.subcommands().get(Bytes.lowerAscii(argv[1]));
        }
        return spec;
    }

    /**
     * Runs a validated command: locks its shards, runs the handler, serves the blocked clients its changes made
     * ready (before another command can take the data, as Redis), unlocks.
     */
    private Outcome execute(Session session, CommandSpec spec, byte[][] argv, RequestBytes request, ReplySink out) {
        long now = engine.clock().millis();
        session.touch(now, spec.name());
        Call call = new Call(this, session, out, argv, spec, now);
        call.request(request);
        call.mayBlock(true);
        long seq = session.writeSeq();
        long t0 = System.nanoTime();
        boolean failed;
        session.commandStarted(); // pushes to this connection that the command causes wait for its reply
        try {
            failed = runLocked(call, spec, argv);
        } catch (CommandException busy) { // a lock wait met a busy script (ScriptGate): nothing ran
            call.request(null);
            if (session.inMulti() && spec.name().equals("exec")) { // as the BUSY check in dispatch
                TransactionCommands.abort(engine, session, out, busy.reply().message());
            } else {
                engine.countError(busy.reply());
                out.error(busy.reply());
            }
            failed = true;
        } finally {
            session.commandEnded();
        }
        commandStats.called(spec, (System.nanoTime() - t0) / 1000, failed || call.failed());
        return finish(session, spec, call, failed, seq);
    }

    /** Runs the handler under the locks of its scope; throws {@code -BUSY} from a lock wait ({@link ScriptGate}). */
    private boolean runLocked(Call call, CommandSpec spec, byte[][] argv) {
        boolean failed;
        switch (spec.lockScope()) {
            case NONE -> {
                if (!spec.has(CommandFlag.ALLOW_BUSY) && !call.session().master()) {
                    engine.scriptGate().await(); // it locks shards itself: not behind a running script
                }
                failed = runHandler(call, spec);
            }
            case ALL -> failed = runAllLocked(call, spec);
            default -> {
                int key = spec.singleKey();
                if (key > 0 && key < argv.length) { // the common shape (GET, SET, INCR...): no key array
                    failed = runOneShard(call, spec, engine.shardIndex(argv[key]), argv[key]);
                    break;
                }
                int[] pos = spec.keyPositions(argv);
                if (pos == null || (spec.keyFinder() != null && spec.keyFinder().readsUnnamedKeys(argv))) {
                    failed = runAllLocked(call, spec);
                } else if (pos.length == 1) {
                    failed = runOneShard(call, spec, engine.shardIndex(argv[pos[0]]), argv[pos[0]]);
                } else if (engine.shardCount() == 1) {
                    failed = runOneShard(call, spec, 0, null);
                } else {
                    failed = runMultiLocked(call, spec, shardsOf(argv, pos));
                }
            }
        }
        return failed;
    }

    /** After the handler; {@code seq}: the session's write sequence before it ran (WAIT's own-write record). */
    private Outcome finish(Session session, CommandSpec spec, Call call, boolean failed, long seq) {
        BlockedClient parked = call.blocked();
        if (spec.lockScope() == CommandSpec.LockScope.NONE && (spec.isWrite() || call.emitted())
                && session.writeSeq() == seq) {
            recordWriteEverywhere(session); // a command that locks by itself and recorded nothing (FLUSHALL)
        }
        if ((spec.isWrite() || call.emitted()) && parked == null) {
            // a parked command changed nothing yet; its reply says when it did. call.emitted(): a command not
            // flagged write that still changed data (DEBUG POPULATE) is acknowledged after its frames too.
            session.markWrote();
        }
        if (parked != null) {
            if (failed) {
                parked.cancel(); // the handler failed after parking: its error reply stands
            } else {
                // the handler parked a waiter; its locks are released, so the timeout can start
                parked.arm(engine.timer());
                return Outcome.BLOCKED;
            }
        }
        if (call.closeRequested()) {
            return Outcome.CLOSE;
        }
        return Outcome.DONE;
    }

    /** Records {@code session}'s write on every shard, each under its lock (WAIT's target). */
    private void recordWriteEverywhere(Session session) {
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                recordWrite(session, s);
            } finally {
                s.lock().unlock();
            }
        }
    }

    /** Runs the command under the lock of shard {@code index}, the shard of {@code key} when not null. */
    private boolean runOneShard(Call call, CommandSpec spec, int index, byte[] key) {
        Shard shard = engine.shard(index);
        if (key != null) {
            call.pin(key, shard);
        }
        lock(call, shard.lock());
        try {
            long before = shard.nextOffset();
            boolean failed = runHandler(call, spec);
            if (shard.nextOffset() != before) {
                recordWrite(call.session(), shard); // before serving blocked clients: their writes are theirs
            }
            ShardLocks.serveHeld(engine, index);
            return failed;
        } finally {
            shard.lock().unlock();
        }
    }

    private boolean runAllLocked(Call call, CommandSpec spec) {
        int locked = 0;
        try {
            for (; locked < engine.shardCount(); locked++) {
                lock(call, engine.shard(locked).lock());
            }
            long seq = call.session().writeSeq();
            boolean failed = runHandler(call, spec);
            if ((spec.isWrite() || call.emitted()) && call.session().writeSeq() == seq) {
                for (int i = 0; i < engine.shardCount(); i++) {
                    recordWrite(call.session(), engine.shard(i)); // every held shard: WAIT then covers them all
                }
            }
            ShardLocks.serveAllHeld(engine);
            return failed;
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                engine.shard(i).lock().unlock();
            }
        }
    }

    private boolean runMultiLocked(Call call, CommandSpec spec, int[] shards) {
        int locked = 0;
        try {
            for (int s : shards) {
                lock(call, engine.shard(s).lock());
                locked++;
            }
            boolean failed = runHandler(call, spec);
            if (spec.isWrite() || call.emitted()) {
                for (int sh : shards) {
                    recordWrite(call.session(), engine.shard(sh));
                }
            }
            ShardLocks.serveHeld(engine, shards);
            return failed;
        } finally {
            for (int i = locked - 1; i >= 0; i--) {
                engine.shard(shards[i]).lock().unlock();
            }
        }
    }

    /**
     * Takes a shard lock for {@code call}: through {@link ScriptGate#lock} (BUSY past a script's threshold), but
     * waiting for good for the primary's link, whose writes a replica must apply, never refuse (Redis defers the
     * master's input while busy instead of answering BUSY).
     */
    private void lock(Call call, java.util.concurrent.locks.ReentrantLock lock) {
        if (call.session().master()) {
            lock.lock();
        } else {
            engine.scriptGate().lock(lock);
        }
    }

    /** Distinct shard indexes of the keys at {@code pos}, ascending. */
    private int[] shardsOf(byte[][] argv, int[] pos) {
        int[] idx = new int[pos.length];
        for (int i = 0; i < pos.length; i++) {
            idx[i] = engine.shardIndex(argv[pos[i]]);
        }
        Arrays.sort(idx);
        int n = 0;
        for (int i = 0; i < idx.length; i++) {
            if (i == 0 || idx[i] != idx[i - 1]) {
                idx[n++] = idx[i];
            }
        }
        return n == idx.length ? idx : Arrays.copyOf(idx, n);
    }

    /**
     * Client tracking (Redis 7.0's {@code call}): after a read-only command of a tracking session, the keys it
     * named are remembered, under the locks the command still holds, so no write can slip between the read and
     * the remembering. Pub/Sub commands (shard channels are keys) and EVAL_RO/EVALSHA_RO (their keys are the
     * script's declarations, remembered through the reads the script makes) are not.
     */
    private static void rememberTrackedKeys(Call call, CommandSpec spec) {
        TrackingState t = call.session().tracking();
        if (t == null || !spec.has(CommandFlag.READONLY) || spec.has(CommandFlag.PUBSUB) || !t.remembersReads()
                || spec.name().equals("eval_ro") || spec.name().equals("evalsha_ro")) {
            return;
        }
        byte[][] argv = call.argv();
        int[] pos = spec.keyPositions(argv);
        if (pos == null) {
            return;
        }
        Engine engine = call.engine();
        for (int p : pos) {
            engine.tracking().remember(call.session(), engine.shardFor(argv[p]), argv[p]);
        }
    }

    /**
     * Runs the handler with the locks already held. Returns true when the command failed. Command errors are
     * replies; anything else is a bug, logged and answered with an error so the connection stays usable.
     */
    static boolean runHandler(Call call, CommandSpec spec) {
        try {
            spec.handler().execute(call);
            rememberTrackedKeys(call, spec);
            return false;
        } catch (CommandException e) {
            call.engine().countError(e.reply());
            call.reply().error(e.reply());
            rememberTrackedKeys(call, spec); // Redis remembers the keys of a read that failed too (call())
            return true;
        } catch (RuntimeException | StackOverflowError e) {
            log.error("command {} failed", spec.name(), e);
            ErrorReply error = ErrorReply.err("internal error in '" + spec.name() + "': " + e);
            call.engine().countError(error);
            call.reply().error(error);
            return true;
        } finally {
            call.request(null); // valid during the dispatch only: nothing that outlives the handler may copy them
        }
    }
}
