package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Engine;
import io.kevy.engine.ServerInfo;
import io.kevy.engine.text.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * INFO [section ...] in Redis 7.0's shape: {@code # Title} headers, {@code field:value} lines, CRLF endings, one
 * blank line between sections, the sections always in Redis's order. Without arguments (or {@code default}) the
 * default sections; {@code all} adds commandstats and latencystats; {@code everything} is the same as all; other
 * names select sections case-insensitively, unknown ones are ignored.
 *
 * <p>Fields follow Redis 7.0's names and order. Values kevy has are real (keyspace, hits, errors, commands,
 * memory from the JVM heap, CPU from the process); values of machinery kevy does not have (replication, Lua,
 * forks, defrag) are Redis's neutral values. The host (network server) adds its own values through
 * {@link io.kevy.engine.Host#info}. Sections registered with {@link Engine#registerInfoSection} come after
 * keyspace, in every selection that is not an explicit list without them; one registered under a built-in name
 * ({@code persistence}) overlays the built-in section: its fields replace the built-in values of the same name
 * and the others follow, so the section keeps Redis's complete field list. Latencystats is always empty (kevy keeps no
 * latency histograms; {@code latency-tracking} is {@code no}).
 */
final class InfoCommand {
    /** Every built-in section, in output order. */
    static final List<String> SECTIONS = List.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "modules", "commandstats", "errorstats", "latencystats", "cluster", "keyspace");
    /** The sections of plain INFO. */
    static final Set<String> DEFAULT_SECTIONS = Set.of("server", "clients", "memory", "persistence", "stats",
            "replication", "cpu", "modules", "errorstats", "cluster", "keyspace");

    private InfoCommand() {
    }

    static void register(CommandTable t) {
        t.add(command("info", -1).flags(LOADING, STALE).group("server").since("1.0.0")
                .summary("Get information and statistics about the server").complexity("O(1)").acl("dangerous")
                .tips("nondeterministic_output", "request_policy:all_shards", "response_policy:special")
                .handler(c -> c.reply().verbatim(Bytes.utf8(render(c, selection(c))), "txt")));
    }

    /** The selected section names (lower case) for the arguments of {@code c}. */
    private static Set<String> selection(Call c) {
        Set<String> registered = c.engine().infoSections().keySet();
        Set<String> out = new LinkedHashSet<>();
        if (c.argc() == 1) {
            out.addAll(DEFAULT_SECTIONS);
            out.addAll(registered);
            return out;
        }
        for (int i = 1; i < c.argc(); i++) {
            String a = Bytes.lowerAscii(c.arg(i));
            switch (a) {
                case "default" -> {
                    out.addAll(DEFAULT_SECTIONS);
                    out.addAll(registered);
                }
                case "all", "everything" -> {
                    out.addAll(SECTIONS);
                    out.addAll(registered);
                }
                case "module_list" -> out.add("modules");
                default -> out.add(a);
            }
        }
        return out;
    }

    /** The whole INFO text for the {@code selected} sections. */
    static String render(Call c, Set<String> selected) {
        Map<String, Consumer<StringBuilder>> registered = c.engine().infoSections();
        List<String> order = new ArrayList<>(SECTIONS);
        for (String name : registered.keySet()) {
            if (!order.contains(name)) {
                order.add(name);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String name : order) {
            if (!selected.contains(name)) {
                continue;
            }
            if (sb.length() > 0) {
                sb.append("\r\n");
            }
            sb.append("# ").append(title(name)).append("\r\n");
            Consumer<StringBuilder> custom = registered.get(name);
            if (custom != null && !SECTIONS.contains(name)) {
                custom.accept(sb);
            } else {
                builtIn(c, name, custom, sb);
            }
        }
        return sb.toString();
    }

    private static String title(String name) {
        if (name.equals("cpu")) {
            return "CPU";
        }
        return name.isEmpty() ? name : Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    private static void builtIn(Call c, String name, Consumer<StringBuilder> overlay, StringBuilder sb) {
        Engine e = c.engine();
        switch (name) {
            case "commandstats" -> commandStats(c.dispatcher(), sb);
            case "errorstats" -> e.errorCounts().forEach((code, n) ->
                    sb.append("errorstat_").append(code).append(":count=").append(n).append("\r\n"));
            case "keyspace" -> keyspace(e, sb);
            case "modules", "latencystats" -> {
            }
            default -> {
                Map<String, String> fields = new LinkedHashMap<>();
                switch (name) {
                    case "server" -> server(c, fields);
                    case "clients" -> clients(e, fields);
                    case "memory" -> InfoFields.memory(e, fields);
                    case "persistence" -> InfoFields.persistence(e, fields);
                    case "stats" -> InfoFields.stats(e, c.dispatcher().commandStats(), fields);
                    case "replication" -> InfoFields.replication(e, fields);
                    case "cpu" -> InfoFields.cpu(fields);
                    case "cluster" -> fields.put("cluster_enabled", "0");
                    default -> {
                        return;
                    }
                }
                e.host().info(name, fields);
                if (overlay != null && name.equals("replication")) {
                    fields.clear(); // replication writes the whole section, in Redis's order (role first)
                }
                if (overlay != null) {
                    StringBuilder o = new StringBuilder();
                    overlay.accept(o);
                    for (String line : o.toString().split("\r\n")) {
                        int colon = line.indexOf(':');
                        if (colon > 0) {
                            fields.put(line.substring(0, colon), line.substring(colon + 1));
                        }
                    }
                }
                fields.forEach((k, v) -> sb.append(k).append(':').append(v).append("\r\n"));
            }
        }
    }

    private static void server(Call c, Map<String, String> f) {
        Engine e = c.engine();
        long now = c.now();
        long uptime = Math.max(0, (now - e.startedAtMs()) / 1000);
        f.put("redis_version", ServerInfo.REDIS_VERSION);
        f.put("redis_git_sha1", "00000000");
        f.put("redis_git_dirty", "0");
        f.put("redis_build_id", "0");
        f.put("redis_mode", "standalone");
        f.put("os", InfoFields.os());
        f.put("arch_bits", "64".equals(System.getProperty("sun.arch.data.model")) ? "64" : "32");
        f.put("monotonic_clock", "POSIX clock_gettime");
        f.put("multiplexing_api", "none");
        f.put("atomicvar_api", "c11-builtin");
        f.put("gcc_version", "0.0.0");
        f.put("process_id", Long.toString(ProcessHandle.current().pid()));
        f.put("process_supervised", "no");
        f.put("run_id", e.runId());
        f.put("tcp_port", "0");
        f.put("server_time_usec", Long.toString(now * 1000));
        f.put("uptime_in_seconds", Long.toString(uptime));
        f.put("uptime_in_days", Long.toString(uptime / 86400));
        f.put("hz", Integer.toString(e.hz()));
        f.put("configured_hz", Integer.toString(e.hz()));
        f.put("lru_clock", Long.toString((now / 1000) & ((1 << 24) - 1)));
        f.put("executable", ProcessHandle.current().info().command().orElse(""));
        f.put("config_file", "");
        f.put("io_threads_active", "0");
        f.put("kevy_shards", Integer.toString(e.shardCount()));
    }

    private static void clients(Engine e, Map<String, String> f) {
        f.put("connected_clients", Integer.toString(e.sessions().size()));
        f.put("cluster_connections", "0");
        f.put("maxclients", String.valueOf(e.runtimeConfig().get("maxclients")));
        f.put("client_recent_max_input_buffer", "0");
        f.put("client_recent_max_output_buffer", "0");
        f.put("blocked_clients", Integer.toString(e.sessions().blockedCount()));
        f.put("tracking_clients", Integer.toString(e.tracking().clients()));
        f.put("clients_in_timeout_table", "0");
    }

    /** Redis 7.0's commandstats lines, subcommands after their container. */
    private static void commandStats(Dispatcher d, StringBuilder sb) {
        for (CommandSpec spec : d.commands().all()) {
            commandStat(spec, d.commandStats().of(spec), sb);
            for (CommandSpec sub : spec.subcommands().values()) {
                commandStat(sub, d.commandStats().of(sub), sb);
            }
        }
    }

    private static void commandStat(CommandSpec s, CommandStats.Counters c, StringBuilder sb) {
        long calls = c.calls();
        if (calls == 0 && c.failed() == 0 && c.rejected() == 0) {
            return;
        }
        long usec = c.micros();
        float perCall = calls == 0 ? 0 : (float) usec / calls;
        sb.append("cmdstat_").append(s.name()).append(":calls=").append(calls).append(",usec=").append(usec)
                .append(",usec_per_call=").append(InfoFields.fixed2(perCall))
                .append(",rejected_calls=").append(c.rejected())
                .append(",failed_calls=").append(c.failed()).append("\r\n");
    }

    /** {@code db0:keys=N,expires=M,avg_ttl=0}, omitted when the keyspace is empty (as Redis). */
    private static void keyspace(Engine e, StringBuilder sb) {
        long[] counts = InfoFields.keysAndExpires(e);
        if (counts[0] > 0) {
            sb.append(String.format(Locale.ROOT, "db0:keys=%d,expires=%d,avg_ttl=0\r\n", counts[0], counts[1]));
        }
    }
}
