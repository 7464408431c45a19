package io.kevy.feed.sidecar;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.DeadLetter;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;

/**
 * {@code failure_policy = "dead_letter"}: a rejected batch becomes one JSON line
 * {@code {"time", "consumer", "batch", "error", "envelopes": [...]}} appended to a file and fsynced; then the
 * consumer stores the batch's cursor and goes on. Thread-safe.
 */
final class DeadLetterFile implements DeadLetter<byte[], byte[]> {
    private final Path path;
    private final ChangeEnvelopes envelopes;
    private final Clock clock;

    DeadLetterFile(Path path, ChangeEnvelopes envelopes, Clock clock) {
        this.path = path.toAbsolutePath();
        this.envelopes = envelopes;
        this.clock = clock;
    }

    @Override
    public synchronized void accept(Batch<byte[], byte[]> batch, Throwable error) throws IOException {
        ObjectNode line = ChangeEnvelopes.mapper().createObjectNode();
        line.put("time", clock.instant().toString());
        line.put("consumer", batch.consumer());
        line.put("batch", batch.toString());
        line.put("error", String.valueOf(error));
        ArrayNode a = line.putArray("envelopes");
        for (Change<byte[], byte[]> c : batch) {
            envelopes.perKey(c).forEach(a::add);
        }
        byte[] bytes = (ChangeEnvelopes.mapper().writeValueAsString(line) + "\n").getBytes(
                java.nio.charset.StandardCharsets.UTF_8);
        if (path.getParent() != null) {
            Files.createDirectories(path.getParent());
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(false);
        }
    }
}
