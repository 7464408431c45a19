package io.kevy.server.config;

import io.kevy.config.Sizes;
import io.kevy.config.Option;
import io.kevy.config.OptionDocs;
import io.kevy.engine.config.RedisConfigCatalog;
import java.util.List;
import java.util.Set;

/**
 * Every kevy-server setting: the table that the TOML loader, the environment, the command line, the start
 * line and {@code docs/operations.md} all read. Precedence: flags, then environment, then TOML, then
 * defaults. Descriptions are the docs' text (Markdown: inline code, and links only in a docs-only
 * {@code .docs(...)} text); the key table of docs/operations.md is {@link #markdown()}, checked by
 * ServerDocsTest.
 */
public final class ServerOptions {
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    public static final ServerOption<String> BIND = ServerOption.string("bind", "KEVY_BIND", "127.0.0.1",
            "Listen address. Loopback by default: set `0.0.0.0` together with `requirepass` to accept remote "
                    + "clients.", s -> {
                if (s.isBlank()) {
                    throw new IllegalArgumentException("must not be empty");
                }
                return s.trim();
            });
    public static final ServerOption<Integer> PORT = ServerOption.integer("port", "KEVY_PORT", () -> 6004, 0, 65535,
            "TCP port; `0` picks a free one (printed in the start line).");
    public static final ServerOption<Integer> SHARDS = ServerOption.integer("shards", "KEVY_SHARDS", () -> CPUS, 1,
            1024, "Independent keyspaces, locks and feed streams.").defaultDocs("available processors");
    public static final ServerOption<String> DIR = ServerOption.string("dir", "KEVY_DIR", "data",
            "Data directory (created when missing).", s -> {
                if (s.isBlank()) {
                    throw new IllegalArgumentException("must not be empty");
                }
                return s;
            });
    public static final ServerOption<String> REQUIREPASS = ServerOption.string("requirepass", "KEVY_REQUIREPASS", "",
            "Password clients must `AUTH` with. Never logged.", s -> s).defaultDocs("empty").secret();
    public static final ServerOption<Integer> MAXCLIENTS = ServerOption.integer("maxclients", "KEVY_MAXCLIENTS",
            () -> 10000, 1, 1_000_000, "Most simultaneous client connections; more are refused with "
                    + "`-ERR max number of clients reached`.");
    /**
     * Event loops: one per available processor but one (at least one), leaving a core to what is not a loop (the
     * AOF writer, GC and JIT threads, the kernel's network work), as Redis's io-threads guidance does. On a
     * 2-core machine with the load generator beside the server, one loop beat two on all four SET/GET targets
     * of docs/benchmarks.md (two loops also contend for the shard locks).
     */
    public static final ServerOption<Integer> IO_THREADS = ServerOption.integer("io_threads", "KEVY_IO_THREADS",
            () -> Math.max(1, CPUS - 1), 1, 256, "Netty event loops (they also run the commands).")
            .defaultDocs("available processors − 1, at least 1")
            .docs("Netty event loops (they also run the commands). One core is left to the AOF writer, GC and the "
                    + "kernel's network work, as Redis advises for its io-threads; on a 2-core machine one loop "
                    + "beat two in every SET/GET benchmark ([benchmarks](benchmarks.md)).");
    public static final ServerOption<String> TRANSPORT = ServerOption.oneOf("transport", "KEVY_TRANSPORT", "auto",
            Set.of("auto", "io_uring", "epoll", "nio"), "Netty transport: `auto` picks the first available of "
                    + "`io_uring`, `epoll`, `nio`; a named one that cannot run here refuses to start.")
            .docs("Netty transport: `auto` picks the first available of `io_uring`, `epoll`, `nio` (INFO "
                    + "`multiplexing_api` says which); a named one that cannot run here refuses to start, saying "
                    + "why. Container seccomp profiles often block io_uring; `auto` then uses epoll.");
    public static final ServerOption<Integer> HZ = ServerOption.integer("hz", "KEVY_HZ", () -> 10, 1, 500,
            "Background cycles per second (active expiry, rehashing).");

