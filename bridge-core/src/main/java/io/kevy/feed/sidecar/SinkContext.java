package io.kevy.feed.sidecar;

import io.kevy.config.OptionValues;
import io.kevy.feed.client.FeedSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link SinkProvider} gets to open its sink. Immutable.
 *
 * @param values   the whole resolved config; read the sink's options with {@code values.get(option)}
 * @param consumer the consumer's name ({@code [consumer] name})
 * @param prefixes the consumer's prefixes (empty: every key)
 * @param source   the kevy source: its {@link FeedSource#authority()} names envelope sources; do not close it.
 *                 Null for tools that open no source ({@code kevy cursor} with a sink-kept store).
 * @param registry where to register the sink's meters (tag them {@code consumer} and {@code sink}); they appear
 *                 on {@code /metrics}
 * @param clock    the clock for envelope times
 */
public record SinkContext(OptionValues values, String consumer, List<String> prefixes, FeedSource source,
        MeterRegistry registry, Clock clock) {
    public SinkContext {
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(consumer, "consumer");
        prefixes = List.copyOf(prefixes);
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(clock, "clock");
    }

    /** {@code host:port} of the source, or {@code unknown} without one. */
    public String authority() {
        return source == null ? "unknown" : source.authority();
    }
}
