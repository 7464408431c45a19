package io.kevy.bridge.webhook;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The dead-letter file: one JSON line per rejected request, appended and forced to disk before the sink
 * reports the batch accepted (so the cursor never moves past a request that is neither delivered nor parked).
 *
 * <pre>{@code
 * {"time":"2026-01-05T10:00:01Z","endpoint":"https://hooks.example.com/kevy","webhookId":"2:8812:41-57",
 *  "type":"io.kevy.changes","status":400,"response":"bad payload","events":20,"payload":{...the request body...}}
 * }</pre>
 *
 * The file is opened on the first rejection. Thread-safe.
 */
final class DeadLetterFile implements AutoCloseable {
    private final Path path;
    private FileChannel channel;

    DeadLetterFile(Path path) {
        this.path = path;
    }

    Path path() {
        return path;
    }

    /** Appends and forces the line of {@code request} rejected with {@code outcome}. */
    synchronized void append(String endpoint, WebhookRequest request, Outcome outcome, Instant now)
            throws IOException {
        String head = "{\"time\":" + Payloads.quote(now.toString()) + ",\"endpoint\":" + Payloads.quote(endpoint)
                + ",\"webhookId\":" + Payloads.quote(request.id()) + ",\"type\":" + Payloads.quote(request.type())
                + ",\"status\":" + outcome.status() + ",\"response\":" + Payloads.quote(outcome.excerpt())
                + ",\"events\":" + request.events() + ",\"payload\":";
        byte[] h = head.getBytes(StandardCharsets.UTF_8);
        ByteBuffer line = ByteBuffer.allocate(h.length + request.body().length + 2);
        line.put(h).put(request.body()).put((byte) '}').put((byte) '\n').flip();
        if (channel == null) {
            Path parent = path.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        }
        while (line.hasRemaining()) {
            channel.write(line);
        }
        channel.force(false);
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
