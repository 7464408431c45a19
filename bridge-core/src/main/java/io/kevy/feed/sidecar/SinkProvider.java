package io.kevy.feed.sidecar;

import io.kevy.config.OptionValues;
import io.kevy.config.Option;
import io.kevy.feed.client.CursorStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The SPI by which a sink type plugs into the sidecar runtime: its {@code [sink.<type>]} TOML section (an option
 * table, validated at start with file and line like the runtime's own sections), how to open the sink, and
 * optionally a cursor store of its own (a sink that stores cursors transactionally with its output).
 * Implementations are found with {@link ServiceLoader} ({@code META-INF/services/io.kevy.feed.sidecar.SinkProvider});
 * the runtime brings {@code file}, bridge-kafka {@code kafka}, bridge-webhook {@code webhook}.
 *
 * <p>Implementations must be public with a public no-argument constructor, and thread-safe.
 */
public interface SinkProvider {
    /** The sink type: the name of its TOML section {@code [sink.<type>]} (lower case letters, digits, _). */
    String type();

    /**
     * The options of the {@code [sink.<type>]} section; each option's {@link Option#section()} is
     * {@code "sink." + type()} (or below it, for the fields of an array of tables).
     */
    List<Option<?>> options();

    /**
     * Checks combinations of the section's values after each was validated alone; throw
     * {@link OptionValues#error} to name the option, its file and line. The default checks nothing.
     *
     * @param values the whole config (the runtime's sections and this sink's)
     * @throws io.kevy.config.ConfigException when the combination does not work
     */
    default void validate(OptionValues values) {
    }

    /**
     * Opens the sink (connections may open lazily). Called once per run, before the consumer starts; the
     * consumer closes the returned sink when it stops.
     *
     * @throws io.kevy.config.ConfigException (or the SDK's {@code KevyConfigException}) when the settings cannot
     *         work (e.g. an unknown producer property)
     */
    SidecarSink open(SinkContext context);

    /**
     * A cursor store for tools ({@code kevy cursor show|set|reset}) when this sink keeps the cursors itself with
     * these settings; empty (the default) when the {@code [cursor]} section's store applies. The running sidecar
     * takes the store from {@link SidecarSink#cursorStore()} instead.
     */
    default Optional<CursorStore> adminCursorStore(SinkContext context) {
        return Optional.empty();
    }

    /** Every provider on the class path, ordered by type. */
    static List<SinkProvider> installed() {
        List<SinkProvider> out = new ArrayList<>();
        ServiceLoader.load(SinkProvider.class, SinkProvider.class.getClassLoader()).forEach(out::add);
        out.sort(java.util.Comparator.comparing(SinkProvider::type));
        return List.copyOf(out);
    }
}
