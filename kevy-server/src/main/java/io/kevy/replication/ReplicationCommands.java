package io.kevy.replication;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.command.Call;
import io.kevy.engine.command.CommandSpec;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.session.BlockedClient;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.feed.FeedCursor;
import io.kevy.persist.Snapshots;
import io.kevy.resp.ReplySink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The replication commands: REPLICAOF / SLAVEOF, ROLE, WAIT (Redis 7.0's replies and error texts), REPLCONF
 * (Redis's options answered OK; ours: {@code FEED-ACK shard gen offset}, a replica's acknowledgement,
 * {@code KEVY-RUN-ID id}, which refuses a replica of itself or of a server downstream of it (a loop),
 * {@code KEVY-CHAIN}, which answers this server's run id then those of the servers it replicates from, nearest
 * first, and {@code KEVY-REPLID}, which answers INFO's {@code master_replid}, the id a replica reports as its own;
 * a connection that sent {@code LISTENING-PORT} is a replica's link from then on, CLIENT LIST's {@code flags=S}),
 * REPL.SNAPSHOT and REPL.CHUNK (ours, a replica's full sync: {@code REPL.SNAPSHOT shard} parks while a
 * background thread writes the shard's snapshot, with its cursor header, to a temporary file, and answers
 * {@code *4 [:generation, :next_offset, :size, $id]}; {@code REPL.CHUNK id offset} then answers up to 4 MiB of it
 * from {@code offset} as a bulk string, the last chunk ending the transfer; see {@link SnapshotTransfers}).
 *
 * <p>kevy differences: REPLICAOF to this server's own port on a local address is refused at once
 * ({@code -ERR REPLICAOF would make this server a replica of itself}; Redis answers OK and fails to sync);
 * a full sync pauses the shard's writers only for the snapshot's capture, as a background SAVE does.
 */
public final class ReplicationCommands {
    static final ErrorReply INVALID_PORT = ErrorReply.err("Invalid master port");
    static final ErrorReply WAIT_ON_REPLICA = ErrorReply.err("WAIT cannot be used with replica instances. Please "
            + "also note that since Redis 4.0 if a replica is configured to be writable (which is not the default) "
            + "writes to replicas are just local and are not propagated.");
    static final ErrorReply SELF = ErrorReply.err("REPLICAOF would make this server a replica of itself");
    static final ErrorReply NOT_A_REPLICA = ErrorReply.err("REPLCONF FEED-ACK from a connection that sent no "
            + "REPLCONF LISTENING-PORT");

    private ReplicationCommands() {
    }

    /** Adds the replication commands of {@code r} to {@code t}. */
    public static void register(CommandTable t, Replication r) {
        t.add(replicaof("replicaof", r, "Make the server a replica of another instance, or promote it as master."));
        t.add(replicaof("slaveof", r, "Make the server a replica of another instance, or promote it as master. "
                + "Deprecated starting with Redis 5. Use REPLICAOF instead."));
        t.add(command("role", 1).flags(NOSCRIPT, LOADING, STALE, FAST).group("server").since("2.8.12")
                .summary("Return the role of the instance in the context of replication").complexity("O(1)")
                .handler(c -> role(c, r)));
        t.add(command("wait", 3).flags(NOSCRIPT).group("generic").since("3.0.0")
                .summary("Wait for the synchronous replication of all the write commands sent in the context of the "
                        + "current connection")
                .complexity("O(1)").tips("request_policy:all_shards", "response_policy:agg_min")
                .handler(c -> waitFor(c, r)));
        t.add(command("replconf", -1).flags(ADMIN, NOSCRIPT, LOADING, STALE).group("server").since("3.0.0")
                .summary("An internal command for configuring the replication stream (kevy: FEED-ACK)")
                .complexity("O(1)").handler(c -> replconf(c, r)));
        t.add(command("repl.snapshot", 2).flags(ADMIN, NOSCRIPT, NO_LOCK).group("server").since("1.0.0")
                .summary("Writes a shard's snapshot for a replica's full sync in the background and returns "
                        + "[generation, next_offset, size, id] (ours; read it with REPL.CHUNK)")
                .complexity("O(N) where N is the number of keys in the shard")
                .handler(c -> snapshot(c, r)));
        t.add(command("repl.chunk", 3).flags(ADMIN, NOSCRIPT, NO_LOCK).group("server").since("1.0.0")
                .summary("Returns up to 4 MiB of a full-sync snapshot from a byte offset (ours)")
                .complexity("O(1)").handler(c -> chunk(c, r)));
    }

    private static CommandSpec.Builder replicaof(String name, Replication r, String summary) {
        return command(name, 3).flags(ADMIN, NOSCRIPT, STALE).group("server").since(name.equals("slaveof")
                ? "1.0.0" : "5.0.0").summary(summary).complexity("O(1)").handler(c -> replicaOf(c, r));
    }

    private static void replicaOf(Call c, Replication r) {
        if (c.argIs(1, "no") && c.argIs(2, "one")) {
            r.promote();
            c.reply().ok();
            return;
        }
        long port = RedisNumbers.parseLong(c.arg(2), INVALID_PORT);
        if (port < 0 || port > 65535) {
            throw Call.fail(INVALID_PORT);
        }
        String host = new String(c.arg(1), StandardCharsets.UTF_8);
        if (port == r.listeningPortNow() && isLocal(host)) {
            throw Call.fail(SELF);
        }
        if (!r.replicaOf(host, (int) port)) {
            c.reply().simple("OK Already connected to specified master");
            return;
        }
        c.reply().ok();
    }

    /** True when {@code host} names an address of this machine (loopback, any local interface). */
    static boolean isLocal(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
            return false;
        } catch (UnknownHostException e) {
            return false; // the link will report it
        } catch (IOException e) {
            return false;
        }
    }

    /** ROLE: {@code *3 [master, :offset, *[*3 [$ip, $port, $offset]...]]} or {@code *5 [slave, $host, :port, $state, :offset]}. */
    private static void role(Call c, Replication r) {
        ReplySink out = c.reply();
        ReplicaLink l = r.link();
        if (l == null) {
            List<ReplicaRegistry.Replica> replicas = r.registry().connected();
            out.array(3);
            out.bulk("master");
            out.integer(r.masterOffset());
            out.array(replicas.size());
            for (ReplicaRegistry.Replica rep : replicas) {
                out.array(3);
                out.bulk(rep.ip);
                out.bulk(Integer.toString(rep.port));
                out.bulk(Long.toString(rep.offset()));
            }
            return;
        }
        out.array(5);
        out.bulk("slave");
        out.bulk(l.host);
        out.integer(l.port);
        out.bulk(l.state().role);
        out.integer(l.up() ? l.appliedOffset() : -1);
    }

    /** WAIT numreplicas timeout (ms; 0 waits for ever). */
    private static void waitFor(Call c, Replication r) {
        if (r.isReplica()) {
            throw Call.fail(WAIT_ON_REPLICA);
        }
        long num = RedisNumbers.parseLong(c.arg(1), Errors.NOT_INTEGER);
        long timeout = RedisNumbers.parseLong(c.arg(2), ErrorReply.err("timeout is not an integer or out of range"));
        if (timeout < 0) {
            throw Call.fail(Errors.TIMEOUT_NEGATIVE);
        }
        ReplicaRegistry reg = r.registry();
        long[][] target = reg.target(c.session().writeCursors()); // the client's own last writes (Redis: c->woff)
        int n = reg.covering(target);
        if (n >= num || !c.mayBlock()) {
            c.reply().integer(n);
            return;
        }
        ReplicaWait w = new ReplicaWait(reg, target, num);
        BlockedClient b = c.block(w, timeout);
        w.park(b);
    }

    private static void replconf(Call c, Replication r) {
        if (c.argc() == 2 && c.argIs(1, "kevy-chain")) {
            List<String> up = r.upstream();
            c.reply().array(1 + up.size());
            c.reply().bulk(c.engine().runId());
            for (String id : up) {
                c.reply().bulk(id);
            }
            return;
        }
        if (c.argc() == 2 && c.argIs(1, "kevy-replid")) { // a replica takes its primary's replication id
            c.reply().bulk(c.engine().replId());
            return;
        }
        if (c.argc() >= 2 && c.argIs(1, "feed-ack")) {
            if (c.argc() != 5) {
                throw Call.fail(Errors.SYNTAX);
            }
            long shard = RedisNumbers.parseLong(c.arg(2), Errors.NOT_INTEGER);
            long gen = RedisNumbers.parseLong(c.arg(3), Errors.NOT_INTEGER);
            long offset = RedisNumbers.parseLong(c.arg(4), Errors.NOT_INTEGER);
            if (shard < 0 || shard >= c.engine().shardCount()) {
                throw Call.fail(ErrorReply.err("invalid shard"));
            }
            if (!r.registry().ack(c.session().id(), (int) shard, gen, offset)) {
                throw Call.fail(NOT_A_REPLICA);
            }
            c.reply().ok();
            return;
        }
        if (c.argc() % 2 == 0) {
            throw Call.fail(Errors.SYNTAX);
        }
        String ip = null;
        long port = -1;
        for (int i = 1; i < c.argc(); i += 2) {
            if (c.argIs(i, "listening-port")) {
                port = RedisNumbers.parseLong(c.arg(i + 1), Errors.NOT_INTEGER);
            } else if (c.argIs(i, "ip-address")) {
                ip = new String(c.arg(i + 1), StandardCharsets.UTF_8);
            } else if (c.argIs(i, "kevy-run-id")) {
                String why = r.refusal(new String(c.arg(i + 1), StandardCharsets.UTF_8));
                if (why != null) {
                    throw Call.fail(ErrorReply.err(why));
                }
            } else if (!c.argIs(i, "capa") && !c.argIs(i, "ack") && !c.argIs(i, "getack")
                    && !c.argIs(i, "rdb-only") && !c.argIs(i, "rdb-filter-only")) {
                throw Call.fail(ErrorReply.err("Unrecognized REPLCONF option: "
                        + new String(c.arg(i), StandardCharsets.UTF_8)));
            }
        }
        if (port >= 0) {
            if (ip == null) {
                ip = hostOf(c.session().channel().remoteAddress());
            }
            r.registry().register(c.session().id(), ip, (int) port);
            c.session().replica(true); // a replica's link from now on: CLIENT LIST flags=S, TYPE replica
        }
        c.reply().ok();
    }

    /** The host part of {@code host:port} (IPv6 addresses keep their colons). */
    static String hostOf(String address) {
        int colon = address.lastIndexOf(':');
        return colon > 0 ? address.substring(0, colon) : address;
    }

    private static void snapshot(Call c, Replication r) {
        long shard = RedisNumbers.parseLong(c.arg(1), ErrorReply.err("invalid shard"));
        if (shard < 0 || shard >= c.engine().shardCount()) {
            throw Call.fail(ErrorReply.err("shard out of range"));
        }
        SnapshotTransfers.Transfer t;
        try {
            t = r.transfers().start((int) shard);
        } catch (IOException e) {
            throw Call.fail(ErrorReply.err("cannot start a full-sync snapshot: " + e.getMessage()));
        }
        SnapshotWait w = new SnapshotWait(r.transfers(), t);
        if (!c.mayBlock()) { // inside MULTI: wait here (the event loop waits for the write)
            t.written.handle((at, e) -> null).join();
            w.write(c.reply());
            return;
        }
        BlockedClient b = c.block(w, 0);
        w.park(b);
    }

    /** REPL.CHUNK id offset: up to SnapshotTransfers.CHUNK bytes of a written snapshot, as one bulk string. */
    private static void chunk(Call c, Replication r) {
        String id = new String(c.arg(1), StandardCharsets.UTF_8);
        long offset = RedisNumbers.parseLong(c.arg(2), ErrorReply.err("invalid offset"));
        byte[] data;
        try {
            data = r.transfers().chunk(id, offset);
        } catch (IOException e) {
            throw Call.fail(ErrorReply.err("REPL.CHUNK " + id + ": " + e.getMessage()));
        }
        if (data == null) {
            throw Call.fail(ErrorReply.err("no full-sync snapshot " + id + " in transit"));
        }
        c.reply().bulk(data);
    }
}
