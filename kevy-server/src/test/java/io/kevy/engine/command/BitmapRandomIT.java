package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded random sequences of SETBIT, GETBIT, BITCOUNT, BITPOS, BITFIELD, BITFIELD_RO and BITOP (errors, WRONGTYPE,
 * huge and negative offsets, every overflow mode, keys on several shards):
 * <ul>
 *   <li>every reply equals a real Redis 7.0's, byte for byte, and so does every string at the end;</li>
 *   <li>replaying every effect frame onto an empty server gives exactly the same state (the completeness
 *       invariant of feed contract §7).</li>
 * </ul>
 * The seed is printed; rerun with {@code -Dseed=<n>}.
 */
class BitmapRandomIT {
    private static final String[] KEYS = {"b0", "b1", "{t}b2", "{t}b3", "b4", "l", "nokey"};
    private static final String[] TYPES = {"u1", "u2", "u7", "u8", "u13", "u31", "u32", "u63", "i1", "i2", "i8",
        "i16", "i33", "i63", "i64", "u64", "x8"};
    private static final String[] OVERFLOWS = {"WRAP", "SAT", "FAIL", "wrap", "sat", "fail", "bogus"};
    private static final long[] EDGES = {0, 1, -1, 2, 127, 128, -128, -129, 255, 256, Long.MAX_VALUE, Long.MIN_VALUE,
        Long.MAX_VALUE - 1, Long.MIN_VALUE + 1, 1L << 62, -(1L << 62), 4294967295L, -4294967296L};

