package io.kevy.replication;

import io.kevy.engine.Engine;
import io.kevy.feed.FeedCursor;
import io.kevy.persist.Snapshots;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary's full-sync snapshots in transit ({@code REPL.SNAPSHOT} then {@code REPL.CHUNK}): each is written to a
 * temporary file by a background thread, off the event loops, as a background SAVE is (the shard pauses only for
 * the capture, {@link Snapshots#writeShard}); the replica then reads it in chunks of at most {@value #CHUNK}
 * bytes, so neither side holds a whole snapshot in memory. A transfer is named by a random id; its file is
 * deleted when its last chunk is read, when the client that asked for it disconnects before it was ready, when
 * it was left unread for {@value #IDLE_MS} ms (checked at every new transfer) and at shutdown.
 *
 * <p>Thread-safe.
 */
final class SnapshotTransfers implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SnapshotTransfers.class);
    /** The largest chunk REPL.CHUNK answers, bytes. */
    static final int CHUNK = 4 << 20;
    /** How long a transfer may sit unread before it is dropped, ms. */
    static final long IDLE_MS = 10 * 60_000;
    /** The most transfers in transit at once (each holds a capture and a file): more get an error. */
    static final int MAX_TRANSFERS = 64;

    /** One snapshot in transit: its cursor, file and size once written. */
    static final class Transfer {
        final String id;
        final int shard;
        final CompletableFuture<FeedCursor> written = new CompletableFuture<>();
        final Path file;
        volatile long size = -1;
        volatile long lastUseMs;

        Transfer(String id, int shard, Path file, long nowMs) {
            this.id = id;
            this.shard = shard;
            this.file = file;
            this.lastUseMs = nowMs;
        }
    }

    private final Engine engine;
    private final Map<String, Transfer> transfers = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kevy-repl-snapshot");
        t.setDaemon(true);
        return t;
    });

    SnapshotTransfers(Engine engine) {
        this.engine = engine;
    }

    /**
     * Starts writing shard {@code shard}'s snapshot in the background; {@link Transfer#written} completes with
     * its cursor (or the failure).
     *
     * @throws IOException when the temporary file cannot be created, or {@value #MAX_TRANSFERS} are in transit
     */
    Transfer start(int shard) throws IOException {
        long now = engine.clock().millis();
        transfers.values().removeIf(t -> {
            boolean idle = t.size >= 0 && now - t.lastUseMs > IDLE_MS;
            if (idle) {
                delete(t);
            }
            return idle;
        });
        if (transfers.size() >= MAX_TRANSFERS) {
            throw new IOException(MAX_TRANSFERS + " full-sync snapshots are in transit already");
        }
        byte[] b = new byte[12];
        random.nextBytes(b);
        String id = HexFormat.of().formatHex(b);
        Transfer t = new Transfer(id, shard, Files.createTempFile("kevy-repl-" + shard + "-", ".rdb"), now);
        transfers.put(id, t);
        writer.execute(() -> {
            try {
                FeedCursor at = Snapshots.writeShard(engine.shard(shard), engine.shardCount(), t.file);
                t.size = Files.size(t.file);
                t.lastUseMs = engine.clock().millis();
                if (!transfers.containsKey(t.id)) {
                    delete(t); // dropped while it was being written (the client left)
                }
                t.written.complete(at);
            } catch (IOException | RuntimeException e) {
                log.warn("full-sync snapshot of shard {} failed: {}", shard, e.toString());
                drop(t);
                t.written.completeExceptionally(e);
            }
        });
        return t;
    }

    /**
     * Up to {@value #CHUNK} bytes of transfer {@code id} from byte {@code offset} on; reading the last chunk ends
     * the transfer (its file is deleted).
     *
     * @return the bytes, or null when there is no such transfer (unknown id, dropped, not written yet)
     * @throws IOException from the file system, or for an offset past the end
     */
    byte[] chunk(String id, long offset) throws IOException {
        Transfer t = transfers.get(id);
        if (t == null || t.size < 0) {
            return null;
        }
        if (offset < 0 || offset > t.size) {
            throw new IOException("offset " + offset + " is outside 0.." + t.size);
        }
        int n = (int) Math.min(CHUNK, t.size - offset);
        ByteBuffer buf = ByteBuffer.allocate(n);
        try (FileChannel ch = FileChannel.open(t.file, StandardOpenOption.READ)) {
            while (buf.hasRemaining()) {
                if (ch.read(buf, offset + buf.position()) < 0) {
                    throw new IOException(t.file + " ended before its size " + t.size);
                }
            }
        }
        t.lastUseMs = engine.clock().millis();
        if (offset + n == t.size) {
            drop(t);
        }
        return buf.array();
    }

    /** Ends transfer {@code t}: forgets it and deletes its file. */
    void drop(Transfer t) {
        transfers.remove(t.id, t);
        delete(t);
    }

    /** Transfers in transit (tests, INFO). */
    int inTransit() {
        return transfers.size();
    }

    private static void delete(Transfer t) {
        try {
            Files.deleteIfExists(t.file);
        } catch (IOException e) {
            log.warn("cannot delete {}: {}", t.file, e.toString());
        }
    }

    @Override
    public void close() {
        writer.shutdownNow();
        for (Transfer t : transfers.values()) {
            drop(t);
        }
    }
}
