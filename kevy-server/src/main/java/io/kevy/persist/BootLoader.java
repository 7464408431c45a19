package io.kevy.persist;

import io.kevy.engine.Engine;
import io.kevy.engine.Keyspace;
import io.kevy.engine.Shard;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import io.kevy.engine.struct.Dict;
import io.kevy.resp.DiscardingReplySink;
import io.kevy.resp.ReplySink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Boot: loads each shard's snapshot and AOF chain, refills the feed backlog, and decides each shard's
 * generation (feed contract §5), rewriting the files when a new generation starts.
 *
 * <p><b>Which files count.</b> The generation file {@code feed-{i}.gen} is written first whenever the
 * generation changes, so it names the current stream. An AOF chain of that generation is the truth (with the
 * snapshot when it is of the same generation); else a snapshot of that generation; else — a crash between
 * writing the generation file and the data files — whatever the files say by themselves. The result is the
 * state and its position {@code (generation, next offset)}.
 *
 * <p><b>Generation.</b> When the clean-shutdown marker names exactly that generation and position, the shard
 * resumes it; otherwise (crash, restore, mismatched or corrupt marker, no data) it draws a new generation at
 * offset 0: the generation file is written first, then a snapshot of the loaded state at {@code (new, 0)},
 * then an empty AOF at {@code (new, 0)}. Dying between any two of these steps boots to the same state.
 *
 * <p>Runs on one thread before the server accepts clients.
 */
final class BootLoader {
    private static final Logger log = LoggerFactory.getLogger(BootLoader.class);

    private final Engine engine;
    private final Dispatcher dispatcher;
    private final PersistenceConfig cfg;
    private final Path dir;
    private final long now;
    private final Session session;
    private final DiscardingReplySink sink = new DiscardingReplySink();
    /** Shards whose boot writes failed for want of space: they run read-only until {@link #completeDeferred}. */
    private final java.util.List<Integer> deferred = new java.util.ArrayList<>();
    private String deferredError;

    /** What boot did to one shard. */
    record ShardBoot(long generation, long nextOffset, boolean resumed, long keys) {
    }

    BootLoader(Engine engine, Dispatcher dispatcher, PersistenceConfig cfg) {
        this.engine = engine;
        this.dispatcher = dispatcher;
        this.cfg = cfg;
        this.dir = cfg.dir();
        this.now = engine.clock().millis();
        this.session = engine.sessions().open(BootChannel.INSTANCE, now, true);
        this.session.appliesFrames(true); // snapshot and AOF frames are effects, stored as written
    }

    ShardBoot[] boot() throws IOException {
        Files.createDirectories(dir);
        Redistribution.recover(dir);
        removeInterruptedWrites();
        int n = engine.shardCount();
        int stored = ShardsMeta.read(dir);
        try {
            engine.lockAll();
            for (int i = 0; i < n; i++) {
                engine.shard(i).loading(true);
            }
            if (stored > 0 && stored != n) {
                if (!cfg.redistribute()) {
                    throw new IOException(dir + " was written with " + stored + " shards but this server has " + n
                            + "; start with shards = " + stored + ", or set persistence.redistribute = true to "
                            + "re-distribute the data (every shard then starts a new generation)");
                }
                return redistribute(stored);
            }
            ShardBoot[] result = new ShardBoot[n];
            for (int i = 0; i < n; i++) {
                result[i] = bootShard(i);
            }
            if (stored < 0) {
                ShardsMeta.write(dir, n);
            }
            return result;
        } finally {
            for (int i = 0; i < n; i++) {
                engine.shard(i).loading(false);
            }
            engine.unlockAll();
            engine.sessions().close(session);
        }
    }

    /** The position the loaded files describe; generation 0 when nothing was loaded. */
    private record Position(long generation, long nextOffset, boolean known) {
        static final Position NONE = new Position(0, 0, false);
    }

