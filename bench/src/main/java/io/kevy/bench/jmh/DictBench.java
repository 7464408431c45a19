package io.kevy.bench.jmh;

import io.kevy.engine.struct.Dict;
import java.nio.charset.StandardCharsets;
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

/**
 * The keyspace hash table ({@link Dict}) with {@code size} keys {@code key:<n>}: lookups that hit and miss,
 * and a put + remove pair that keeps the size constant (so incremental rehashing stays out of the steady
 * state). Keys are visited in a fixed pseudo-random order; scores are operations per microsecond.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DictBench extends ShortRun {
    private static final int ORDER = 1 << 16;

    @Param({"100000", "1000000"})
    int size;

    private Dict<byte[]> dict;
    private byte[][] present;
    private byte[][] absent;
    private int i;

    @Setup(Level.Trial)
    public void setUp() {
        dict = new Dict<>();
        java.util.Random rnd = new java.util.Random(10);
        present = new byte[ORDER][];
        absent = new byte[ORDER][];
        for (int n = 0; n < size; n++) {
            dict.put(key("key:", n), key("v", n));
        }
        while (dict.isRehashing()) {
            dict.rehashSteps(1000);
        }
        for (int n = 0; n < ORDER; n++) {
            present[n] = key("key:", rnd.nextInt(size));
            absent[n] = key("nokey:", rnd.nextInt(size));
        }
    }

    private static byte[] key(String prefix, int n) {
        return (prefix + n).getBytes(StandardCharsets.US_ASCII);
    }

    /** A lookup of an existing key (GET hit). */
    @Benchmark
    public Object getHit() {
        return dict.get(present[i++ & (ORDER - 1)]);
    }

    /** A lookup of a missing key (GET miss, EXISTS 0). */
    @Benchmark
    public Object getMiss() {
        return dict.get(absent[i++ & (ORDER - 1)]);
    }

    /** Adds a new key and removes it again (SET of a new key then DEL). */
    @Benchmark
    public Object putRemove() {
        byte[] k = absent[i++ & (ORDER - 1)];
        dict.put(k, k);
        return dict.remove(k);
    }

    /** Overwrites an existing key (SET of a present key). */
    @Benchmark
    public Object putExisting() {
        byte[] k = present[i++ & (ORDER - 1)];
        return dict.put(k, k);
    }
}
