package io.kevy.feed.sidecar;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.Batch;
import io.kevy.feed.client.Change;
import io.kevy.feed.client.KevyException;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import io.micrometer.core.instrument.Counter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The JSON-lines sink ({@link FileSinkProvider}): appends each batch's envelopes ({@link ChangeEnvelopes#perKey})
 * with one write and, when {@code fsync} is on, one fsync before the batch completes. Batches of different shards
 * are written one at a time (a lock), so lines never interleave. Thread-safe.
 */
final class FileSink implements SidecarSink {
    private final Path path;
    private final boolean fsync;
    private final ChangeEnvelopes envelopes;
    private final Counter lines;
    private final Counter batches;
    private FileChannel channel;

    FileSink(Path path, boolean fsync, SinkContext ctx) {
        this.path = path.toAbsolutePath();
        this.fsync = fsync;
        this.envelopes = ChangeEnvelopes.forSource(ctx.authority(), ctx.clock());
        this.lines = Counter.builder("kevy.bridge.file.lines").description("envelopes written")
                .tag("consumer", ctx.consumer()).tag("sink", FileSinkProvider.TYPE).register(ctx.registry());
        this.batches = Counter.builder("kevy.bridge.file.batches").description("batches written (and fsynced)")
                .tag("consumer", ctx.consumer()).tag("sink", FileSinkProvider.TYPE).register(ctx.registry());
    }

    @Override
    public CompletionStage<Void> deliver(Batch<byte[], byte[]> batch) {
        List<ObjectNode> out = new ArrayList<>(batch.size());
        for (Change<byte[], byte[]> c : batch) {
            out.addAll(envelopes.perKey(c));
        }
        return write(out);
    }

    @Override
    public CompletionStage<Void> beginRebuild(RebuildScope scope) {
        List<ObjectNode> out = new ArrayList<>();
        for (int shard : scope.shards()) {
            out.add(envelopes.rebuildBegin(scope, shard));
        }
        return write(out);
    }

    @Override
    public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        List<ObjectNode> out = new ArrayList<>();
        for (int shard : scope.shards()) {
            out.add(envelopes.rebuildEnd(scope, shard, result));
        }
        return write(out);
    }

    private synchronized CompletionStage<Void> write(List<ObjectNode> nodes) {
        if (nodes.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(nodes.size() * 256);
            for (ObjectNode n : nodes) {
                ChangeEnvelopes.mapper().writeValue(buf, n);
                buf.write('\n');
            }
            FileChannel ch = channel();
            ByteBuffer b = ByteBuffer.wrap(buf.toByteArray());
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (fsync) {
                ch.force(false);
            }
            lines.increment(nodes.size());
            batches.increment();
            return CompletableFuture.completedFuture(null);
        } catch (IOException | RuntimeException e) {
            closeChannel();
            return CompletableFuture.failedFuture(new KevyException("file sink " + path + ": " + e, e));
        }
    }

    private FileChannel channel() throws IOException {
        if (channel == null) {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        }
        return channel;
    }

    private void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // reopened by the next write
            }
            channel = null;
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (channel != null) {
            channel.force(false);
            closeChannel();
        }
    }

    @Override
    public String toString() {
        return "FileSink[" + path + "]";
    }
}
