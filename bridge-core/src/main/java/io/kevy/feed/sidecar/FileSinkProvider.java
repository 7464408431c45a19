package io.kevy.feed.sidecar;

import io.kevy.config.Option;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code [sink.file]}: every change as one JSON envelope per line in a file (JSON lines), fsynced per batch. A
 * bridge without Kafka or a webhook ({@code kevy bridge --config file.toml}); the demo and tests read it.
 */
public final class FileSinkProvider implements SinkProvider {
    /** The sink type. */
    public static final String TYPE = "file";

    public static final Option<String> PATH = Option.nonBlank("sink.file", "path", null,
            "The JSON-lines file (created with its directories; appended to). One change envelope per line "
                    + "(docs/schema/change-envelope.schema.json): multi-key frames become one line per key, rebuilds "
                    + "write io.kevy.resync.begin, the snapshot lines and io.kevy.resync.end.")
            .required().example("\"changes.jsonl\"");
    public static final Option<Boolean> FSYNC = Option.bool("sink.file", "fsync", true,
            "fsync the file after each batch, before the batch counts as delivered (the cursor moves only then).");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public List<Option<?>> options() {
        return List.of(PATH, FSYNC);
    }

    @Override
    public SidecarSink open(SinkContext context) {
        return new FileSink(Path.of(context.values().get(PATH)), context.values().get(FSYNC), context);
    }
}
