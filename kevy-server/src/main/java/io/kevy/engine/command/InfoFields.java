package io.kevy.engine.command;

import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * The field lists of INFO's memory, persistence, stats, replication and cpu sections (Redis 7.0 names and order;
 * see {@link InfoCommand}), and the number formats INFO uses.
 *
 * <p>Memory figures are the JVM's: {@code used_memory} is the heap in use, {@code used_memory_rss} the resident
 * set of the process (from {@code /proc/self/statm} when readable, else the committed heap), the peak is the
 * largest {@code used_memory} INFO has seen in this JVM. Thread-safe.
 */
final class InfoFields {
    private static final AtomicLong PEAK = new AtomicLong();
    private static final long STARTUP = usedHeap();
    private static final String ZERO_ID = "0000000000000000000000000000000000000000";

    private InfoFields() {
    }

    /** Runs {@code read} on each shard in turn, under that shard's lock. */
    static void eachShardLocked(Engine e, Consumer<Shard> read) {
        for (int i = 0; i < e.shardCount(); i++) {
            Shard s = e.shard(i);
            s.lock().lock();
            try {
                read.accept(s);
            } finally {
                s.lock().unlock();
            }
        }
    }

    /** The sum of {@code read} over the shards, each read under its shard's lock. */
    static long sumOverShards(Engine e, ToLongFunction<Shard> read) {
        long[] sum = new long[1];
        eachShardLocked(e, s -> sum[0] += read.applyAsLong(s));
        return sum[0];
    }

    /**
     * {@code {keys, keys with an expiry}} over all shards, each shard's pair read under its lock (INFO keyspace,
     * MEMORY STATS).
     */
    static long[] keysAndExpires(Engine e) {
        long[] out = new long[2];
        eachShardLocked(e, s -> {
            out[0] += s.keyspace().size();
            out[1] += s.keyspace().expiresSize();
        });
        return out;
    }

    /** Puts {@code value} for each of {@code keys}: the fields kevy has no counterpart for. */
    private static void putAll(Map<String, String> f, String value, String... keys) {
        for (String k : keys) {
            f.put(k, value);
        }
    }

    static void memory(Engine e, Map<String, String> f) {
        long used = usedHeap();
        long peak = peak(used);
        long rss = rss();
        long startup = startup(used);
        long maxmemory = parseUnsigned(e.runtimeConfig().get("maxmemory"));
        f.put("used_memory", Long.toString(used));
        f.put("used_memory_human", human(used));
        f.put("used_memory_rss", Long.toString(rss));
        f.put("used_memory_rss_human", human(rss));
        f.put("used_memory_peak", Long.toString(peak));
        f.put("used_memory_peak_human", human(peak));
        f.put("used_memory_peak_perc", fixed2(peak == 0 ? 0 : 100.0f * used / peak) + "%");
        f.put("used_memory_overhead", Long.toString(startup));
        f.put("used_memory_startup", Long.toString(startup));
        f.put("used_memory_dataset", Long.toString(used - startup));
        f.put("used_memory_dataset_perc", fixed2(used == 0 ? 0 : 100.0f * (used - startup) / used) + "%");
        f.put("allocator_allocated", Long.toString(used));
        f.put("allocator_active", Long.toString(Runtime.getRuntime().totalMemory()));
        f.put("allocator_resident", Long.toString(rss));
        long total = totalSystemMemory();
        f.put("total_system_memory", Long.toString(total));
        f.put("total_system_memory_human", human(total));
        putAll(f, "0", "used_memory_lua", "used_memory_vm_eval");
        f.put("used_memory_lua_human", "0B");
        putAll(f, "0", "used_memory_scripts_eval", "number_of_cached_scripts", "number_of_functions",
                "number_of_libraries", "used_memory_vm_functions", "used_memory_vm_total");
        f.put("used_memory_vm_total_human", "0B");
        f.put("used_memory_functions", "0");
        f.put("used_memory_scripts", "0");
        f.put("used_memory_scripts_human", "0B");
        f.put("maxmemory", Long.toUnsignedString(maxmemory));
        f.put("maxmemory_human", human(maxmemory));
        f.put("maxmemory_policy", String.valueOf(e.runtimeConfig().get("maxmemory-policy")));
        f.put("allocator_frag_ratio", "1.00");
        f.put("allocator_frag_bytes", "0");
        f.put("allocator_rss_ratio", "1.00");
        f.put("allocator_rss_bytes", "0");
        f.put("rss_overhead_ratio", "1.00");
        f.put("rss_overhead_bytes", "0");
        f.put("mem_fragmentation_ratio", fixed2(used == 0 ? 0 : (float) rss / used));
        f.put("mem_fragmentation_bytes", Long.toString(rss - used));
        putAll(f, "0", "mem_not_counted_for_evict", "mem_replication_backlog",
                "mem_total_replication_buffers", "mem_clients_slaves", "mem_clients_normal", "mem_cluster_links",
                "mem_aof_buffer");
        f.put("mem_allocator", "jvm");
        f.put("active_defrag_running", "0");
        f.put("lazyfree_pending_objects", "0");
        f.put("lazyfreed_objects", "0");
    }