    @Test
    void randomCommandsMatchRedis() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("BitmapRandomIT.randomCommandsMatchRedis seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start();
             RawClient k = kevy.raw(); RawClient r = redis.raw()) {
            k.call("RPUSH", "l", "x");
            r.call("RPUSH", "l", "x");
            for (int i = 0; i < 6000; i++) {
                String[] cmd = randomCommand(rnd);
                String expected = r.call(cmd);
                String actual = k.call(cmd);
                assertThat(actual).as("seed %d step %d: %s", seed, i, String.join(" ", cmd)).isEqualTo(expected);
            }
            for (String key : KEYS) {
                assertThat(k.call("GET", key)).as("seed %d, %s", seed, key).isEqualTo(r.call("GET", key));
                assertThat(k.call("EXISTS", key)).isEqualTo(r.call("EXISTS", key));
            }
        }
    }

    @Test
    void replayingTheFramesRebuildsTheState() {
        long seed = Long.getLong("seed", System.nanoTime());
        System.out.println("BitmapRandomIT.replayingTheFramesRebuildsTheState seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer source = TestServer.start(ServerOptions.SHARDS, 3);
             TestServer mirror = TestServer.start(ServerOptions.SHARDS, 2)) {
            FrameRecorder frames = FrameRecorder.attach(source.server().engine());
            RawClient src = source.raw();
            src.call("RPUSH", "l", "x");
            for (int i = 0; i < 4000; i++) {
                src.call(randomCommand(rnd));
            }
            assertThat(frames.all()).isNotEmpty();
            frames.assertReplayRebuilds(mirror, seed);
        }
    }

    private static String[] randomCommand(Random rnd) {
        List<String> c = new ArrayList<>();
        String key = pick(rnd, KEYS);
        switch (rnd.nextInt(12)) {
            case 0, 1 -> add(c, "SETBIT", key, offset(rnd, true),
                    rnd.nextInt(20) == 0 ? pick(rnd, "2", "-1", "x") : bit(rnd));
            case 2 -> add(c, "GETBIT", key, offset(rnd, false));
            case 3 -> {
                add(c, "BITCOUNT", key);
                if (rnd.nextInt(4) > 0) {
                    add(c, index(rnd), index(rnd));
                    if (rnd.nextBoolean()) {
                        add(c, unit(rnd));
                    }
                }
            }
            case 4, 5 -> {
                add(c, "BITPOS", key, rnd.nextInt(30) == 0 ? "2" : bit(rnd));
                int n = rnd.nextInt(4);
                if (n >= 1) {
                    add(c, index(rnd));
                }
                if (n >= 2) {
                    add(c, index(rnd));
                }
                if (n >= 3) {
                    add(c, unit(rnd));
                }
            }
            case 6, 7, 8 -> bitfield(rnd, c, "BITFIELD", key, false);
            case 9 -> bitfield(rnd, c, "BITFIELD_RO", key, rnd.nextInt(5) > 0);
            case 10 -> {
                String op = pick(rnd, "AND", "OR", "XOR", "NOT", "not", "nand");
                add(c, "BITOP", op, pick(rnd, KEYS));
                int n = op.equalsIgnoreCase("not") && rnd.nextInt(5) > 0 ? 1 : 1 + rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    add(c, pick(rnd, KEYS));
                }
            }
            default -> add(c, "GET", key);
        }
        return c.toArray(new String[0]);
    }

    private static void bitfield(Random rnd, List<String> c, String verb, String key, boolean getsOnly) {
        add(c, verb, key);
        int ops = rnd.nextInt(5);
        for (int i = 0; i < ops; i++) {
            int kind = getsOnly ? 0 : rnd.nextInt(4);
            String type = pick(rnd, TYPES);
            if (rnd.nextInt(25) > 0) {
                type = type.replace("x8", "u8").replace("u64", "i64"); // invalid types only now and then
            }
            String off = rnd.nextInt(4) == 0 ? "#" + rnd.nextInt(40) : fieldOffset(rnd);
            switch (kind) {
                case 0 -> add(c, "GET", type, off);
                case 1 -> add(c, "SET", type, off, value(rnd));
                case 2 -> add(c, "INCRBY", type, off, value(rnd));
                default -> add(c, "OVERFLOW", rnd.nextInt(15) == 0 ? "bogus"
                        : pick(rnd, OVERFLOWS).replace("bogus", "SAT"));
            }
        }
        if (rnd.nextInt(40) == 0) {
            add(c, pick(rnd, "GET", "SET", "OVERFLOW", "FOO"));
        }
    }

    /** A bit offset; huge ones (near the 512 MB limit) only for reads, so no test string grows that big. */
    private static String offset(Random rnd, boolean write) {
        int p = rnd.nextInt(100);
        if (p < 70) {
            return Integer.toString(rnd.nextInt(256));
        }
        if (p < 90) {
            return Integer.toString(rnd.nextInt(20_000));
        }
        if (p < 94) {
            return pick(rnd, "-1", "x", "4294967296", "#8", "");
        }
        return write ? "20000" : Long.toString(4294967295L - rnd.nextInt(100));
    }

    /** A BITFIELD offset: reads may be far away, writes stay small so no string grows beyond a few KB. */
    private static String fieldOffset(Random rnd) {
        int p = rnd.nextInt(100);
        if (p < 85) {
            return Integer.toString(rnd.nextInt(300));
        }
        if (p < 95) {
            return Integer.toString(rnd.nextInt(30_000));
        }
        return pick(rnd, "-1", "x", "4294967296");
    }

    private static String value(Random rnd) {
        int p = rnd.nextInt(10);
        if (p < 4) {
            return Long.toString(rnd.nextInt(600) - 300);
        }
        if (p < 8) {
            return Long.toString(EDGES[rnd.nextInt(EDGES.length)]);
        }
        if (p < 9) {
            return Long.toString(rnd.nextLong());
        }
        return pick(rnd, "x", "1.5", "9223372036854775808");
    }

    private static String index(Random rnd) {
        int p = rnd.nextInt(10);
        if (p < 6) {
            return Integer.toString(rnd.nextInt(80) - 40);
        }
        if (p < 9) {
            return Integer.toString(rnd.nextInt(3000) - 1500);
        }
        return pick(rnd, "x", "9223372036854775807", "-9223372036854775808");
    }

    private static String unit(Random rnd) {
        return rnd.nextInt(20) == 0 ? "bits" : pick(rnd, "BIT", "BYTE", "bit", "byte");
    }

    private static String bit(Random rnd) {
        return rnd.nextBoolean() ? "1" : "0";
    }

    private static String pick(Random rnd, String... options) {
        return options[rnd.nextInt(options.length)];
    }

    private static void add(List<String> c, String... args) {
        c.addAll(List.of(args));
    }
}
