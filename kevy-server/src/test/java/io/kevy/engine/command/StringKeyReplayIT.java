package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The completeness invariant (feed contract §7) for the string and key commands: a seeded random mix of commands
 * (with lists, sets, sorted sets and hashes among the values) runs on one 4-shard server in rounds; after each
 * round every new frame is replayed as a command onto a server that started empty, and the two keyspaces must be
 * equal (keys, types, values, absolute expiry times). TTLs are either far in the future or already past, so
 * nothing expires while the test runs.
 */
class StringKeyReplayIT {
    private static final String[] KEYS = {"a", "b", "c", "d", "e", "{t}a", "{t}b", "{t}c", "n1", "n2"};
    private static final long FAR = 99_999_999_999L;

    @Test
    void replayingTheFramesRebuildsTheSameKeyspace() {
        long seed = System.nanoTime();
        System.out.println("StringKeyReplayIT seed=" + seed);
        Random rnd = new Random(seed);
        try (TestServer source = TestServer.start(ServerOptions.SHARDS, 4);
             TestServer mirror = TestServer.start(ServerOptions.SHARDS, 3)) {
            FrameRecorder recorder = FrameRecorder.attach(source.server().engine());
            RawClient src = source.raw();
            RawClient dst = mirror.raw();
            int replayed = 0;
            for (int round = 0; round < 80; round++) {
                for (int i = 0; i < 50; i++) {
                    src.call(randomCommand(rnd));
                }
                List<FrameRecorder.Frame> all = recorder.all();
                for (FrameRecorder.Frame f : all.subList(replayed, all.size())) {
                    String reply = dst.send(RawClient.encode(f.argv())).readReply();
                    assertThat(reply).as("replay of %s", f.text()).doesNotStartWith("-");
                }
                replayed = all.size();
                assertThat(StateDump.of(mirror.server().engine())).as("round %d (seed %d)", round, seed)
                        .isEqualTo(StateDump.of(source.server().engine()));
            }
        }
    }

    private static String key(Random rnd) {
        return KEYS[rnd.nextInt(KEYS.length)];
    }

    private static String[] randomCommand(Random rnd) {
        String k = key(rnd);
        String v = rnd.nextInt(4) == 0 ? Integer.toString(rnd.nextInt(100)) : "v" + rnd.nextInt(1000);
        switch (rnd.nextInt(34)) {
            case 30: return new String[] {"RPUSH", k, v, "w" + rnd.nextInt(9)};
            case 31: return new String[] {"SADD", k, v, "m" + rnd.nextInt(9)};
            case 32: return new String[] {"ZADD", k, Integer.toString(rnd.nextInt(9)), v};
            case 33: return new String[] {"LPOP", k};
            case 0: return new String[] {"SET", k, v};
            case 1: return new String[] {"SET", k, v, "EX", Integer.toString(1000 + rnd.nextInt(1000))};
            case 2: return new String[] {"SET", k, v, "PXAT", Long.toString(FAR * 1000 + rnd.nextInt(1000))};
            case 3: return new String[] {"SET", k, v, "KEEPTTL", rnd.nextBoolean() ? "XX" : "GET"};
            case 4: return new String[] {"SET", k, v, rnd.nextBoolean() ? "NX" : "XX", "EXAT", "1"};
            case 5: return new String[] {"SETNX", k, v};
            case 6: return new String[] {"SETEX", k, "5000", v};
            case 7: return new String[] {"GETSET", k, v};
            case 8: return new String[] {"GETDEL", k};
            case 9: {
                String[][] opts = {{}, {"EX", "3000"}, {"PERSIST"}, {"PXAT", "1"}, {"EXAT", Long.toString(FAR)}};
                String[] o = opts[rnd.nextInt(opts.length)];
                String[] cmd = new String[2 + o.length];
                cmd[0] = "GETEX";
                cmd[1] = k;
                System.arraycopy(o, 0, cmd, 2, o.length);
                return cmd;
            }
            case 10: return new String[] {"MSET", k, v, key(rnd), v + "m", key(rnd), "7"};
            case 11: return new String[] {"MSETNX", k, v, key(rnd), "x"};
            case 12: return new String[] {"INCR", k};
            case 13: return new String[] {"DECRBY", k, Integer.toString(rnd.nextInt(50) - 25)};
            case 14: return new String[] {"INCRBYFLOAT", k, rnd.nextBoolean() ? "0.1" : "-2.5e1"};
            case 15: return new String[] {"APPEND", k, rnd.nextInt(5) == 0 ? "" : "+" + v};
            case 16: return new String[] {"SETRANGE", k, Integer.toString(rnd.nextInt(12)), rnd.nextBoolean() ? "XY" : ""};
            case 17: return new String[] {"DEL", k, key(rnd), key(rnd)};
            case 18: return new String[] {"UNLINK", k};
            case 19: return new String[] {"EXPIRE", k, Integer.toString(rnd.nextInt(4) == 0 ? -5 : 2000 + rnd.nextInt(1000)),
                rnd.nextBoolean() ? "GT" : "NX"};
            case 20: return new String[] {"PEXPIREAT", k, Long.toString(rnd.nextInt(3) == 0 ? 5 : FAR * 1000 + rnd.nextInt(999)),
                rnd.nextBoolean() ? "LT" : "XX"};
            case 21: return new String[] {"PERSIST", k};
            case 22: return new String[] {"RENAME", k, key(rnd)};
            case 23: return new String[] {"RENAMENX", k, key(rnd)};
            case 24: return rnd.nextBoolean() ? new String[] {"COPY", k, key(rnd)} : new String[] {"COPY", k, key(rnd), "REPLACE"};
            case 25: return new String[] {"HSET", k, "f" + rnd.nextInt(3), v};
            case 26: return new String[] {"PSETEX", k, "4000000", v};
            case 27: return new String[] {"EXPIREAT", k, rnd.nextBoolean() ? Long.toString(FAR) : "3"};
            case 28: return new String[] {"INCRBY", k, Integer.toString(rnd.nextInt(1000))};
            default: return new String[] {"GET", k};
        }
    }
}