    private ShardBoot bootShard(int i) throws IOException {
        Shard shard = engine.shard(i);
        Optional<GenerationFiles.Marker> marker = GenerationFiles.takeMarker(dir, i);
        OptionalLong storedGen = GenerationFiles.readGeneration(dir, i);
        Position pos = load(i, storedGen, true);
        long keys = shard.keyspace().size();
        boolean nextFileLeft = Files.exists(AofWriter.nextPath(dir, i));
        if (marker.isPresent() && storedGen.isPresent() && pos.known()
                && marker.get().generation() == storedGen.getAsLong()
                && marker.get().generation() == pos.generation()
                && marker.get().nextOffset() == pos.nextOffset()) {
            shard.restoreStream(pos.generation(), pos.nextOffset());
            shard.restoreHistory(GenerationFiles.readHistory(dir, i)); // where older generations ended
            if (cfg.aof() && (nextFileLeft || !Files.exists(AofWriter.aofPath(dir, i)))) {
                orDefer(i, () -> compact(i, pos.generation(), pos.nextOffset()));
            }
            log.info("shard {}: clean restart, resuming generation {} at offset {} ({} keys)", i, pos.generation(),
                    pos.nextOffset(), keys);
            return new ShardBoot(pos.generation(), pos.nextOffset(), true, keys);
        }
        long gen = Engine.newGeneration(storedGen.orElse(pos.generation()));
        if (gen == pos.generation()) {
            gen = Engine.newGeneration(gen);
        }
        long g = gen;
        orDefer(i, () -> startGeneration(i, g));
        String why = marker.isEmpty() ? "no clean-shutdown marker (first start, crash or restore)"
                : "the clean-shutdown marker does not match the data";
        log.info("shard {}: new generation {} at offset 0: {} ({} keys)", i, gen, why, keys);
        return new ShardBoot(gen, 0, false, keys);
    }

    /**
     * Loads disk shard {@code i}'s files into the engine (keys are routed by the engine, so this also serves
     * re-distribution) and returns the position they describe. When {@code refill}, frames read from the AOF
     * are handed to the shard's listeners (the feed backlog).
     */
    private Position load(int i, OptionalLong storedGen, boolean refill) throws IOException {
        Path dump = SnapshotFormat.path(dir, i);
        boolean hasDump = Files.exists(dump);
        SnapshotReader.Header dh = hasDump ? SnapshotReader.readHeader(dump) : null;
        AofHeader ah = null;
        if (cfg.aof() && Files.exists(AofWriter.aofPath(dir, i))) {
            ah = AofLoader.readHeader(AofWriter.aofPath(dir, i));
        } else if (cfg.aof() && Files.exists(AofWriter.nextPath(dir, i))) {
            ah = AofLoader.readHeader(AofWriter.nextPath(dir, i));
        }
        long g = storedGen.orElse(-1);
        boolean useAof = ah != null && (ah.generation() == g || dh == null || !dh.hasCursor()
                || dh.generation() != g);
        if (!useAof) {
            if (dh == null) {
                return Position.NONE;
            }
            loadSnapshot(dump);
            return dh.hasCursor() ? new Position(dh.generation(), dh.nextOffset(), true) : Position.NONE;
        }
        long from = 0;
        if (dh != null && dh.hasCursor() && dh.generation() == ah.generation()) {
            if (dh.nextOffset() < ah.baseOffset()) {
                throw new IOException(dump + " ends at offset " + dh.nextOffset() + " but " + AofWriter.aofPath(dir, i)
                        + " starts at offset " + ah.baseOffset() + ": frames in between are missing");
            }
            loadSnapshot(dump);
            from = dh.nextOffset();
        } else if (ah.baseOffset() != 0) {
            throw new IOException(AofWriter.aofPath(dir, i) + " starts at offset " + ah.baseOffset() + " of generation "
                    + ah.generation() + " but " + (dh == null ? "there is no snapshot" : dump + " is of generation "
                    + dh.generation()) + " to provide the state before it");
        }
        Shard target = refill ? engine.shard(i) : null;
        long fromOffset = from;
        AofLoader.Chain chain = AofLoader.read(dir, i, cfg.truncateCorruptAof(), (offset, frame) -> {
            if (offset >= fromOffset) {
                apply(frame);
            }
            if (target != null) {
                target.replayed(offset, frame);
            }
        });
        long next = Math.max(chain.endOffset(), from);
        return new Position(chain.generation(), next, true);
    }

