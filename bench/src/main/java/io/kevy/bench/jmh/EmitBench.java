package io.kevy.bench.jmh;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Shard;
import io.kevy.feed.FeedConfig;
import io.kevy.persist.Persistence;
import io.kevy.persist.PersistenceConfig;
import io.kevy.resp.RequestBytes;
import io.kevy.resp.RespFrames;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What a write pays for its effect frame: {@link Shard#emit} of a {@code SET key:<n> xyz} frame under the
 * shard's lock on a one-shard engine, with the feed off or on (its 64 MiB backlog full, so every append
 * evicts) and the AOF off or everysec (the real {@code AofWriter}: its writer thread drains the pending buffer
 * to a file in a temporary directory). The feed's cost per write is {@code feed=on} minus {@code feed=off} at
 * the same {@code aof}, without the dispatcher, the keyspace and the network around it. {@code from=request}
 * passes the frame's encoding as the client's bytes in a direct buffer ({@link RequestBytes}, as the server does
 * for a plain {@code SET}), which the first listener copies; {@code from=frame} has it encoded argument by
 * argument (an embedded caller, a rewritten effect). Scores are ns per frame.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class EmitBench extends ShortRun {
    private static final int KEYS = 1 << 16;
    /** Frames per invocation; between invocations the AOF writer catches up (a write path this fast outruns a disk). */
    private static final int BATCH = 100_000;

    @Param({"off", "on"})
    public String feed;

    @Param({"off", "everysec"})
    public String aof;

    @Param({"frame", "request"})
    public String from;

    private Path dir;
    private Engine engine;
    private Persistence persistence;
    private Shard shard;
    private byte[][][] frames;
    private Requests requests;
    private int i;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("kevy-emit-bench");
        EngineConfig config = EngineConfig.defaults().withShards(1);
        KevyInstance kevy = KevyInstance.assemble(config,
                feed.equals("on") ? FeedConfig.enabled(64L << 20) : FeedConfig.disabled());
        engine = kevy.engine();
        persistence = kevy.startPersistence(
                PersistenceConfig.defaults(dir).withSaveRules(List.of()).withAof(aof.equals("everysec")));
        shard = engine.shard(0);
        byte[] set = "SET".getBytes(StandardCharsets.US_ASCII);
        byte[] value = "xyz".getBytes(StandardCharsets.US_ASCII);
        frames = new byte[KEYS][][];
        for (int n = 0; n < KEYS; n++) {
            frames[n] = new byte[][] {set, String.format("key:%012d", n).getBytes(StandardCharsets.US_ASCII), value};
        }
        requests = from.equals("request") ? new Requests(frames) : null;
        for (int n = 0; n < 20; n++) { // fills the backlog: ~1.4M frames of ~47 counted bytes per 64 MiB
            drain();
            emit();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        persistence.close();
        engine.close();
        if (requests != null) {
            requests.buf.release();
        }
        TempDirs.deleteTree(dir);
    }

    /** Lets the AOF writer write out everything emitted so far, so its pending buffer stays small. */
    @Setup(Level.Invocation)
    public void drain() throws IOException {
        if (persistence.aof() != null) {
            persistence.aof().syncNow();
        }
    }

    /** Emits {@value #BATCH} frames, each under the shard's lock. Score: ns per frame. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void emit() {
        for (int n = 0; n < BATCH; n++) {
            emitOne();
        }
    }

    private void emitOne() {
        int n = i++ & (KEYS - 1);
        shard.lock().lock();
        try {
            shard.emit(requests == null ? null : requests.at(n), frames[n]);
        } finally {
            shard.lock().unlock();
        }
    }

    /** The frames' encodings as a client sends them, end to end in one direct buffer; a view of one at a time. */
    private static final class Requests implements RequestBytes {
        final ByteBuf buf = PooledByteBufAllocator.DEFAULT.directBuffer();
        private final int[] ends;
        private int n;

        Requests(byte[][][] frames) {
            this.ends = new int[frames.length];
            for (int k = 0; k < frames.length; k++) {
                byte[] b = new byte[(int) RespFrames.encodedSize(frames[k])];
                RespFrames.encode(b, 0, frames[k]);
                buf.writeBytes(b);
                ends[k] = buf.writerIndex();
            }
        }

        Requests at(int n) {
            this.n = n;
            return this;
        }

        @Override
        public int length() {
            return ends[n] - start();
        }

        @Override
        public int copyTo(byte[] dst, int pos) {
            int len = length();
            buf.getBytes(start(), dst, pos, len);
            return pos + len;
        }

        private int start() {
            return n == 0 ? 0 : ends[n - 1];
        }
    }
}
