package io.kevy.server;

import io.kevy.config.ConfigException;
import io.kevy.server.config.ConfigLoader;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOption;
import io.kevy.server.config.ServerOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code kevy server [options]}: runs kevy-server in the foreground until SIGTERM/SIGINT or SHUTDOWN.
 * Settings come from flags, then {@code KEVY_*} environment variables, then the TOML file, then defaults.
 * Exit status: 0 after a clean stop, 2 for a configuration error, 1 when the server cannot start.
 */
@Command(name = "server", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Run kevy-server, a Redis-compatible server with a change feed.",
        footer = {"%nEvery option also reads KEVY_<NAME> from the environment (e.g. KEVY_PORT).",
            "Settings without a flag (io_threads, transport, hz, maxclients, limits, ...)",
            "are read from KEVY_<NAME> or the TOML file; docs/operations.md lists them all."})
public final class ServerCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(ServerCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "PATH", description = "TOML config file (default: ./kevy.toml when present).")
    Path config;

    @Option(names = "--bind", paramLabel = "ADDR", description = "Listen address (default 127.0.0.1).")
    String bind;

    @Option(names = "--port", paramLabel = "PORT", description = "TCP port (default 6004; 0 = any free port).")
    String port;

    @Option(names = "--shards", paramLabel = "N", description = "Number of shards (default: available processors).")
    String shards;

    @Option(names = "--dir", paramLabel = "PATH", description = "Data directory (default ./data).")
    String dir;

    @Option(names = "--requirepass", paramLabel = "PASSWORD", description = "Password clients must AUTH with.")
    String requirepass;

    @Option(names = "--no-aof", description = "Do not write the append-only file.")
    boolean noAof;

    @Option(names = "--appendfsync", paramLabel = "POLICY", description = "always, everysec (default) or no.")
    String appendfsync;

    @Option(names = "--feed", description = "Enable the change feed (FEED.READ / FEED.TAIL).")
    boolean feed;

    @Option(names = "--feed-buffer-size", paramLabel = "SIZE", description = "Feed backlog per shard (default 64mb, at most 1gb).")
    String feedBufferSize;

    @Override
    public Integer call() throws Exception {
        ServerConfig cfg;
        try {
            cfg = resolve(System.getenv());
        } catch (ConfigException e) {
            spec.commandLine().getErr().println("kevy-server: config error: " + e.getMessage());
            return 2;
        }
        KevyServer server;
        try {
            server = KevyServer.start(cfg);
        } catch (Exception e) {
            spec.commandLine().getErr().println("kevy-server: cannot start: " + e.getMessage());
            log.debug("start failed", e);
            return 1;
        }
        Thread hook = new Thread(server::close, "kevy-sigterm");
        Runtime.getRuntime().addShutdownHook(hook);
        log.info("kevy-server {} {}", Version.VERSION, server.describe());
        server.awaitTermination();
        return 0;
    }

    /** Resolves the configuration from the flags, {@code env} and the TOML file. */
    ServerConfig resolve(Map<String, String> env) {
        Map<ServerOption<?>, String> flags = new LinkedHashMap<>();
        put(flags, ServerOptions.BIND, bind);
        put(flags, ServerOptions.PORT, port);
        put(flags, ServerOptions.SHARDS, shards);
        put(flags, ServerOptions.DIR, dir);
        put(flags, ServerOptions.REQUIREPASS, requirepass);
        put(flags, ServerOptions.APPENDFSYNC, appendfsync);
        put(flags, ServerOptions.FEED_BUFFER_SIZE, feedBufferSize);
        if (noAof) {
            flags.put(ServerOptions.AOF, "false");
        }
        if (feed) {
            flags.put(ServerOptions.FEED_ENABLED, "true");
        }
        return ConfigLoader.load(ConfigLoader.locate(config), env, flags);
    }

    private static void put(Map<ServerOption<?>, String> flags, ServerOption<?> o, String v) {
        if (v != null) {
            flags.put(o, v);
        }
    }
}
