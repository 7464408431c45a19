package io.kevy.bench.jmh;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.persist.PersistenceConfig;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The write path without the network: {@code SET key:<n> xyz} over 100k keys through the embedded
 * {@link Store} (dispatcher, keyspace, effect frame, listeners), with the feed off or on and the AOF off or
 * everysec, after a warm-up that fills the feed's 64 MiB backlog. The feed's cost per write is the difference
 * between {@code feed=off} and {@code feed=on} at the same {@code aof}: the figure {@code bench/feed.sh}
 * measures over redis-benchmark, here without the client sharing the machine's cores. Scores are writes per
 * microsecond; the AOF writer runs on its own thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StoreWriteBench extends ShortRun {
    private static final int KEYS = 100_000;

    @Param({"off", "on"})
    public String feed;

    @Param({"off", "everysec"})
    public String aof;

    private Path dir;
    private Store store;
    private byte[][] keys;
    private final byte[] value = "xyz".getBytes(StandardCharsets.US_ASCII);
    private int i;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("kevy-store-bench");
        PersistenceConfig p = PersistenceConfig.defaults(dir).withSaveRules(List.of()).withAof(aof.equals("everysec"));
        Config c = Config.defaults().withPersistence(p);
        store = Store.open(feed.equals("on") ? c.withFeed(0) : c);
        keys = new byte[KEYS][];
        for (int n = 0; n < KEYS; n++) {
            keys[n] = ("key:" + String.format("%012d", n)).getBytes(StandardCharsets.US_ASCII);
        }
        for (int n = 0; n < 3_000_000; n++) {   // the backlog full (~1.4M frames of ~47 bytes per 64 MiB)
            set();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        TempDirs.deleteTree(dir);
    }

    /** One SET of a random-looking key (a stride through the key table). */
    @Benchmark
    public void set() {
        i = (i + 7919) % KEYS;
        store.set(keys[i], value);
    }
}