    public static final ServerOption<Long> PROTO_MAX_BULK_LEN = ServerOption.size("limits.proto_max_bulk_len",
            "KEVY_PROTO_MAX_BULK_LEN", 512 * Sizes.MB, 512 * Sizes.MB, 4 * Sizes.GB,
            "proto_max_bulk_len caps at 4gb", "Largest bulk string a client may send.");
    public static final ServerOption<Integer> PROTO_MAX_MULTIBULK_LEN = ServerOption.integer(
            "limits.proto_max_multibulk_len", "KEVY_PROTO_MAX_MULTIBULK_LEN", () -> 1024 * 1024, 1,
            Integer.MAX_VALUE, "Most arguments in one command.");
    public static final ServerOption<Long> CLIENT_OUTPUT_BUFFER_LIMIT = ServerOption.size(
            "limits.client_output_buffer_limit", "KEVY_CLIENT_OUTPUT_BUFFER_LIMIT", 0, 0, Long.MAX_VALUE, "",
            "Unsent reply bytes after which a client is disconnected; `0` means none.").defaultDocs("`0` (none)")
            .docs("Unsent reply bytes after which a client is disconnected. A client that does not read is paused "
                    + "(its socket is not read) long before that.");
    /**
     * Redis's {@code client-query-buffer-limit}, with a default for a JVM: an eighth of the max heap, at most
     * Redis's 1gb. Redis's 1gb assumes the machine's memory; on a JVM the heap is the bound, and a default heap
     * (a quarter of RAM) or a container's {@code -Xmx1g} would let one client's half-sent command take all of it.
     * An eighth leaves one client at most half of the {@link #MAXMEMORY_CLIENTS} default.
     */
    public static final ServerOption<Long> CLIENT_QUERY_BUFFER_LIMIT = ServerOption.size(
            "limits.client_query_buffer_limit", "KEVY_CLIENT_QUERY_BUFFER_LIMIT", defaultQueryBufferLimit(),
            defaultQueryBufferLimit(), Long.MAX_VALUE, "",
            "Most bytes one client's partial command may hold; past it the client is closed. `0` means the default.")
            .defaultDocs("an eighth of the max heap, at most `1gb`")
            .docs("Most bytes one client's partial command may hold: bytes received and not yet parsed plus the "
                    + "heap of the arguments already parsed. Past it the client is closed without a reply. Redis's "
                    + "default is `1gb`, sized for a machine's memory; on a JVM the heap is the bound, and with "
                    + "`-Xmx1g` one client's half-sent command could take all of it. `0` means the default.");
    /**
     * Redis's {@code maxmemory-clients} as kevy applies it: the budget of every client's buffered input and
     * output together, a size or a percentage of the max heap; the default, 25%, leaves three quarters of the
     * heap to the data, the feed backlogs and the collector's headroom.
     */
    public static final ServerOption<String> MAXMEMORY_CLIENTS = ServerOption.string("limits.maxmemory_clients",
            "KEVY_MAXMEMORY_CLIENTS", "25%", "Budget of every client's buffered input and output together: a size "
                    + "or `\"N%\"` of the max heap; `\"0\"` means none.", ServerOptions::checkMemoryOrPercent)
            .docs("Budget of every client's buffered input and output together: a size or `\"N%\"` of the max heap "
                    + "(a TOML string). A client whose buffers would take the total past it is closed. The default "
                    + "leaves three quarters of the heap to the data, the feed backlogs, the AOF buffers and the "
                    + "collector's headroom. `\"0\"` means no budget.");

    public static final ServerOption<String> CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB = ServerOption.string(
            "limits.client_output_buffer_limit_pubsub", "KEVY_CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB", "32mb 8mb 60",
            "Pub/Sub subscribers' output limit, `<hard> <soft> <soft-seconds>` as Redis's "
                    + "`client-output-buffer-limit pubsub`; `0` turns a limit off.",
            s -> RedisConfigCatalog.mergeOutputBufferLimits("pubsub 0 0 0", "pubsub " + s)
                    .substring("pubsub ".length()))
            .docs("Pub/Sub subscribers' output limit, `<hard> <soft> <soft-seconds>` as Redis's "
                    + "`client-output-buffer-limit pubsub`: a subscriber past the hard limit, or past the soft one "
                    + "for longer than the seconds, is disconnected with one log line. `0` turns a limit off. "
                    + "CONFIG SET `client-output-buffer-limit \"pubsub ...\"` changes it at run time.");
    public static final ServerOption<String> NOTIFY_KEYSPACE_EVENTS = ServerOption.string("notify_keyspace_events",
            "KEVY_NOTIFY_KEYSPACE_EVENTS", "", "Keyspace notifications, as Redis's `notify-keyspace-events` (e.g. "
                    + "`KEA`); empty means none.", RedisConfigCatalog::normalizeKeyspaceEvents)
            .defaultDocs("`\"\"` (none)")
            .docs("Keyspace notifications, as Redis's `notify-keyspace-events` (e.g. `KEA`); see "
                    + "[cdc.md](cdc.md#keyspace-notifications-and-pubsub).");

