package io.kevy.feed.client.support;

import io.kevy.embedded.Reply;
import io.kevy.embedded.Store;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A comparable picture of a keyspace read through commands only (SCAN, TYPE, the value read of the type,
 * PEXPIRETIME): key → "type value [PXAT t]". The same code reads a server (over lettuce) and an embedded
 * mirror store, so two equal dumps mean the same keys, types, values and expiry times.
 */
public final class Dump {
    private Dump() {
    }

    /** Runs a command, UTF-8 arguments; answers Long, String, List or null. */
    public interface Commands extends Function<String[], Object> {
    }

    /** Commands over a lettuce connection. */
    public static Commands of(RedisCommands<String, String> redis) {
        return argv -> {
            CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
            for (int i = 1; i < argv.length; i++) {
                args.add(argv[i]);
            }
            ProtocolKeyword word = new ProtocolKeyword() {
                @Override
                public byte[] getBytes() {
                    return argv[0].getBytes(StandardCharsets.US_ASCII);
                }

                @Override
                public String toString() {
                    return argv[0];
                }
            };
            List<Object> out = redis.dispatch(word, new NestedMultiOutput<>(StringCodec.UTF8), args);
            boolean array = argv[0].equals("SCAN") || argv[0].equals("HGETALL") || argv[0].equals("LRANGE")
                    || argv[0].equals("SMEMBERS") || argv[0].equals("ZRANGE");
            return array ? resp2(out) : out.isEmpty() ? null : out.get(0);
        };
    }

    /**
     * A reply as RESP2 shapes it, whatever protocol the connection negotiated: RESP3's WITHSCORES pairs
     * flattened, its doubles as Redis 7.0 prints them in a bulk string (maps and sets are flat lists already).
     */
    private static List<Object> resp2(List<Object> reply) {
        List<Object> out = new ArrayList<>(reply.size());
        for (Object o : reply) {
            if (o instanceof List<?> pair && pair.size() == 2 && pair.get(1) instanceof Double) {
                out.add(pair.get(0));
                out.add(io.kevy.engine.text.RedisNumbers.formatDouble((Double) pair.get(1)));
            } else {
                out.add(o);
            }
        }
        return out;
    }

    /** Commands over an embedded store. */
    public static Commands of(Store store) {
        return argv -> plain(store.execute(argv));
    }

    private static Object plain(Reply r) {
        if (r instanceof Reply.Error e) {
            throw new IllegalStateException(e.message());
        }
        if (r instanceof Reply.Int i) {
            return i.value();
        }
        if (r instanceof Reply.Bulk b) {
            return b.utf8();
        }
        if (r instanceof Reply.Simple s) {
            return s.value();
        }
        if (r instanceof Reply.Array a) {
            List<Object> out = new ArrayList<>();
            for (Reply e : a.elements()) {
                out.add(plain(e));
            }
            return out;
        }
        return null;
    }

    /** Every key → its description. */
    public static Map<String, String> dump(Commands c) {
        Map<String, String> out = new TreeMap<>();
        String cursor = "0";
        do {
            List<?> page = (List<?>) c.apply(new String[] {"SCAN", cursor, "COUNT", "1000"});
            cursor = page.get(0).toString();
            for (Object k : (List<?>) page.get(1)) {
                String key = k.toString();
                String d = describe(c, key);
                if (d != null) {
                    out.put(key, d);
                }
            }
        } while (!cursor.equals("0"));
        return out;
    }

    private static String describe(Commands c, String key) {
        String type = String.valueOf(c.apply(new String[] {"TYPE", key}));
        String value;
        switch (type) {
            case "none":
                return null;
            case "string":
                value = String.valueOf(c.apply(new String[] {"GET", key}));
                break;
            case "list":
                value = c.apply(new String[] {"LRANGE", key, "0", "-1"}).toString();
                break;
            case "set": {
                List<String> m = strings(c.apply(new String[] {"SMEMBERS", key}));
                Collections.sort(m);
                value = m.toString();
                break;
            }
            case "hash": {
                List<String> f = strings(c.apply(new String[] {"HGETALL", key}));
                Map<String, String> sorted = new TreeMap<>();
                for (int i = 0; i + 1 < f.size(); i += 2) {
                    sorted.put(f.get(i), f.get(i + 1));
                }
                value = sorted.toString();
                break;
            }
            case "zset":
                value = c.apply(new String[] {"ZRANGE", key, "0", "-1", "WITHSCORES"}).toString();
                break;
            default:
                value = "?";
        }
        Object at = c.apply(new String[] {"PEXPIRETIME", key});
        long t = at instanceof Long l ? l : -1;
        return type + " " + value + (t >= 0 ? " PXAT " + t : "");
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        for (Object e : (List<?>) o) {
            out.add(String.valueOf(e));
        }
        return out;
    }
}
