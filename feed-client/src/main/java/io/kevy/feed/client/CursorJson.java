package io.kevy.feed.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of a stored cursor document ({@link StoredCursors}): a writer for its one shape and a strict reader of
 * RFC 8259 JSON into {@code Map} (objects, in order), {@code List}, {@code String}, {@code Long} (integers only:
 * fractions and exponents are refused, no cursor field has them), {@code Boolean} and {@code null}. The SDK keeps
 * this small reader instead of Jackson so that plain consumers pull no JSON library (issue 24); the envelope,
 * which needs more, is Jackson in bridge-core.
 *
 * <p>Limits (hostile or damaged files): at most {@value #MAX_BYTES} bytes and {@value #MAX_DEPTH} levels of
 * nesting; every error is an {@link IllegalArgumentException} naming the byte offset. Thread-safe; static
 * methods only.
 */
final class CursorJson {
    /** The largest document read: 1024 shards of cursors take about 70 kB. */
    static final int MAX_BYTES = 1 << 20;
    /** The deepest nesting read: the document needs 3 (object, array, object). */
    static final int MAX_DEPTH = 8;

    private final byte[] in;
    private int pos;

    private CursorJson(byte[] in) {
        this.in = in;
    }

    /** The document's bytes: {@code {"version":1,"consumer":"c","shards":1,"cursors":[{...}]}}, compact. */
    static byte[] write(int version, String consumer, List<Cursor> cursors) {
        StringBuilder sb = new StringBuilder(64 + 64 * cursors.size());
        sb.append("{\"version\":").append(version).append(",\"consumer\":");
        string(sb, consumer);
        sb.append(",\"shards\":").append(cursors.size()).append(",\"cursors\":[");
        for (int i = 0; i < cursors.size(); i++) {
            Cursor c = cursors.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"shard\":").append(c.shard()).append(",\"generation\":")
                    .append(c.generation()).append(",\"offset\":").append(c.offset()).append('}');
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch == '"' || ch == '\\') {
                sb.append('\\').append(ch);
            } else if (ch < 0x20) {
                sb.append(String.format("\\u%04x", (int) ch));
            } else {
                sb.append(ch);
            }
        }
        sb.append('"');
    }

    /**
     * Parses one JSON value filling all of {@code json} (whitespace around it allowed).
     *
     * @throws IllegalArgumentException naming the offset when the bytes are not JSON or pass a limit
     */
    static Object read(byte[] json) {
        if (json.length > MAX_BYTES) {
            throw new IllegalArgumentException(json.length + " bytes, more than the " + MAX_BYTES + " a cursor "
                    + "document may have");
        }
        CursorJson p = new CursorJson(json);
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != json.length) {
            throw p.error("trailing bytes after the document");
        }
        return v;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
        skipSpace();
        if (pos >= in.length) {
            throw error("unexpected end of the document");
        }
        byte b = in[pos];
        switch (b) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (b == '-' || (b >= '0' && b <= '9')) {
                    return number();
                }
                throw error("unexpected '" + (char) b + "'");
        }
    }

    private Map<String, Object> object(int depth) {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a field name");
            }
            String k = string();
            skipSpace();
            expect(':');
            m.put(k, value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array(int depth) {
        pos++;
        List<Object> l = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return l;
        }
        while (true) {
            l.add(value(depth + 1));
            skipSpace();
            if (peek() == ',') {
                pos++;
            } else {
                expect(']');
                return l;
            }
        }
    }

    private String string() {
        pos++;
        StringBuilder sb = new StringBuilder();
        int start = pos;
        while (true) {
            if (pos >= in.length) {
                throw error("unterminated string");
            }
            byte b = in[pos];
            if (b == '"') {
                sb.append(new String(in, start, pos - start, StandardCharsets.UTF_8));
                pos++;
                return sb.toString();
            }
            if (b >= 0 && b < 0x20) {
                throw error("control character in a string");
            }
            if (b == '\\') {
                sb.append(new String(in, start, pos - start, StandardCharsets.UTF_8));
                pos++;
                sb.append(escape());
                start = pos;
                continue;
            }
            pos++;
        }
    }

    private char escape() {
        if (pos >= in.length) {
            throw error("unterminated escape");
        }
        byte e = in[pos++];
        switch (e) {
            case '"': return '"';
            case '\\': return '\\';
            case '/': return '/';
            case 'b': return '\b';
            case 'f': return '\f';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'u':
                if (pos + 4 > in.length) {
                    throw error("short \\u escape");
                }
                int c = 0;
                for (int i = 0; i < 4; i++) {
                    int d = Character.digit(in[pos++], 16);
                    if (d < 0) {
                        throw error("bad \\u escape");
                    }
                    c = c * 16 + d;
                }
                return (char) c;
            default:
                throw error("bad escape '\\" + (char) e + "'");
        }
    }

    private Long number() {
        int start = pos;
        if (in[pos] == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < in.length && in[pos] >= '0' && in[pos] <= '9') {
            pos++;
        }
        if (pos == digits || (in[digits] == '0' && pos - digits > 1)) {
            throw error("malformed number");
        }
        if (pos < in.length && (in[pos] == '.' || in[pos] == 'e' || in[pos] == 'E')) {
            throw error("not an integer");
        }
        String s = new String(in, start, pos - start, StandardCharsets.US_ASCII);
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw error("integer out of range: " + s);
        }
    }

    private Object literal(String word, Object value) {
        byte[] w = word.getBytes(StandardCharsets.US_ASCII);
        if (pos + w.length > in.length) {
            throw error("unexpected end of the document");
        }
        for (int i = 0; i < w.length; i++) {
            if (in[pos + i] != w[i]) {
                throw error("unexpected '" + (char) in[pos] + "'");
            }
        }
        pos += w.length;
        return value;
    }

    private void skipSpace() {
        while (pos < in.length && (in[pos] == ' ' || in[pos] == '\t' || in[pos] == '\n' || in[pos] == '\r')) {
            pos++;
        }
    }

    private int peek() {
        return pos < in.length ? in[pos] : -1;
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error(pos >= in.length ? "unexpected end of the document" : "expected '" + c + "'");
        }
        pos++;
    }

    private IllegalArgumentException error(String reason) {
        return new IllegalArgumentException(reason + " at byte " + pos);
    }
}