    private void loadSnapshot(Path dump) throws IOException {
        SnapshotReader.read(dump, new SnapshotReader.EntryConsumer() {
            @Override
            public void serverFrames(byte[][][] frames) {
                for (byte[][] f : frames) {
                    apply(f); // FUNCTION LOAD REPLACE <code>
                }
            }

            @Override
            public void string(byte[] key, long expireAt, byte[] value) {
                if (expireAt != Keyspace.NO_EXPIRY && expireAt <= now) {
                    return;
                }
                Keyspace ks = engine.shardFor(key).keyspace();
                Dict.Node<Object> n = ks.put(key, value, false);
                if (expireAt != Keyspace.NO_EXPIRY) {
                    ks.setExpiry(n, expireAt);
                }
            }

            @Override
            public void frames(byte[] key, long expireAt, byte[][][] frames) {
                if (expireAt != Keyspace.NO_EXPIRY && expireAt <= now) {
                    return;
                }
                for (byte[][] f : frames) {
                    apply(f);
                }
                if (expireAt != Keyspace.NO_EXPIRY) {
                    Keyspace ks = engine.shardFor(key).keyspace();
                    Dict.Node<Object> n = ks.node(key, now);
                    if (n != null) {
                        ks.setExpiry(n, expireAt);
                    }
                }
            }
        });
    }

    private void apply(byte[][] frame) {
        sink.clear();
        dispatcher.dispatch(session, frame, sink);
        if (sink.error() != null) {
            log.warn("stored frame {} failed to apply: {}", new String(frame[0]), sink.error().message());
        }
    }

    private interface BootWrite {
        void run() throws IOException;
    }

    /**
     * Runs a boot write; when the disk is full, leaves it for {@link #completeDeferred} (the shard's state and
     * stream are already in memory) rather than refusing to start: the server then serves reads and refuses
     * writes with MISCONF, as Redis does.
     */
    private void orDefer(int i, BootWrite write) throws IOException {
        try {
            write.run();
        } catch (IOException e) {
            if (!FileFaults.isNoSpace(e)) {
                throw e;
            }
            deferred.add(i);
            deferredError = e.getMessage();
            log.warn("shard {}: cannot write its boot files ({}): serving reads, refusing writes (MISCONF) until "
                    + "there is space; see docs/operations.md", i, e.getMessage());
        }
    }

    /** The shards whose boot writes wait for space (see {@link #orDefer}); empty when none. */
    java.util.List<Integer> deferred() {
        return java.util.List.copyOf(deferred);
    }

    /** Why the deferred boot writes failed (the OS's message), or null. */
    String deferredError() {
        return deferredError;
    }

    /**
     * Writes what boot could not, for every shard at its current cursor (frames emitted meanwhile, e.g.
     * expiries, are in no AOF): the generation file of the shards that drew a new generation, then a snapshot
     * and a fresh AOF. The caller holds every shard's lock and opens the AOF writer before releasing them.
     *
     * @throws IOException when the disk is still full (nothing is committed that the next boot would misread:
     *                     each file is replaced durably on its own)
     */
    void completeDeferred() throws IOException {
        for (int i = 0; i < engine.shardCount(); i++) {
            Shard shard = engine.shard(i);
            if (deferred.contains(i)) {
                GenerationFiles.writeGeneration(dir, i, shard.generation());
            }
            if (cfg.aof()) {
                compact(i, shard.generation(), shard.nextOffset());
            }
        }
        deferred.clear();
        deferredError = null;
    }

    /**
     * Starts generation {@code gen} at offset 0 on shard {@code i}: generation file first, then a snapshot of
     * the loaded state at {@code (gen, 0)}, then an empty AOF at {@code (gen, 0)}.
     */
    private void startGeneration(int i, long gen) throws IOException {
        Shard shard = engine.shard(i);
        shard.resetStream(gen, 0);
        GenerationFiles.writeHistory(dir, i, java.util.List.of()); // a stream from 0 continues no older one
        GenerationFiles.writeGeneration(dir, i, gen);
        if (!cfg.aof()) {
            return;
        }
        compact(i, gen, 0);
    }