    /** Neutral values until persistence registers its own section (rdb_changes_since_last_save is real). */
    static void persistence(Engine e, Map<String, String> f) {
        long dirty = sumOverShards(e, Shard::dirty);
        putAll(f, "0", "loading", "async_loading", "current_cow_peak", "current_cow_size",
                "current_cow_size_age");
        f.put("current_fork_perc", "0.00");
        f.put("current_save_keys_processed", "0");
        f.put("current_save_keys_total", "0");
        f.put("rdb_changes_since_last_save", Long.toString(dirty));
        f.put("rdb_bgsave_in_progress", "0");
        f.put("rdb_last_save_time", Long.toString(e.lastSaveSeconds()));
        f.put("rdb_last_bgsave_status", "ok");
        f.put("rdb_last_bgsave_time_sec", "-1");
        f.put("rdb_current_bgsave_time_sec", "-1");
        f.put("rdb_saves", "0");
        f.put("rdb_last_cow_size", "0");
        f.put("rdb_last_load_keys_expired", "0");
        f.put("rdb_last_load_keys_loaded", "0");
        f.put("aof_enabled", "yes".equals(e.runtimeConfig().get("appendonly")) ? "1" : "0");
        f.put("aof_rewrite_in_progress", "0");
        f.put("aof_rewrite_scheduled", "0");
        f.put("aof_last_rewrite_time_sec", "-1");
        f.put("aof_current_rewrite_time_sec", "-1");
        f.put("aof_last_bgrewrite_status", "ok");
        f.put("aof_rewrites", "0");
        f.put("aof_rewrites_consecutive_failures", "0");
        f.put("aof_last_write_status", "ok");
        f.put("aof_last_cow_size", "0");
        f.put("module_fork_in_progress", "0");
        f.put("module_fork_last_cow_size", "0");
    }

    static void stats(Engine e, CommandStats commandStats, Map<String, String> f) {
        long expired = sumOverShards(e, Shard::expiredKeys);
        long commands = commandStats.totalCalls();
        f.put("total_connections_received", "0");
        f.put("total_commands_processed", Long.toString(commands));
        f.put("instantaneous_ops_per_sec", "0");
        putAll(f, "0", "total_net_input_bytes", "total_net_output_bytes", "total_net_repl_input_bytes",
                "total_net_repl_output_bytes");
        putAll(f, "0.00", "instantaneous_input_kbps", "instantaneous_output_kbps",
                "instantaneous_input_repl_kbps", "instantaneous_output_repl_kbps");
        putAll(f, "0", "rejected_connections", "sync_full", "sync_partial_ok", "sync_partial_err");
        f.put("expired_keys", Long.toString(expired));
        f.put("expired_stale_perc", "0.00");
        putAll(f, "0", "expired_time_cap_reached_count", "expire_cycle_cpu_milliseconds",
                "evicted_keys", "evicted_clients", "total_eviction_exceeded_time", "current_eviction_exceeded_time");
        f.put("keyspace_hits", Long.toString(e.keyspaceHits()));
        f.put("keyspace_misses", Long.toString(e.keyspaceMisses()));
        f.put("pubsub_channels", Integer.toString(e.channelCounts().channelCount()));
        f.put("pubsub_patterns", Integer.toString(e.channelCounts().patternCount()));
        f.put("pubsubshard_channels", Integer.toString(e.channelCounts().shardChannelCount()));
        putAll(f, "0", "latest_fork_usec", "total_forks", "migrate_cached_sockets", "slave_expires_tracked_keys",
                "active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits", "active_defrag_key_misses",
                "total_active_defrag_time", "current_active_defrag_time");
        f.put("tracking_total_keys", Long.toString(e.tracking().keys()));
        f.put("tracking_total_items", Long.toString(e.tracking().items()));
        f.put("tracking_total_prefixes", Long.toString(e.tracking().prefixes()));
        f.put("unexpected_error_replies", "0");
        f.put("total_error_replies", Long.toString(e.errorReplies()));
        putAll(f, "0", "dump_payload_sanitizations", "total_reads_processed",
                "total_writes_processed", "io_threaded_reads_processed", "io_threaded_writes_processed",
                "reply_buffer_shrinks", "reply_buffer_expands");
    }

