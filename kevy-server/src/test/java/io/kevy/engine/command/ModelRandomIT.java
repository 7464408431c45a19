package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RawClient;
import io.kevy.testing.Replies;
import io.kevy.testing.TestServer;
import io.kevy.testing.WireState;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random string, hash and key commands against a 4-shard server and against a small model written
 * here from the Redis documentation; every reply and the final state must agree. (Byte-exact agreement with a
 * real Redis is checked by the *RandomDiffIT tests; this one checks kevy against an independent model.)
 */
class ModelRandomIT {
    private static final String WRONGTYPE = "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n";
    private static final String NOT_INT = "-ERR value is not an integer or out of range\r\n";
    private static final String HASH_NOT_INT = "-ERR hash value is not an integer\r\n";

    private final Map<String, Object> model = new HashMap<>();
    private Random rnd;

    @Test
    void repliesAndStateAgreeWithTheModel() {
        for (int round = 0; round < 3; round++) {
            long seed = Long.getLong("kevy.seed", System.nanoTime()) + round;
            System.out.println("ModelRandomIT seed=" + seed);
            rnd = new Random(seed);
            model.clear();
            try (TestServer server = TestServer.start(ServerOptions.SHARDS, 4)) {
                RawClient c = server.raw();
                for (int i = 0; i < 4000; i++) {
                    String[] cmd = next();
                    String expected = apply(cmd);
                    String actual = c.call(cmd);
                    if (cmd[0].equals("HGETALL") && expected.startsWith("*") && actual.startsWith("*")) {
                        assertThat(Replies.sortedArray(actual)).as("seed %d step %d: %s", seed, i, String.join(" ", cmd))
                                .isEqualTo(Replies.sortedArray(expected));
                    } else {
                        assertThat(actual).as("seed %d step %d: %s", seed, i, String.join(" ", cmd)).isEqualTo(expected);
                    }
                }
                assertThat(WireState.of(c)).as("final state, seed %d", seed).isEqualTo(expectedState());
            }
        }
    }

    private String key() {
        return "k" + rnd.nextInt(24);
    }

    private String small() {
        return switch (rnd.nextInt(4)) {
            case 0 -> Integer.toString(rnd.nextInt(200) - 100);
            case 1 -> "x" + rnd.nextInt(10);
            case 2 -> "";
            default -> Long.toString(Long.MAX_VALUE - rnd.nextInt(3));
        };
    }

    private String[] next() {
        String k = key();
        return switch (rnd.nextInt(22)) {
            case 0, 1 -> new String[] {"SET", k, small()};
            case 2 -> new String[] {"GET", k};
            case 3 -> rnd.nextBoolean() ? new String[] {"DEL", k} : new String[] {"DEL", k, key(), key()};
            case 4 -> new String[] {"EXISTS", k, key()};
            case 5 -> new String[] {"INCR", k};
            case 6 -> new String[] {"INCRBY", k, Integer.toString(rnd.nextInt(2001) - 1000)};
            case 7 -> new String[] {"APPEND", k, small()};
            case 8 -> new String[] {"STRLEN", k};
            case 9 -> new String[] {"GETDEL", k};
            case 10 -> new String[] {"SETNX", k, small()};
            case 11 -> new String[] {"MSET", k, small(), key(), small()};
            case 12 -> new String[] {"MGET", k, key(), key()};
            case 13, 14 -> new String[] {"HSET", k, "f" + rnd.nextInt(4), small()};
            case 15 -> new String[] {"HGET", k, "f" + rnd.nextInt(4)};
            case 16 -> new String[] {"HDEL", k, "f" + rnd.nextInt(4), "f" + rnd.nextInt(4)};
            case 17 -> new String[] {"HLEN", k};
            case 18 -> new String[] {"HGETALL", k};
            case 19 -> new String[] {"HINCRBY", k, "f" + rnd.nextInt(4), Integer.toString(rnd.nextInt(21) - 10)};
            case 20 -> new String[] {"TYPE", k};
            default -> new String[] {"RENAME", k, key()};
        };
    }

