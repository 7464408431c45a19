package io.kevy.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole state of a server read over the wire: every key with its type, value (lists in order; sets,
 * hashes and sorted sets in a canonical order) and absolute expiry time (PEXPIRETIME). Comparing two of these
 * compares two servers byte for byte.
 */
public final class WireState {
    private WireState() {
    }

    public static Map<String, String> of(RawClient c) {
        Map<String, String> out = new TreeMap<>();
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<Object> r = Replies.nested(c.call("SCAN", cursor, "COUNT", "1000"));
            cursor = (String) r.get(0);
            @SuppressWarnings("unchecked")
            List<Object> batch = (List<Object>) r.get(1);
            for (Object k : batch) {
                keys.add((String) k);
            }
        } while (!cursor.equals("0"));
        for (String k : keys) {
            String type = c.call("TYPE", k);
            String value = switch (type) {
                case "+string\r\n" -> c.call("GET", k);
                case "+list\r\n" -> c.call("LRANGE", k, "0", "-1");
                case "+set\r\n" -> Replies.sortedArray(c.call("SMEMBERS", k)).toString();
                case "+hash\r\n" -> pairs(c.call("HGETALL", k));
                case "+zset\r\n" -> c.call("ZRANGE", k, "0", "-1", "WITHSCORES");
                case "+none\r\n" -> null; // expired between SCAN and TYPE
                default -> type;
            };
            if (value != null) {
                out.put(k, type.trim() + " " + value + " expireat=" + c.call("PEXPIRETIME", k).trim());
            }
        }
        return out;
    }

    private static String pairs(String reply) {
        List<String> flat = Replies.array(reply);
        Map<String, String> m = new TreeMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(flat.get(i), flat.get(i + 1));
        }
        return m.toString();
    }
}