    static void replication(Engine e, Map<String, String> f) {
        f.put("role", "master");
        f.put("connected_slaves", "0");
        f.put("master_failover_state", "no-failover");
        f.put("master_replid", e.replId());
        f.put("master_replid2", ZERO_ID);
        f.put("master_repl_offset", "0");
        f.put("second_repl_offset", "-1");
        f.put("repl_backlog_active", "0");
        f.put("repl_backlog_size", String.valueOf(e.runtimeConfig().get("repl-backlog-size")));
        f.put("repl_backlog_first_byte_offset", "0");
        f.put("repl_backlog_histlen", "0");
    }

    /** Process CPU from /proc/self/stat (else the JVM's total as user time); "main thread" is the caller's. */
    static void cpu(Map<String, String> f) {
        double[] proc = processCpuSeconds();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double threadUser = 0;
        double threadSys = 0;
        if (threads.isCurrentThreadCpuTimeSupported()) {
            long cpuNs = threads.getCurrentThreadCpuTime();
            long userNs = threads.getCurrentThreadUserTime();
            threadUser = userNs / 1e9;
            threadSys = Math.max(0, cpuNs - userNs) / 1e9;
        }
        f.put("used_cpu_sys", cpuSeconds(proc[1]));
        f.put("used_cpu_user", cpuSeconds(proc[0]));
        f.put("used_cpu_sys_children", "0.000000");
        f.put("used_cpu_user_children", "0.000000");
        f.put("used_cpu_sys_main_thread", cpuSeconds(threadSys));
        f.put("used_cpu_user_main_thread", cpuSeconds(threadUser));
    }

    /** {@code [user, system]} CPU seconds of the process. */
    private static double[] processCpuSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] p = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields 14 (utime) and 15 (stime) of proc(5), counted from the state field (3) here
            return new double[] {Long.parseLong(p[11]) / 100.0, Long.parseLong(p[12]) / 100.0};
        } catch (IOException | RuntimeException e) {
            java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
            if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
                return new double[] {Math.max(0, sun.getProcessCpuTime()) / 1e9, 0};
            }
            return new double[] {0, 0};
        }
    }

    private static String cpuSeconds(double s) {
        return String.format(Locale.ROOT, "%.6f", s);
    }

    static String os() {
        String arch = System.getProperty("os.arch", "");
        if (arch.equals("amd64")) {
            arch = "x86_64";
        }
        return System.getProperty("os.name", "") + " " + System.getProperty("os.version", "") + " " + arch;
    }

    /** The largest heap use seen so far in this JVM, {@code used} included. */
    static long peak(long used) {
        return PEAK.accumulateAndGet(used, Math::max);
    }

    /** The heap in use when INFO was first loaded (Redis's {@code used_memory_startup}), at most {@code used}. */
    static long startup(long used) {
        return Math.min(STARTUP, used);
    }

    static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    static long rss() {
        try {
            String[] statm = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
            return Long.parseLong(statm[1]) * 4096;
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().totalMemory();
        }
    }

    private static long totalSystemMemory() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getTotalMemorySize();
        }
        return 0;
    }

    private static long parseUnsigned(String s) {
        try {
            return s == null ? 0 : Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }


    /**
     * Redis's {@code bytesToHuman}: {@code 512B}, {@code 1.50K}, {@code 2.00M}, {@code 3.25G}, ... (1024-based,
     * two decimals).
     */
    /** Redis's {@code bytesToHuman} of the unsigned value {@code n}: B up to P, past 1024 P the bytes again. */
    static String human(long n) {
        if (n >= 0 && n < 1024) {
            return n + "B";
        }
        if (n < 0 || n >= 1L << 60) {
            return Long.toUnsignedString(n) + "B";
        }
        String[] units = {"K", "M", "G", "T", "P"};
        double d = n;
        int u = -1;
        while (u < units.length - 1 && d >= 1024) {
            d /= 1024;
            u++;
        }
        return fixed2(d) + units[u];
    }

    /** C's {@code %.2f} (exact binary value, ties to even), e.g. {@code 4.50}. */
    static String fixed2(double d) {
        return new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
