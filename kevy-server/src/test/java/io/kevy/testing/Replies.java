package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses raw RESP2 or RESP3 replies (as {@link RawClient} returns them) for assertions that cannot compare bytes,
 * e.g. set members whose order differs from Redis's hashtable order. RESP3 types read as their RESP2 form: a map
 * as the flat list of its keys and values, a set or push as a list, a double, boolean or big number as its text.
 */
public final class Replies {
    private Replies() {
    }

    /** The elements of a flat array reply (bulk strings; integers as their decimal text). */
    public static List<String> array(String reply) {
        List<String> out = new ArrayList<>();
        for (Object o : nested(reply)) {
            out.add((String) o);
        }
        return out;
    }

    /** The elements of a flat array reply, sorted. */
    public static List<String> sortedArray(String reply) {
        List<String> out = array(reply);
        out.sort(null);
        return out;
    }

    /** The text of a bulk string reply (or of a RESP3 verbatim string, without its format). */
    public static String bulk(String reply) {
        assertThat(reply).matches("(?s)[$=].*");
        int nl = reply.indexOf("\r\n");
        return reply.substring(nl + 2 + (reply.charAt(0) == '=' ? 4 : 0), reply.length() - 2);
    }

    /** An array reply as nested lists of strings (integers as their decimal text, nulls as null). */
    public static List<Object> nested(String reply) {
        int[] pos = {0};
        Object o = parse(reply, pos);
        assertThat(o).as("array reply: %s", reply).isInstanceOf(List.class);
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) o;
        return list;
    }

    private static Object parse(String s, int[] pos) {
        int nl = s.indexOf("\r\n", pos[0]);
        char type = s.charAt(pos[0]);
        String head = s.substring(pos[0] + 1, nl);
        pos[0] = nl + 2;
        switch (type) {
            case '*', '~', '>', '%' -> {
                int n = Integer.parseInt(head) * (type == '%' ? 2 : 1);
                if (n < 0) {
                    return null;
                }
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    out.add(parse(s, pos));
                }
                return out;
            }
            case '$', '=' -> {
                int n = Integer.parseInt(head);
                if (n < 0) {
                    return null;
                }
                String v = s.substring(pos[0], pos[0] + n);
                pos[0] += n + 2;
                return type == '=' ? v.substring(4) : v;
            }
            case ':', '+', ',', '(' -> {
                return head;
            }
            case '#' -> {
                return head.equals("t") ? "1" : "0";
            }
            case '_' -> {
                return null;
            }
            default -> throw new AssertionError("unexpected reply " + s);
        }
    }
}