    /** Writes the loaded state as a snapshot at {@code (gen, next)} and a fresh AOF starting there. */
    private void compact(int i, long gen, long next) throws IOException {
        Shard shard = engine.shard(i);
        Path dump = SnapshotFormat.path(dir, i);
        List<byte[][]> serverFrames = serverFrames(i);
        if (shard.keyspace().size() > 0 || Files.exists(dump) || !serverFrames.isEmpty()) {
            Keyspace.Capture capture = shard.keyspace().beginCapture();
            try {
                SnapshotWriter.write(dump, capture, serverFrames, gen, next, i, engine.shardCount(), now,
                        new java.util.concurrent.atomic.AtomicLong());
            } finally {
                shard.keyspace().endCapture();
            }
        }
        AofWriter.createFile(AofWriter.aofPath(dir, i), new AofHeader(gen, next));
        Files.deleteIfExists(AofWriter.nextPath(dir, i));
    }

    /** The server-wide state's frames shard {@code i}'s snapshot carries: shard 0's only. */
    private List<byte[][]> serverFrames(int i) {
        return i == 0 ? engine.serverState().frames() : List.of();
    }

    /** Loads every old shard's files into this engine's shards, then writes them all anew (new generations). */
    private ShardBoot[] redistribute(int stored) throws IOException {
        int n = engine.shardCount();
        log.warn("{} was written with {} shards; re-distributing its data over {} shards (every shard starts a new "
                + "generation: feed consumers will rebuild)", dir, stored, n);
        for (int j = 0; j < stored; j++) {
            GenerationFiles.takeMarker(dir, j);
            load(j, GenerationFiles.readGeneration(dir, j), false);
        }
        ShardBoot[] result = new ShardBoot[n];
        Redistribution staging = Redistribution.begin(dir);
        for (int i = 0; i < n; i++) {
            Shard shard = engine.shard(i);
            long gen = Engine.newGeneration(0);
            shard.resetStream(gen, 0);
            staging.writeGeneration(i, gen);
            Keyspace.Capture capture = shard.keyspace().beginCapture();
            try {
                SnapshotWriter.write(staging.path(SnapshotFormat.path(dir, i)), capture, serverFrames(i), gen, 0, i,
                        n, now, new java.util.concurrent.atomic.AtomicLong());
            } finally {
                shard.keyspace().endCapture();
            }
            if (cfg.aof()) {
                AofWriter.createFile(staging.path(AofWriter.aofPath(dir, i)), new AofHeader(gen, 0));
            }
            result[i] = new ShardBoot(gen, 0, false, shard.keyspace().size());
        }
        staging.writeShardsMeta(n);
        staging.commit(stored, n);
        return result;
    }

    /** The channel of the boot session: nothing to send to. */
    private enum BootChannel implements ClientChannel {
        INSTANCE;

        @Override
        public ReplySink newAsyncReply() {
            return new DiscardingReplySink();
        }

        @Override
        public void sendAsync(ReplySink reply, boolean wrote) {
        }

        /** Frames never block, so nothing is ever posted to the boot session. */
        @Override
        public void execute(Runnable task) {
            throw new java.util.concurrent.RejectedExecutionException("the boot session never blocks");
        }

        @Override
        public void close() {
        }

        @Override
        public String remoteAddress() {
            return "";
        }

        @Override
        public String localAddress() {
            return "";
        }
    }

    /**
     * Deletes the {@code .tmp} files of our durable replacements (tmp + fsync + rename) that a crash left before
     * their rename, e.g. {@code aof-{i}.aof.next.tmp} of a rewrite killed while creating its new file. Such a
     * file is never read (only its rename commits it), so removing it changes no state.
     */
    private void removeInterruptedWrites() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                boolean ours = name.startsWith("aof-") || name.startsWith("dump-") || name.startsWith("feed-")
                        || name.startsWith(ShardsMeta.FILE);
                if (ours && name.endsWith(".tmp") && Files.isRegularFile(f)) {
                    log.info("removing {}: a file write interrupted before its rename", f);
                    Files.delete(f);
                }
            }
        }
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(x);
            }
        }
    }
}
