package io.kevy.engine.config;

import io.kevy.engine.Engine;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Every CONFIG parameter of Redis 7.0.15, by name, with Redis's default, type, bounds and aliases, so that
 * {@code CONFIG GET *} lists what a Redis 7.0 lists and tools and test suites that set tuning parameters keep
 * working. Most are only remembered (validated as Redis validates them, stored, echoed back, no effect on kevy);
 * the engine ({@link Engine}, {@link EncodingLimits}) and the network server register the real ones over these
 * afterwards. Parameters a running Redis refuses to change are refused here too, with the same reason.
 *
 * <p>The table was taken from a stock {@code redis-server} 7.0.15 ({@code CONFIG GET *}, with each parameter's
 * type and bounds read from CONFIG SET's errors). kevy's own differences: {@code databases} is 1,
 * {@code enable-debug-command} is yes (DEBUG is always available), {@code latency-tracking} is no (kevy keeps no
 * latency histograms), {@code appendonly}/{@code appendfsync}/{@code port}/{@code bind} are read-only.
 *
 * <p>Thread-safe (static methods; registration happens while the engine is built).
 */
public final class RedisConfigCatalog {
    /** Redis 7.0's default {@code client-output-buffer-limit}. */
    public static final String DEFAULT_OUTPUT_BUFFER_LIMITS =
            "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60";

    private RedisConfigCatalog() {
    }

    /** Registers every Redis 7.0 parameter in {@code rc} at its default. */
    public static void register(RuntimeConfig rc) {
        rc.rememberEnum("acl-pubsub-default", "resetchannels", List.of("allchannels", "resetchannels"));
        rc.readOnly("aclfile", () -> "");
        rc.rememberInteger("acllog-max-len", 128, 0, Long.MAX_VALUE);
        rc.rememberInteger("active-defrag-cycle-max", 25, 1, 99);
        rc.rememberInteger("active-defrag-cycle-min", 1, 1, 99);
        rc.rememberMemory("active-defrag-ignore-bytes", 104857600, 1, Long.MAX_VALUE);
        rc.rememberInteger("active-defrag-max-scan-fields", 1000, 1, Long.MAX_VALUE);
        rc.rememberInteger("active-defrag-threshold-lower", 10, 0, 1000);
        rc.rememberInteger("active-defrag-threshold-upper", 100, 0, 1000);
        rc.rememberInteger("active-expire-effort", 1, 1, 10);
        rc.rememberBool("activedefrag", false);
        rc.rememberBool("activerehashing", true);
        rc.readOnly("always-show-logo", () -> "no");
        rc.rememberBool("aof-disable-auto-gc", false);
        rc.rememberBool("aof-load-truncated", true);
        rc.rememberBool("aof-rewrite-incremental-fsync", true);
        rc.rememberBool("aof-timestamp-enabled", false);
        rc.rememberBool("aof-use-rdb-preamble", true);
        rc.readOnly("aof_rewrite_cpulist", () -> "");
        rc.readOnly("appenddirname", () -> "appendonlydir");
        rc.readOnly("appendfilename", () -> "appendonly.aof");
        rc.readOnly("appendfsync", () -> "everysec");
        rc.readOnly("appendonly", () -> "no");
        rc.rememberMemory("auto-aof-rewrite-min-size", 67108864, 0, Long.MAX_VALUE);
        rc.rememberInteger("auto-aof-rewrite-percentage", 100, 0, Integer.MAX_VALUE);
        rc.readOnly("bgsave_cpulist", () -> "");
        rc.readOnly("bind", () -> "");
        rc.remember("bind-source-addr", "");
        rc.readOnly("bio_cpulist", () -> "");
        rc.rememberInteger("busy-reply-threshold", 5000, 0, Long.MAX_VALUE, "lua-time-limit");
        rc.rememberParsed("client-output-buffer-limit", DEFAULT_OUTPUT_BUFFER_LIMITS,
                v -> mergeOutputBufferLimits(DEFAULT_OUTPUT_BUFFER_LIMITS, v));
        rc.rememberMemory("client-query-buffer-limit", 1073741824, 1048576, Long.MAX_VALUE);
        rc.rememberBool("cluster-allow-pubsubshard-when-down", true);
        rc.rememberBool("cluster-allow-reads-when-down", false);
        rc.rememberBool("cluster-allow-replica-migration", true);
        rc.rememberInteger("cluster-announce-bus-port", 0, 0, 65535);
        rc.remember("cluster-announce-hostname", "");
        rc.remember("cluster-announce-ip", "");
        rc.rememberInteger("cluster-announce-port", 0, 0, 65535);
        rc.rememberInteger("cluster-announce-tls-port", 0, 0, 65535);
        rc.readOnly("cluster-config-file", () -> "nodes.conf");
        rc.readOnly("cluster-enabled", () -> "no");
        rc.rememberMemory("cluster-link-sendbuf-limit", 0, 0, Long.MAX_VALUE);
        rc.rememberInteger("cluster-migration-barrier", 1, 0, Integer.MAX_VALUE);
        rc.rememberInteger("cluster-node-timeout", 15000, 0, Long.MAX_VALUE);
        rc.readOnly("cluster-port", () -> "0");
        rc.rememberEnum("cluster-preferred-endpoint-type", "ip",
                List.of("ip", "hostname", "unknown-endpoint"));
        rc.rememberBool("cluster-replica-no-failover", false, "cluster-slave-no-failover");
        rc.rememberInteger("cluster-replica-validity-factor", 10, 0, Integer.MAX_VALUE,
                "cluster-slave-validity-factor");
        rc.rememberBool("cluster-require-full-coverage", true);
        rc.rememberBool("crash-log-enabled", true);
        rc.rememberBool("crash-memcheck-enabled", true);
        rc.readOnly("daemonize", () -> "no");
        rc.readOnly("databases", () -> "1");
        rc.protectedParam("dbfilename", () -> "dump.rdb");
        rc.protectedParam("dir", () -> "");
        rc.readOnly("disable-thp", () -> "yes");
        rc.rememberBool("dynamic-hz", true);
        rc.readOnly("enable-debug-command", () -> "yes");
        rc.readOnly("enable-module-command", () -> "no");
        rc.readOnly("enable-protected-configs", () -> "no");
        rc.rememberInteger("hash-max-listpack-entries", 512, 0, Long.MAX_VALUE, "hash-max-ziplist-entries");
        rc.rememberMemory("hash-max-listpack-value", 64, 0, Long.MAX_VALUE, "hash-max-ziplist-value");
        rc.rememberMemory("hll-sparse-max-bytes", 3000, 0, Long.MAX_VALUE);
        rc.rememberInteger("hz", 10, 0, Integer.MAX_VALUE);
        rc.remember("ignore-warnings", "");
        rc.readOnly("io-threads", () -> "1");
        rc.readOnly("io-threads-do-reads", () -> "no");
        rc.rememberBool("jemalloc-bg-thread", true);
        rc.rememberInteger("latency-monitor-threshold", 0, 0, Long.MAX_VALUE);
        rc.rememberBool("latency-tracking", false);
        rc.rememberParsed("latency-tracking-info-percentiles", "50 99 99.9", RedisConfigCatalog::checkPercentiles);
        rc.rememberBool("lazyfree-lazy-eviction", false);
        rc.rememberBool("lazyfree-lazy-expire", false);
        rc.rememberBool("lazyfree-lazy-server-del", false);
        rc.rememberBool("lazyfree-lazy-user-del", false);
        rc.rememberBool("lazyfree-lazy-user-flush", false);
        rc.rememberInteger("lfu-decay-time", 1, 0, Integer.MAX_VALUE);
        rc.rememberInteger("lfu-log-factor", 10, 0, Integer.MAX_VALUE);
        rc.rememberInteger("list-compress-depth", 0, 0, Integer.MAX_VALUE);
        rc.rememberInteger("list-max-listpack-size", -2, Integer.MIN_VALUE, Integer.MAX_VALUE,
                "list-max-ziplist-size");
        rc.readOnly("logfile", () -> "");
        rc.rememberEnum("loglevel", "notice", List.of("debug", "verbose", "notice", "warning"));
        rc.remember("masterauth", "");
        rc.remember("masteruser", "");
        rc.rememberInteger("maxclients", 10000, 1, 4294967295L);
        rc.rememberUnsignedMemory("maxmemory", 0);
        rc.rememberParsed("maxmemory-clients", "0", RedisConfigCatalog::checkMemoryOrPercent);
        rc.rememberInteger("maxmemory-eviction-tenacity", 10, 0, 100);
        rc.rememberEnum("maxmemory-policy", "noeviction", List.of("volatile-lru", "volatile-lfu", "volatile-random",
                "volatile-ttl", "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction"));
        rc.rememberInteger("maxmemory-samples", 5, 1, Integer.MAX_VALUE);
        rc.rememberInteger("min-replicas-max-lag", 10, 0, Integer.MAX_VALUE, "min-slaves-max-lag");
        rc.rememberInteger("min-replicas-to-write", 0, 0, Integer.MAX_VALUE, "min-slaves-to-write");
        rc.rememberBool("no-appendfsync-on-rewrite", false);
        rc.rememberParsed("notify-keyspace-events", "", RedisConfigCatalog::normalizeKeyspaceEvents);
        rc.rememberEnum("oom-score-adj", "no", List.of("no", "yes", "relative", "absolute"));
        rc.rememberParsed("oom-score-adj-values", "0 200 800", RedisConfigCatalog::checkOomScoreAdjValues);
        rc.readOnly("pidfile", () -> "");
        rc.readOnly("port", () -> "0");
        rc.remember("proc-title-template", "{title} {listen-addr} {server-mode}");
        rc.rememberEnum("propagation-error-behavior", "ignore", List.of("ignore", "panic", "panic-on-replicas"));
        rc.rememberBool("protected-mode", true);
        rc.rememberMemory("proto-max-bulk-len", 536870912, 1048576, Long.MAX_VALUE);
        rc.rememberBool("rdb-del-sync-files", false);
        rc.rememberBool("rdb-save-incremental-fsync", true);
        rc.readOnly("rdbchecksum", () -> "yes");
        rc.rememberBool("rdbcompression", true);
        rc.rememberMemory("repl-backlog-size", 1048576, 1, Long.MAX_VALUE);
        rc.rememberInteger("repl-backlog-ttl", 3600, 0, Long.MAX_VALUE);
        rc.rememberBool("repl-disable-tcp-nodelay", false);
        rc.rememberEnum("repl-diskless-load", "disabled", List.of("disabled", "on-empty-db", "swapdb"));
        rc.rememberBool("repl-diskless-sync", true);
        rc.rememberInteger("repl-diskless-sync-delay", 5, 0, Integer.MAX_VALUE);
        rc.rememberInteger("repl-diskless-sync-max-replicas", 0, 0, Integer.MAX_VALUE);
        rc.rememberInteger("repl-ping-replica-period", 10, 1, Integer.MAX_VALUE, "repl-ping-slave-period");
        rc.rememberInteger("repl-timeout", 60, 1, Integer.MAX_VALUE);
        rc.remember("replica-announce-ip", "", "slave-announce-ip");
        rc.rememberInteger("replica-announce-port", 0, 0, 65535, "slave-announce-port");
        rc.rememberBool("replica-announced", true);
        rc.rememberBool("replica-ignore-disk-write-errors", false);
        rc.rememberBool("replica-ignore-maxmemory", true, "slave-ignore-maxmemory");
        rc.rememberBool("replica-lazy-flush", false, "slave-lazy-flush");
        rc.rememberInteger("replica-priority", 100, 0, Integer.MAX_VALUE, "slave-priority");
        rc.rememberBool("replica-read-only", true, "slave-read-only");
        rc.rememberBool("replica-serve-stale-data", true, "slave-serve-stale-data");
        rc.readOnly("replicaof", () -> "");
        rc.readOnly("slaveof", () -> "");
        rc.remember("requirepass", "");
        rc.rememberEnum("sanitize-dump-payload", "no", List.of("no", "yes", "clients"));
        rc.rememberParsed("save", "", RedisConfigCatalog::normalizeSave);
        rc.readOnly("server_cpulist", () -> "");
        rc.rememberInteger("set-max-intset-entries", 512, 0, Long.MAX_VALUE);
        rc.readOnly("set-proc-title", () -> "yes");
        rc.rememberEnum("shutdown-on-sigint", "default", List.of("default", "save", "nosave", "now", "force"));
        rc.rememberEnum("shutdown-on-sigterm", "default", List.of("default", "save", "nosave", "now", "force"));
        rc.rememberInteger("shutdown-timeout", 10, 0, Integer.MAX_VALUE);
        rc.rememberInteger("slowlog-log-slower-than", 10000, -1, Long.MAX_VALUE);
        rc.rememberInteger("slowlog-max-len", 128, 0, Long.MAX_VALUE);
        rc.readOnly("socket-mark-id", () -> "0");
        rc.rememberBool("stop-writes-on-bgsave-error", true);
        rc.rememberMemory("stream-node-max-bytes", 4096, 0, Long.MAX_VALUE);
        rc.rememberInteger("stream-node-max-entries", 100, 0, Long.MAX_VALUE);
        rc.readOnly("supervised", () -> "no");
        rc.readOnly("syslog-enabled", () -> "no");
        rc.readOnly("syslog-facility", () -> "local0");
        rc.readOnly("syslog-ident", () -> "redis");
        rc.readOnly("tcp-backlog", () -> "511");
        rc.rememberInteger("tcp-keepalive", 300, 0, Integer.MAX_VALUE);
        rc.rememberInteger("timeout", 0, 0, Integer.MAX_VALUE);
        rc.rememberEnum("tls-auth-clients", "yes", List.of("no", "yes", "optional"));
        rc.remember("tls-ca-cert-dir", "");
        rc.remember("tls-ca-cert-file", "");
        rc.remember("tls-cert-file", "");
        rc.remember("tls-ciphers", "");
        rc.remember("tls-ciphersuites", "");
        rc.remember("tls-client-cert-file", "");
        rc.remember("tls-client-key-file", "");
        rc.remember("tls-client-key-file-pass", "");
        rc.rememberBool("tls-cluster", false);
        rc.remember("tls-dh-params-file", "");
        rc.remember("tls-key-file", "");
        rc.remember("tls-key-file-pass", "");
        rc.rememberInteger("tls-port", 0, 0, 65535);
        rc.rememberBool("tls-prefer-server-ciphers", false);
        rc.remember("tls-protocols", "");
        rc.rememberBool("tls-replication", false);
        rc.rememberInteger("tls-session-cache-size", 20480, 0, Integer.MAX_VALUE);
        rc.rememberInteger("tls-session-cache-timeout", 300, 0, Integer.MAX_VALUE);
        rc.rememberBool("tls-session-caching", true);
        rc.rememberInteger("tracking-table-max-keys", 1000000, 0, Long.MAX_VALUE);
        rc.readOnly("unixsocket", () -> "");
        rc.readOnly("unixsocketperm", () -> "0");
        rc.rememberInteger("zset-max-listpack-entries", 128, 0, Long.MAX_VALUE, "zset-max-ziplist-entries");
        rc.rememberMemory("zset-max-listpack-value", 64, 0, Long.MAX_VALUE, "zset-max-ziplist-value");
    }

    /** Splits a multi-argument value as Redis 7.0 does: on single spaces; the empty string has no arguments. */
    static String[] splitArgs(String v) {
        return v.isEmpty() ? new String[0] : v.split(" ", -1);
    }

    /**
     * C's {@code strtoll} with a full-string check: optional leading whitespace and sign, then digits; the empty
     * string is 0. Returns null when anything else follows.
     */
    static Long strtollFull(String s) {
        if (s.isEmpty()) {
            return 0L;
        }
        int i = 0;
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        if (i == digits || i != s.length() || i - digits > 18) {
            return null;
        }
        return Long.parseLong(s.substring(start, i));
    }

    /** {@code save}: pairs of seconds (at least 1) and changes (at least 0), printed canonically. */
    public static String normalizeSave(String v) {
        String[] args = splitArgs(v);
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("Invalid save parameters");
        }
        List<String> out = new ArrayList<>();
        for (int j = 0; j < args.length; j++) {
            Long n = strtollFull(args[j]);
            if (n == null || (j % 2 == 0 && n < 1) || (j % 2 == 1 && n < 0)) {
                throw new IllegalArgumentException("Invalid save parameters");
            }
            out.add(j % 2 == 0 ? Long.toString(n) : Integer.toString((int) (long) n));
        }
        return String.join(" ", out);
    }

    /**
     * {@code client-output-buffer-limit}: groups of {@code <class> <hard> <soft> <soft-seconds>} (classes normal,
     * replica/slave, pubsub; memory values) applied over {@code current}.
     *
     * @return the full canonical value: {@code normal h s t slave h s t pubsub h s t}
     */
    public static String mergeOutputBufferLimits(String current, String update) {
        Map<String, long[]> classes = parseOutputBufferLimits(current);
        String[] args = splitArgs(update);
        if (args.length % 4 != 0) {
            throw new IllegalArgumentException("Wrong number of arguments in buffer limit configuration.");
        }
        Map<String, long[]> updates = new LinkedHashMap<>();
        for (int j = 0; j < args.length; j += 4) {
            String cls = switch (args[j].toLowerCase(Locale.ROOT)) {
                case "normal" -> "normal";
                case "slave", "replica" -> "slave";
                case "pubsub" -> "pubsub";
                default -> throw new IllegalArgumentException(
                        "Invalid client class specified in buffer limit configuration.");
            };
            long[] limits = new long[3];
            for (int k = 0; k < 3; k++) {
                try {
                    limits[k] = RuntimeConfig.parseMemory(args[j + k + 1], 0, Long.MAX_VALUE);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "Error in hard, soft or soft_seconds setting in buffer limit configuration.");
                }
            }
            updates.put(cls, limits);
        }
        classes.putAll(updates);
        StringBuilder sb = new StringBuilder();
        classes.forEach((cls, l) -> sb.append(sb.length() == 0 ? "" : " ").append(cls).append(' ').append(l[0])
                .append(' ').append(l[1]).append(' ').append(l[2]));
        return sb.toString();
    }

    /** The normal clients' hard limit in a canonical {@code client-output-buffer-limit} value, bytes. */
    public static long normalHardLimit(String canonical) {
        return parseOutputBufferLimits(canonical).get("normal")[0];
    }

    private static Map<String, long[]> parseOutputBufferLimits(String canonical) {
        Map<String, long[]> m = new LinkedHashMap<>();
        String[] a = canonical.split(" ");
        for (int j = 0; j + 3 < a.length; j += 4) {
            m.put(a[j], new long[] {Long.parseLong(a[j + 1]), Long.parseLong(a[j + 2]), Long.parseLong(a[j + 3])});
        }
        return m;
    }

    /**
     * {@code notify-keyspace-events}: the classes of {@code Ag$lshzxeKEtmdn}, printed as Redis 7.0's
     * {@code keyspaceEventsFlagsToString} does ({@code A} for all of {@code g$lshzxet}, which then hides
     * {@code d} and {@code n}, as in Redis; {@code K}, {@code E}, {@code m} last).
     */
    public static String normalizeKeyspaceEvents(String v) {
        final String all = "g$lshzxet";
        final String order = "g$lshzxetdn";
        java.util.Set<Character> set = new java.util.HashSet<>();
        for (char c : v.toCharArray()) {
            if (c == 'A') {
                all.chars().forEach(x -> set.add((char) x));
            } else if ((order + "KEm").indexOf(c) >= 0) {
                set.add(c);
            } else {
                throw new IllegalArgumentException("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
            }
        }
        StringBuilder sb = new StringBuilder();
        if (all.chars().allMatch(x -> set.contains((char) x))) {
            sb.append('A');
        } else {
            for (char c : order.toCharArray()) {
                if (set.contains(c)) {
                    sb.append(c);
                }
            }
        }
        for (char c : "KEm".toCharArray()) {
            if (set.contains(c)) {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** {@code oom-score-adj-values}: three integers in [-2000, 2000]. */
    static String checkOomScoreAdjValues(String v) {
        String[] args = splitArgs(v);
        if (args.length != 3) {
            throw new IllegalArgumentException("wrong number of arguments");
        }
        List<String> out = new ArrayList<>();
        for (String a : args) {
            Long n = strtollFull(a);
            if (n == null || n < -2000 || n > 2000) {
                throw new IllegalArgumentException(
                        "Invalid oom-score-adj-values, elements must be between -2000 and 2000.");
            }
            out.add(Long.toString(n));
        }
        return String.join(" ", out);
    }

    /** {@code latency-tracking-info-percentiles}: floats in [0, 100], printed as {@code %f} without trailing zeros. */
    static String checkPercentiles(String v) {
        String[] args = splitArgs(v);
        List<String> out = new ArrayList<>();
        for (String a : args) {
            double d = RedisNumbers.parseDoubleOrNaN(Bytes.utf8(a));
            if (Double.isNaN(d)) {
                throw new IllegalArgumentException("Invalid latency-tracking-info-percentiles parameters");
            }
            if (d > 100.0 || d < 0.0) {
                throw new IllegalArgumentException(
                        "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]");
            }
            String f = String.format(Locale.ROOT, "%f", d);
            f = f.replaceAll("0+$", "");
            out.add(f.endsWith(".") ? f.substring(0, f.length() - 1) : f);
        }
        return String.join(" ", out);
    }

    /** {@code maxmemory-clients}: a memory value, or a percentage up to 100 written {@code N%}. */
    public static String checkMemoryOrPercent(String v) {
        if (v.length() > 1 && v.endsWith("%")) {
            Long p = RedisNumbers.isLong(Bytes.utf8(v.substring(0, v.length() - 1)))
                    ? RedisNumbers.parseLong(Bytes.utf8(v.substring(0, v.length() - 1))) : null;
            if (p != null) {
                if (p > 100) {
                    throw new IllegalArgumentException("percentage argument must be less or equal to 100");
                }
                if (p < 0) {
                    throw new IllegalArgumentException("argument must be a memory or percent value");
                }
                return p == 0 ? "0" : p + "%"; // Redis keeps 0% as 0 (no limit)
            }
        }
        try {
            return Long.toString(RuntimeConfig.parseMemory(v, 0, Long.MAX_VALUE));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("argument must be a memory or percent value");
        }
    }
}