    public static final ServerOption<Boolean> AOF = ServerOption.bool("persistence.aof", "KEVY_AOF", true,
            "Append every effect frame to `aof-{i}.aof`. `--no-aof` turns it off.");
    public static final ServerOption<String> APPENDFSYNC = ServerOption.oneOf("persistence.appendfsync",
            "KEVY_APPENDFSYNC", "everysec", Set.of("always", "everysec", "no"), "When the AOF is fsynced: `always` "
                    + "(before the reply), `everysec` (at most 1 s of writes lost) or `no` (the OS).")
            .docs("`always`, `everysec` or `no` (see [appendfsync and what a crash can lose]"
                    + "(#appendfsync-and-what-a-crash-can-lose)).");
    public static final ServerOption<String> SAVE = ServerOption.string("persistence.save", "KEVY_SAVE",
            "3600 1 300 100 60 10000", "Snapshot rules as Redis's `save`: pairs of seconds and changes; empty "
                    + "disables.", ServerOptions::checkSaveRules);

    public static final ServerOption<Integer> AUTO_AOF_REWRITE_PERCENTAGE = ServerOption.integer(
            "persistence.auto_aof_rewrite_percentage", "KEVY_AUTO_AOF_REWRITE_PERCENTAGE", () -> 100, 0, 100_000,
            "Rewrite a shard's AOF when it grew by this much since its last rewrite; `0` disables.");
    public static final ServerOption<Long> AUTO_AOF_REWRITE_MIN_SIZE = ServerOption.size(
            "persistence.auto_aof_rewrite_min_size", "KEVY_AUTO_AOF_REWRITE_MIN_SIZE", 64 * Sizes.MB, 64 * Sizes.MB,
            Long.MAX_VALUE, "", "Rewrite a shard's AOF only once it is at least this large.")
            .docs("... once it is at least this large.");
    public static final ServerOption<String> AOF_LOAD_CORRUPT = ServerOption.oneOf("persistence.aof_load_corrupt",
            "KEVY_AOF_LOAD_CORRUPT", "fail", Set.of("fail", "truncate"),
            "A corrupt AOF record at boot: `fail` (refuse to start, naming file and byte offset) or `truncate` "
                    + "(drop it and everything after).");
    public static final ServerOption<Boolean> REDISTRIBUTE = ServerOption.bool("persistence.redistribute",
            "KEVY_REDISTRIBUTE", true, "A data dir written with another shard count is re-distributed at boot; "
                    + "`false` refuses to start.");

    public static final ServerOption<Boolean> FEED_ENABLED = ServerOption.bool("feed.enabled", "KEVY_FEED", false,
            "Keep the change feed (`--feed`).");
    public static final ServerOption<Long> FEED_BUFFER_SIZE = ServerOption.size("feed.feed_buffer_size",
            "KEVY_FEED_BUFFER_SIZE", 64 * Sizes.MB, 64 * Sizes.MB, Sizes.GB, "feed_buffer_size caps at 1gb per shard",
            "Feed backlog per shard; `0` means the default; at most `1gb`.");

    public static final ServerOption<String> REPLICAOF = ServerOption.string("replication.replicaof",
            "KEVY_REPLICAOF", "", "`\"host port\"`: start as a replica of that primary (as `REPLICAOF host port`); "
                    + "empty: a primary.", ServerOptions::replicaOf).defaultDocs("empty");
    public static final ServerOption<String> MASTERAUTH = ServerOption.string("replication.masterauth",
            "KEVY_MASTERAUTH", "", "Password a replica sends to its primary (`AUTH`). Never logged.", s -> s)
            .defaultDocs("empty").secret();
    public static final ServerOption<String> REPLICA_ANNOUNCE_IP = ServerOption.string(
            "replication.replica_announce_ip", "KEVY_REPLICA_ANNOUNCE_IP", "", "Address this replica gives its "
                    + "primary to show in `INFO`/`ROLE` (and so to Sentinel), as Redis's `replica-announce-ip`; "
                    + "empty: the connection's address.", String::trim).defaultDocs("empty");
    public static final ServerOption<Integer> REPLICA_ANNOUNCE_PORT = ServerOption.integer(
            "replication.replica_announce_port", "KEVY_REPLICA_ANNOUNCE_PORT", () -> 0, 0, 65535, "Port this "
                    + "replica gives its primary, as Redis's `replica-announce-port`; `0`: the port it listens on.");
    public static final ServerOption<Integer> REPLICA_PRIORITY = ServerOption.integer("replication.replica_priority",
            "KEVY_REPLICA_PRIORITY", () -> 100, 0, Integer.MAX_VALUE, "Sentinel promotes the replica with the "
                    + "lowest priority first and never one with `0` (Redis's `replica-priority`).");
    public static final ServerOption<Boolean> REPLICA_READ_ONLY = ServerOption.bool("replication.replica_read_only",
            "KEVY_REPLICA_READ_ONLY", true, "A replica refuses ordinary writes with `-READONLY` (Redis's "
                    + "`replica-read-only`).");

