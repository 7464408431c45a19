package io.kevy.replication;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.error.ErrorReply;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * A server's replication role (docs/operations.md, "Replication and Sentinel"): a primary, which knows its
 * replicas ({@link ReplicaRegistry}), or a replica of {@code host:port}, which runs a {@link ReplicaLink} and
 * refuses ordinary writes with {@code -READONLY} while {@code replica-read-only} is on. Holds the settings
 * Redis has for it ({@code masterauth}, {@code replica-announce-ip}/{@code -port}, {@code replica-priority},
 * {@code replica-read-only}) and writes INFO's replication section and ROLE.
 *
 * <p><b>Promotion</b> ({@code REPLICAOF NO ONE}): the link stops, and every shard that mirrored the primary
 * continues its stream under a new generation ({@link Shard#continueStream}), so the feed's generation history
 * says where the old generation ended and consumers' cursors up to there carry on (docs/cdc.md).
 *
 * <p>Thread-safe: role changes are serialised on this object; state read by INFO is volatile.
 */
public final class Replication {
    /** Redis's text for a write to a read-only replica. */
    public static final ErrorReply READONLY = ErrorReply.of("READONLY You can't write against a read only replica.");
    private static final String NO_REPL_ID = "0000000000000000000000000000000000000000";

    private final Engine engine;
    private volatile Dispatcher dispatcher;
    private final ReplicaRegistry registry;
    private final SnapshotTransfers transfers;
    private final AtomicLong fullSyncs = new AtomicLong();
    private final AtomicLong partialSyncs = new AtomicLong();
    private volatile IntSupplier listeningPort = () -> 0;
    private volatile ReplicaLink link;
    private volatile boolean readOnly = true;
    private volatile String masterAuth = "";
    private volatile String announceIp = "";
    private volatile int announcePort;
    private volatile int priority = 100;
    /** INFO's {@code master_replid2} and {@code second_repl_offset}: the replication id before the last change. */
    private volatile String replId2 = NO_REPL_ID;
    private volatile long secondOffset = -1;
    /** The run ids of the servers this one replicates from, its primary first, then that one's, ... (loops). */
    private volatile List<String> upstream = List.of();

    /** Replication of {@code engine}; {@link #dispatcher(Dispatcher)} must be set before it becomes a replica. */
    public Replication(Engine engine) {
        this.engine = engine;
        this.registry = new ReplicaRegistry(engine);
        this.transfers = new SnapshotTransfers(engine);
    }

    /** The full-sync snapshots this server (as a primary) has in transit. */
    SnapshotTransfers transfers() {
        return transfers;
    }

    /** The dispatcher frames are applied through (its command table holds the replication commands). */
    public void dispatcher(Dispatcher dispatcher) {
        this.dispatcher = dispatcher;
    }

    Engine engine() {
        return engine;
    }

    Dispatcher dispatcher() {
        return dispatcher;
    }

    ReplicaRegistry registry() {
        return registry;
    }

    /** The port this server listens on (the server sets it once bound), announced to the primary. */
    public void listeningPort(IntSupplier port) {
        this.listeningPort = port;
    }

    /** Registers the CONFIG parameters of replication on the engine's runtime config. */
    public void registerConfig() {
        var rc = engine.runtimeConfig();
        rc.bool("replica-read-only", () -> readOnly, v -> {
            readOnly = v;
            applyReadOnly();
        }, "slave-read-only");
        rc.mutable("masterauth", () -> masterAuth, v -> {
            masterAuth = v;
            return null;
        });
        rc.mutable("replica-announce-ip", () -> announceIp, v -> {
            announceIp = v;
            return null;
        }, "slave-announce-ip");
        rc.integer("replica-announce-port", 0, 65535, () -> announcePort, v -> announcePort = (int) v,
                "slave-announce-port");
        rc.integer("replica-priority", 0, Integer.MAX_VALUE, () -> priority, v -> priority = (int) v,
                "slave-priority");
        rc.readOnly("replicaof", () -> {
            ReplicaLink l = link;
            return l == null ? "" : l.host + " " + l.port;
        });
        rc.readOnly("slaveof", () -> {
            ReplicaLink l = link;
            return l == null ? "" : l.host + " " + l.port;
        });
    }

    /** True while this server is a replica. */
    public boolean isReplica() {
        return link != null;
    }

    /**
     * Becomes a replica of {@code host:port} (REPLICAOF, the {@code replicaof} setting): stops any previous link,
     * refuses writes when read-only, and starts the link in the background (the first sync happens there).
     *
     * @return false when already a replica of exactly that primary (Redis's "Already connected")
     */
    public synchronized boolean replicaOf(String host, int port) {
        ReplicaLink old = link;
        if (old != null && old.host.equalsIgnoreCase(host) && old.port == port) {
            return false;
        }
        if (old != null) {
            old.stop();
        }
        ReplicaLink l = new ReplicaLink(this, host, port);
        upstream = List.of(); // learned again from the new primary
        link = l;
        applyReadOnly();
        l.start();
        return true;
    }

    /**
     * Becomes a primary (REPLICAOF NO ONE): stops the link and, on every shard that mirrored the old primary,
     * continues the stream under a new generation, recording where the old one ended (the feed's generation
     * history). A no-op on a primary.
     */
    public synchronized void promote() {
        ReplicaLink l = link;
        if (l == null) {
            return;
        }
        l.stop();
        link = null;
        upstream = List.of();
        engine.writeRefusal(null);
        // Redis's shiftReplicationId: the old primary's id stays valid up to here, a new history starts after
        replId2 = engine.replId();
        secondOffset = masterOffset() + 1;
        engine.changeReplId();
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard s = engine.shard(i);
            s.lock().lock();
            try {
                if (s.mirror()) {
                    s.mirror(false);
                    s.continueStream(Engine.newGeneration(s.generation()));
                }
            } finally {
                s.lock().unlock();
            }
        }
        saveInBackground("promotion"); // the AOF restarts under the new generations: a snapshot must back it
    }

    /**
     * Saves a snapshot on a thread of its own (the caller may hold shard locks: REPLICAOF inside EXEC); without
     * a data directory there is nothing to do.
     */
    void saveInBackground(String why) {
        Thread t = new Thread(() -> {
            String err = engine.durability().save();
            if (err != null && !err.startsWith("ERR no data directory")) {
                org.slf4j.LoggerFactory.getLogger(Replication.class).warn("SAVE after {} failed: {}", why, err);
            }
        }, "kevy-replication-save");
        t.setDaemon(true);
        t.start();
    }

    /** Stops the link and drops the full-sync snapshots in transit (server shutdown). */
    public synchronized void close() {
        ReplicaLink l = link;
        if (l != null) {
            l.stop();
        }
        transfers.close();
    }

    private void applyReadOnly() {
        engine.writeRefusal(link != null && readOnly ? READONLY : null);
    }

    /**
     * The replication chain above this server, as run ids: its primary first, then its primary's primary, and
     * so on (learned by the link at each connection with {@code REPLCONF KEVY-CHAIN}); empty on a primary.
     */
    public List<String> upstream() {
        return upstream;
    }

    void upstream(List<String> chain) {
        this.upstream = List.copyOf(chain);
    }

    /**
     * Why a server with run id {@code runId} may not replicate from this one, or null: it is this server, or it
     * is upstream of it (a loop: A replica of B replica of A), which would feed each its own writes back.
     */
    String refusal(String runId) {
        if (runId.equals(engine.runId())) {
            return "replica of itself: this server's run id";
        }
        if (upstream.contains(runId)) {
            return "replica loop: that server is upstream of this one (this server replicates from it, "
                    + "directly or through a chain)";
        }
        return null;
    }

    String masterAuth() {
        return masterAuth;
    }

    /** Sets {@code masterauth} (the server's setting; CONFIG SET masterauth too). */
    public void masterAuth(String password) {
        this.masterAuth = password == null ? "" : password;
    }

    /** {@code replica-announce-ip}, or empty: the primary then uses the connection's address. */
    String announceIp() {
        return announceIp;
    }

    /** Sets {@code replica-announce-ip} (the server's setting; empty: the connection's address). */
    public void announceIp(String ip) {
        this.announceIp = ip == null ? "" : ip;
    }

    /** Sets {@code replica-announce-port} (the server's setting; 0: the listening port). */
    public void announcePort(int port) {
        this.announcePort = port;
    }

    /** Sets {@code replica-priority} (the server's setting; 0: Sentinel never promotes this server). */
    public void priority(int priority) {
        this.priority = priority;
    }

    /** Sets {@code replica-read-only} (the server's setting): a replica refuses ordinary writes when true. */
    public synchronized void readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        applyReadOnly();
    }

    /** The port this server listens on now (0 before it is bound). */
    int listeningPortNow() {
        return listeningPort.getAsInt();
    }

    int announcePort() {
        return announcePort != 0 ? announcePort : listeningPort.getAsInt();
    }

    /**
     * Takes the primary's replication id (INFO's {@code master_replid}), as a Redis replica does at each sync: after
     * a full sync the history before it is gone ({@code master_replid2} cleared); a partial resync that finds a new
     * id (the primary was promoted meanwhile) keeps the old one as {@code master_replid2} up to
     * {@code appliedOffset}, as Redis's {@code +CONTINUE <new id>} does.
     */
    void adoptReplId(String primaryId, boolean fullSync, long appliedOffset) {
        String mine = engine.replId();
        if (fullSync) {
            replId2 = NO_REPL_ID;
            secondOffset = -1;
        } else if (!primaryId.equals(mine)) {
            replId2 = mine;
            secondOffset = appliedOffset + 1;
        }
        engine.replId(primaryId);
    }

    void countFullSync() {
        fullSyncs.incrementAndGet();
    }

    void countPartialSync() {
        partialSyncs.incrementAndGet();
    }

    /** The primary's replication offset: the sum of every shard's next offset. */
    long masterOffset() {
        long[][] c = registry.currentCursors();
        long sum = 0;
        for (long o : c[1]) {
            sum += o;
        }
        return sum;
    }

    /**
     * INFO's replication section, in Redis 7.0's field order (replicationInfo): {@code role}, for a replica
     * {@code master_host} ... {@code replica_announced}, then {@code connected_slaves} and one {@code slaveN} line
     * per replica, then the replication ids and offsets. Offsets are sums of the per-shard feed offsets; ours:
     * {@code kevy_full_syncs} and {@code kevy_partial_syncs}.
     */
    public void writeInfo(StringBuilder out) {
        ReplicaLink l = link;
        long now = engine.clock().millis();
        long masterOffset;
        if (l == null) {
            masterOffset = masterOffset();
            line(out, "role", "master");
        } else {
            masterOffset = l.appliedOffset();
            line(out, "role", "slave");
            line(out, "master_host", l.host);
            line(out, "master_port", l.port);
            line(out, "master_link_status", l.up() ? "up" : "down");
            if (!l.up() && l.lastError() != null) {
                line(out, "kevy_master_link_error", l.lastError());
            }
            line(out, "master_last_io_seconds_ago", l.lastIoMs() == 0 ? -1 : (now - l.lastIoMs()) / 1000);
            line(out, "master_sync_in_progress", l.state() == ReplicaLink.State.SYNC ? 1 : 0);
            line(out, "slave_read_repl_offset", masterOffset);
            line(out, "slave_repl_offset", masterOffset);
            if (!l.up()) {
                line(out, "master_link_down_since_seconds", l.downSinceMs() == 0 ? -1
                        : (now - l.downSinceMs()) / 1000);
            }
            line(out, "slave_priority", priority);
            line(out, "slave_read_only", readOnly ? 1 : 0);
            line(out, "replica_announced", 1);
        }
        List<ReplicaRegistry.Replica> replicas = registry.connected();
        line(out, "connected_slaves", replicas.size());
        for (int i = 0; i < replicas.size(); i++) {
            ReplicaRegistry.Replica r = replicas.get(i);
            out.append("slave").append(i).append(":ip=").append(r.ip).append(",port=").append(r.port)
                    .append(",state=online,offset=").append(r.offset()).append(",lag=")
                    .append(Math.max(0, (now - r.lastAckMs()) / 1000)).append("\r\n");
        }
        line(out, "master_failover_state", "no-failover");
        line(out, "master_replid", engine.replId());
        line(out, "master_replid2", replId2);
        line(out, "master_repl_offset", masterOffset);
        line(out, "second_repl_offset", secondOffset);
        line(out, "repl_backlog_active", 1);
        line(out, "repl_backlog_size", engine.runtimeConfig().get("repl-backlog-size"));
        line(out, "repl_backlog_first_byte_offset", 0);
        line(out, "repl_backlog_histlen", masterOffset);
        line(out, "kevy_full_syncs", fullSyncs.get());
        line(out, "kevy_partial_syncs", partialSyncs.get());
    }

    private static void line(StringBuilder out, String k, Object v) {
        out.append(k).append(':').append(v).append("\r\n");
    }

    /** The link while a replica (ROLE), or null. */
    ReplicaLink link() {
        return link;
    }
}
