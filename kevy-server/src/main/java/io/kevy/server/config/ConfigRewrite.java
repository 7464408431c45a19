package io.kevy.server.config;

import io.kevy.config.ConfigException;
import io.kevy.config.ConfigReader;
import io.kevy.config.TomlRewrite;
import io.kevy.persist.FileSync;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * CONFIG REWRITE for kevy-server: writes the current values of the replication settings ({@link #PERSISTED}) into
 * the TOML file the server was started with, line by line ({@link TomlRewrite}: every other line and comment
 * stays), and replaces the file by tmp + fsync + rename ({@link FileSync}). As Redis's {@code rewriteConfig}:
 * a setting at its default is rewritten where the file has it and not added where it has not; an "empty means
 * none" setting ({@code replicaof} of a primary, an empty {@code masterauth}) loses its line; a missing file is
 * created. The other settings CONFIG SET changes are not written (the file keeps what it says for them).
 *
 * <p>The new file must load: it is read back against the server's option table before it replaces the old one, so
 * a value the TOML refuses (e.g. {@code REPLICAOF host 0}: the TOML's port starts at 1) fails the rewrite and
 * leaves the file as it was. Values are never logged ({@code masterauth} is a secret).
 *
 * <p>Thread-safe: rewrites of one instance are serialised.
 */
public final class ConfigRewrite {
    /** The settings CONFIG REWRITE writes, each with the CONFIG parameter that holds its current value. */
    public static final Map<ServerOption<?>, String> PERSISTED = persisted();

    private final Path file;

    /** A rewriter of {@code file} (the path the server was started with; a symbolic link is followed). */
    public ConfigRewrite(Path file) {
        this.file = file;
    }

    private static Map<ServerOption<?>, String> persisted() {
        Map<ServerOption<?>, String> m = new LinkedHashMap<>();
        m.put(ServerOptions.REPLICAOF, "replicaof");
        m.put(ServerOptions.MASTERAUTH, "masterauth");
        m.put(ServerOptions.REPLICA_ANNOUNCE_IP, "replica-announce-ip");
        m.put(ServerOptions.REPLICA_ANNOUNCE_PORT, "replica-announce-port");
        m.put(ServerOptions.REPLICA_PRIORITY, "replica-priority");
        m.put(ServerOptions.REPLICA_READ_ONLY, "replica-read-only");
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Rewrites the file with the current values, read with {@code configGet} (a CONFIG parameter name to its
     * CONFIG GET value).
     *
     * @return null when the file was written, else the reason it was not (Redis's reply is
     *         {@code -ERR Rewriting config file: <reason>}); the file is then unchanged
     */
    public synchronized String rewrite(Function<String, String> configGet) {
        try {
            Path target = Files.exists(file) ? file.toRealPath() : file;
            String old = Files.exists(target) ? Files.readString(target, StandardCharsets.UTF_8) : "";
            TomlRewrite r = TomlRewrite.of(file.toString(), old);
            for (Map.Entry<ServerOption<?>, String> e : PERSISTED.entrySet()) {
                apply(r, e.getKey(), configGet.apply(e.getValue()));
            }
            String text = r.result();
            new ConfigReader(file.toString()).readTable(ConfigReader.parse(file.toString(), text), "",
                    ServerOptions.options());
            if (!text.equals(old) || !Files.exists(target)) {
                FileSync.replace(target, text.getBytes(StandardCharsets.UTF_8));
            }
            return null;
        } catch (ConfigException e) {
            return e.getMessage();
        } catch (AccessDeniedException e) {
            return "Permission denied";
        } catch (NoSuchFileException e) {
            return "No such file or directory";
        } catch (IOException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    private static <T> void apply(TomlRewrite r, ServerOption<T> option, String current) {
        T value;
        try {
            value = option.fromString(current);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(option.key() + ": " + e.getMessage());
        }
        T def = option.defaultValue();
        if (value.equals(def) && "".equals(def)) {
            r.remove(option.key()); // "none": absent from the file, as Redis drops replicaof on a primary
        } else if (!value.equals(def) || r.contains(option.key())) {
            r.set(option.key(), value);
        }
    }
}