    /** Every option, in documentation order. */
    public static final List<ServerOption<?>> ALL = List.of(BIND, PORT, SHARDS, DIR, REQUIREPASS, MAXCLIENTS,
            IO_THREADS, TRANSPORT, HZ, PROTO_MAX_BULK_LEN, PROTO_MAX_MULTIBULK_LEN, CLIENT_OUTPUT_BUFFER_LIMIT,
            CLIENT_QUERY_BUFFER_LIMIT, MAXMEMORY_CLIENTS, CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB, NOTIFY_KEYSPACE_EVENTS,
            AOF, APPENDFSYNC, SAVE, AUTO_AOF_REWRITE_PERCENTAGE, AUTO_AOF_REWRITE_MIN_SIZE, AOF_LOAD_CORRUPT,
            REDISTRIBUTE, FEED_ENABLED, FEED_BUFFER_SIZE, REPLICAOF, MASTERAUTH, REPLICA_ANNOUNCE_IP,
            REPLICA_ANNOUNCE_PORT, REPLICA_PRIORITY, REPLICA_READ_ONLY);

    /** Checks {@code replicaof}: empty, or a host and a port in 1..65535 separated by blanks. */
    static String replicaOf(String s) {
        String t = s.trim();
        if (t.isEmpty()) {
            return t;
        }
        String[] parts = t.split("\\s+");
        if (parts.length != 2) {
            throw new IllegalArgumentException("must be \"host port\", got " + parts.length + " word(s)");
        }
        try {
            int port = Integer.parseInt(parts[1]);
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " is outside 1..65535");
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port '" + parts[1] + "' is not a number");
        }
        return parts[0] + " " + parts[1];
    }

    private ServerOptions() {
    }

    /** Every option as the option system's type (what the loader and the docs renderer read). */
    public static List<Option<?>> options() {
        return ALL.stream().<Option<?>>map(ServerOption::option).toList();
    }

    /**
     * The Markdown key table of docs/operations.md ({@code <!-- options:server -->}), rendered by the one docs
     * renderer from {@link #ALL}; machine-dependent defaults appear as the expressions they are computed by.
     */
    public static String markdown() {
        return OptionDocs.markdown(options(), Option::env);
    }

    /** The option with TOML key {@code key}, or null. */
    public static ServerOption<?> byKey(String key) {
        for (ServerOption<?> o : ALL) {
            if (o.key().equals(key)) {
                return o;
            }
        }
        return null;
    }

    /** An eighth of the JVM's max heap, at most 1gb, at least 1mb (Redis's minimum). */
    static long defaultQueryBufferLimit() {
        return Math.max(Sizes.MB, Math.min(Sizes.GB, Runtime.getRuntime().maxMemory() / 8));
    }

    /**
     * The bytes a {@code maxmemory-clients} value stands for: a size, or {@code N%} (0 to 100) of
     * {@code maxHeap}.
     *
     * @throws IllegalArgumentException when it is neither
     */
    public static long memoryOrPercent(String value, long maxHeap) {
        String v = checkMemoryOrPercent(value);
        if (v.endsWith("%")) {
            return maxHeap / 100 * Long.parseLong(v.substring(0, v.length() - 1));
        }
        return Long.parseLong(v);
    }

    static String checkMemoryOrPercent(String s) {
        String t = s.trim();
        if (t.length() > 1 && t.endsWith("%")) {
            String digits = t.substring(0, t.length() - 1);
            if (!digits.chars().allMatch(Character::isDigit) || digits.length() > 3
                    || Integer.parseInt(digits) > 100) {
                throw new IllegalArgumentException("must be a size or a percentage from 0% to 100%, got '" + s + "'");
            }
            return Integer.parseInt(digits) + "%";
        }
        Object v = t.chars().allMatch(Character::isDigit) && !t.isEmpty() && t.length() < 19
                ? (Object) Long.parseLong(t) : t;
        return Long.toString(Sizes.parse(v));
    }

    static String checkSaveRules(String s) {
        String t = s.trim();
        if (t.isEmpty()) {
            return "";
        }
        String[] parts = t.split("\\s+");
        if (parts.length % 2 != 0) {
            throw new IllegalArgumentException("must be pairs of <seconds> <changes>, got '" + s + "'");
        }
        for (String p : parts) {
            try {
                if (Long.parseLong(p) < 0) {
                    throw new IllegalArgumentException("values must not be negative, got '" + s + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be pairs of integers, got '" + p + "'");
            }
        }
        return String.join(" ", parts);
    }
}
