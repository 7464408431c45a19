package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.Glob;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CONFIG GET / SET / RESETSTAT / REWRITE / HELP over the engine's {@link RuntimeConfig} (Redis 7.0 semantics:
 * several patterns per GET, several pairs per SET applied all or nothing).
 *
 * <p>kevy differences: CONFIG REWRITE writes the replication settings ({@code replicaof}, {@code masterauth},
 * {@code replica-*}) into the TOML file the server was started with, keeping its other lines and comments, and
 * leaves the other settings' lines alone (kevy-server's {@code ConfigRewrite}); without a config file it answers
 * Redis's {@code -ERR The server is running without a config file}. Redis Sentinel sends it inside its failover
 * transaction, so a promoted server's file loses its {@code replicaof} (docs/operations.md, "Replication and
 * Sentinel"). The order of CONFIG GET's pairs is registration order (Redis's is its hash table's order, which
 * clients must not rely on).
 */
final class ConfigCommands {
    private ConfigCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("config", -2).group("server").since("2.0.0")
                .summary("A container for server configuration commands").complexity("Depends on subcommand.")
                .subcommand(sub("get", -3, "Get the values of configuration parameters", "2.0.0",
                        "O(N) when N is the number of configuration parameters provided")
                        .handler(ConfigCommands::get))
                .subcommand(sub("set", -4, "Set configuration parameters to the given values", "2.0.0",
                        "O(N) when N is the number of configuration parameters provided")
                        .tips("request_policy:all_nodes", "response_policy:all_succeeded")
                        .handler(ConfigCommands::set))
                .subcommand(sub("resetstat", 2, "Reset the stats returned by INFO", "2.0.0", "O(1)").handler(c -> {
                    c.engine().resetStats();
                    c.dispatcher().commandStats().reset();
                    c.reply().ok();
                }))
                .subcommand(sub("rewrite", 2, "Rewrite the configuration file with the in memory configuration "
                        + "(kevy: the replication settings, in the TOML file)", "2.8.0", "O(1)")
                        .handler(ConfigCommands::rewrite))
                .subcommand(command("help", 2).flags(LOADING, STALE).since("5.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(c -> HelpReply.write(c.reply(), "CONFIG",
                                "GET <pattern>",
                                "    Return parameters matching the glob-like <pattern> and their values.",
                                "SET <directive> <value>",
                                "    Set the configuration <directive> to <value>.",
                                "RESETSTAT",
                                "    Reset statistics reported by the INFO command.",
                                "REWRITE",
                                "    Rewrite the configuration file."))));
    }

    private static CommandSpec.Builder sub(String name, int arity, String summary, String since, String complexity) {
        return command(name, arity).flags(ADMIN, NOSCRIPT, LOADING, STALE).since(since).summary(summary)
                .complexity(complexity);
    }

    /**
     * CONFIG GET pattern [pattern ...]: a name without glob characters is looked up exactly and echoed as given;
     * a pattern matches names case-insensitively (aliases included). Each parameter is listed once.
     */
    private static void get(Call c) {
        RuntimeConfig rc = c.engine().runtimeConfig();
        Map<String, String> matches = new LinkedHashMap<>();
        List<String> names = null;
        for (int i = 2; i < c.argc(); i++) {
            String arg = Bytes.str(c.arg(i));
            if (arg.indexOf('*') < 0 && arg.indexOf('?') < 0 && arg.indexOf('[') < 0) {
                String lower = arg.toLowerCase(Locale.ROOT);
                RuntimeConfig.Param p = rc.lookup(arg);
                if (p != null && !containsIgnoreCase(matches, lower)) {
                    matches.put(arg, p.get());
                }
                continue;
            }
            if (names == null) {
                names = rc.names();
            }
            for (String name : names) {
                if (!containsIgnoreCase(matches, name) && Glob.matches(c.arg(i), Bytes.utf8(name), true)) {
                    matches.put(name, rc.get(name));
                }
            }
        }
        ReplySink r = c.reply();
        r.map(matches.size());
        matches.forEach((k, v) -> {
            r.bulk(k);
            r.bulk(v);
        });
    }

    private static boolean containsIgnoreCase(Map<String, String> m, String lower) {
        for (String k : m.keySet()) {
            if (k.equalsIgnoreCase(lower)) {
                return true;
            }
        }
        return false;
    }

    /** CONFIG REWRITE: the host writes its config file ({@link io.kevy.engine.Host#rewriteConfig}). */
    private static void rewrite(Call c) {
        String err = c.engine().host().rewriteConfig();
        if (err != null) {
            throw Call.fail(ErrorReply.of(err));
        }
        c.reply().ok();
    }

    /** CONFIG SET name value [name value ...]: all or nothing ({@link RuntimeConfig#setAll}). */
    private static void set(Call c) {
        if (c.argc() % 2 != 0) {
            throw Call.fail(Errors.SYNTAX);
        }
        List<String> pairs = new ArrayList<>(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            pairs.add(Bytes.str(c.arg(i)));
        }
        ErrorReply err = c.engine().runtimeConfig().setAll(pairs);
        if (err != null) {
            throw Call.fail(err);
        }
        c.reply().ok();
    }
}