    /** Applies {@code cmd} to the model; returns the RESP reply Redis documents for it. */
    private String apply(String[] cmd) {
        String k = cmd[1];
        Object v = model.get(k);
        switch (cmd[0]) {
            case "SET":
                model.put(k, cmd[2]);
                return "+OK\r\n";
            case "GET":
                return v == null ? "$-1\r\n" : v instanceof String s ? bulk(s) : WRONGTYPE;
            case "DEL": {
                int n = 0;
                for (int i = 1; i < cmd.length; i++) {
                    if (model.remove(cmd[i]) != null) {
                        n++;
                    }
                }
                return ":" + n + "\r\n";
            }
            case "EXISTS": {
                int n = 0;
                for (int i = 1; i < cmd.length; i++) {
                    n += model.containsKey(cmd[i]) ? 1 : 0;
                }
                return ":" + n + "\r\n";
            }
            case "INCR":
                return incrBy(k, v, 1);
            case "INCRBY":
                return incrBy(k, v, Long.parseLong(cmd[2]));
            case "APPEND":
                if (v != null && !(v instanceof String)) {
                    return WRONGTYPE;
                }
                String appended = (v == null ? "" : (String) v) + cmd[2];
                model.put(k, appended);
                return ":" + appended.length() + "\r\n";
            case "STRLEN":
                return v == null ? ":0\r\n" : v instanceof String s ? ":" + s.length() + "\r\n" : WRONGTYPE;
            case "GETDEL":
                if (v == null) {
                    return "$-1\r\n";
                }
                if (!(v instanceof String s)) {
                    return WRONGTYPE;
                }
                model.remove(k);
                return bulk(s);
            case "SETNX":
                if (v != null) {
                    return ":0\r\n";
                }
                model.put(k, cmd[2]);
                return ":1\r\n";
            case "MSET":
                model.put(cmd[1], cmd[2]);
                model.put(cmd[3], cmd[4]);
                return "+OK\r\n";
            case "MGET": {
                StringBuilder sb = new StringBuilder("*" + (cmd.length - 1) + "\r\n");
                for (int i = 1; i < cmd.length; i++) {
                    Object o = model.get(cmd[i]);
                    sb.append(o instanceof String s ? bulk(s) : "$-1\r\n");
                }
                return sb.toString();
            }
            case "HSET": {
                if (v != null && !(v instanceof Map)) {
                    return WRONGTYPE;
                }
                Map<String, String> h = hash(k, v);
                return h.put(cmd[2], cmd[3]) == null ? ":1\r\n" : ":0\r\n";
            }
            case "HGET":
                if (v == null) {
                    return "$-1\r\n";
                }
                if (!(v instanceof Map<?, ?> m)) {
                    return WRONGTYPE;
                }
                return m.containsKey(cmd[2]) ? bulk((String) m.get(cmd[2])) : "$-1\r\n";
            case "HDEL": {
                if (v == null) {
                    return ":0\r\n";
                }
                if (!(v instanceof Map)) {
                    return WRONGTYPE;
                }
                Map<String, String> h = hash(k, v);
                int n = 0;
                for (int i = 2; i < cmd.length; i++) {
                    n += h.remove(cmd[i]) != null ? 1 : 0;
                }
                if (h.isEmpty()) {
                    model.remove(k);
                }
                return ":" + n + "\r\n";
            }
            case "HLEN":
                return v == null ? ":0\r\n" : v instanceof Map<?, ?> m ? ":" + m.size() + "\r\n" : WRONGTYPE;
            case "HGETALL": {
                if (v == null) {
                    return "*0\r\n";
                }
                if (!(v instanceof Map<?, ?> m)) {
                    return WRONGTYPE;
                }
                StringBuilder sb = new StringBuilder("*" + m.size() * 2 + "\r\n");
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    sb.append(bulk((String) e.getKey())).append(bulk((String) e.getValue()));
                }
                return sb.toString();
            }
            case "HINCRBY": {
                if (v != null && !(v instanceof Map)) {
                    return WRONGTYPE;
                }
                Map<String, String> h = hash(k, v);
                String cur = h.getOrDefault(cmd[2], "0");
                long n;
                try {
                    n = parseCanonical(cur);
                } catch (NumberFormatException e) {
                    if (h.isEmpty()) {
                        model.remove(k);
                    }
                    return HASH_NOT_INT;
                }
                long by = Long.parseLong(cmd[3]);
                if ((by > 0 && n > Long.MAX_VALUE - by) || (by < 0 && n < Long.MIN_VALUE - by)) {
                    if (h.isEmpty()) {
                        model.remove(k);
                    }
                    return "-ERR increment or decrement would overflow\r\n";
                }
                h.put(cmd[2], Long.toString(n + by));
                return ":" + (n + by) + "\r\n";
            }
            case "TYPE":
                return v == null ? "+none\r\n" : v instanceof String ? "+string\r\n" : "+hash\r\n";
            case "RENAME":
                if (v == null) {
                    return "-ERR no such key\r\n";
                }
                model.remove(k);
                model.put(cmd[2], v);
                return "+OK\r\n";
            default:
                throw new IllegalStateException(cmd[0]);
        }
    }

    private String incrBy(String k, Object v, long by) {
        if (v != null && !(v instanceof String)) {
            return WRONGTYPE;
        }
        long n;
        try {
            n = v == null ? 0 : parseCanonical((String) v);
        } catch (NumberFormatException e) {
            return NOT_INT;
        }
        if ((by > 0 && n > Long.MAX_VALUE - by) || (by < 0 && n < Long.MIN_VALUE - by)) {
            return "-ERR increment or decrement would overflow\r\n";
        }
        model.put(k, Long.toString(n + by));
        return ":" + (n + by) + "\r\n";
    }

    /** Redis's integer form: no '+', no leading zeros, no spaces, not "-0". */
    private static long parseCanonical(String s) {
        long n = Long.parseLong(s);
        if (!Long.toString(n).equals(s)) {
            throw new NumberFormatException(s);
        }
        return n;
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> hash(String k, Object v) {
        if (v == null) {
            Map<String, String> h = new TreeMap<>();
            model.put(k, h);
            return h;
        }
        return (Map<String, String>) v;
    }

    private static String bulk(String s) {
        return "$" + s.length() + "\r\n" + s + "\r\n";
    }

    private Map<String, String> expectedState() {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : model.entrySet()) {
            Object v = e.getValue();
            String desc = v instanceof String s ? "+string " + bulk(s) : "+hash " + new TreeMap<>(hashOf(v));
            out.put(e.getKey(), desc + " expireat=:-1");
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> hashOf(Object v) {
        return (Map<String, String>) v;
    }

}
