package io.kevy.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one RESP2 reply (as {@link RawClient#readReplyBytes()} returns it) into Java values: {@code Long}
 * for integers, {@code byte[]} for bulk strings, {@code String} for simple strings, {@link Err} for errors,
 * {@code List<Object>} for arrays, null for the null bulk string and null array.
 */
public final class Resp {
    private final byte[] b;
    private int pos;

    /** An error reply. */
    public record Err(String message) {
    }

    private Resp(byte[] b) {
        this.b = b;
    }

    public static Object parse(byte[] reply) {
        Resp r = new Resp(reply);
        Object o = r.next();
        if (r.pos != reply.length) {
            throw new IllegalArgumentException("trailing bytes after the reply");
        }
        return o;
    }

    private Object next() {
        char type = (char) b[pos++];
        String line = line();
        switch (type) {
            case '+':
                return line;
            case '-':
                return new Err(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int len = Integer.parseInt(line);
                if (len < 0) {
                    return null;
                }
                byte[] v = java.util.Arrays.copyOfRange(b, pos, pos + len);
                pos += len + 2;
                return v;
            }
            case '*': {
                int n = Integer.parseInt(line);
                if (n < 0) {
                    return null;
                }
                List<Object> out = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    out.add(next());
                }
                return out;
            }
            default:
                throw new IllegalArgumentException("not RESP: " + type);
        }
    }

    private String line() {
        int start = pos;
        while (b[pos] != '\r') {
            pos++;
        }
        String s = new String(b, start, pos - start, StandardCharsets.ISO_8859_1);
        pos += 2;
        return s;
    }
}
