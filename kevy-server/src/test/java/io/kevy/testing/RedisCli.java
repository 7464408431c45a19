package io.kevy.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What redis-cli 7.0 does with a command line and a reply in an interactive terminal: {@link #splitArgs} splits a
 * line as its {@code sdssplitargs} does (spaces, {@code "..."} with {@code \n \r \t \b \a \\ \" \xHH} escapes,
 * {@code '...'} with {@code \'}), and {@link #format} prints a decoded reply ({@link Resp#parse}) as its
 * {@code cliFormatReplyTTY} does: {@code OK}, {@code (integer) 1}, {@code "v"}, {@code (nil)},
 * {@code (error) ERR ...}, {@code (empty array)}, numbered and indented nested arrays.
 * {@code RedisCliFormatIT} compares it with the real redis-cli when one is installed.
 */
public final class RedisCli {
    private RedisCli() {
    }

    /** The arguments of {@code line}; throws IllegalArgumentException for unbalanced quotes. */
    public static List<byte[]> splitArgs(String line) {
        List<byte[]> out = new ArrayList<>();
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        int i = 0;
        while (true) {
            while (i < b.length && Character.isWhitespace(b[i])) {
                i++;
            }
            if (i >= b.length) {
                return out;
            }
            java.io.ByteArrayOutputStream cur = new java.io.ByteArrayOutputStream();
            boolean inDq = false;
            boolean inSq = false;
            while (true) {
                if (inDq) {
                    if (i >= b.length) {
                        throw new IllegalArgumentException("unbalanced quotes: " + line);
                    }
                    if (b[i] == '\\' && i + 3 < b.length && b[i + 1] == 'x' && hex(b[i + 2]) >= 0
                            && hex(b[i + 3]) >= 0) {
                        cur.write(hex(b[i + 2]) * 16 + hex(b[i + 3]));
                        i += 3;
                    } else if (b[i] == '\\' && i + 1 < b.length) {
                        i++;
                        char c = (char) b[i];
                        cur.write(switch (c) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> b[i];
                        });
                    } else if (b[i] == '"') {
                        if (i + 1 < b.length && !Character.isWhitespace(b[i + 1])) {
                            throw new IllegalArgumentException("closing quote must be followed by a space: " + line);
                        }
                        inDq = false;
                        i++;
                        break;
                    } else {
                        cur.write(b[i]);
                    }
                } else if (inSq) {
                    if (i >= b.length) {
                        throw new IllegalArgumentException("unbalanced quotes: " + line);
                    }
                    if (b[i] == '\\' && i + 1 < b.length && b[i + 1] == '\'') {
                        i++;
                        cur.write('\'');
                    } else if (b[i] == '\'') {
                        if (i + 1 < b.length && !Character.isWhitespace(b[i + 1])) {
                            throw new IllegalArgumentException("closing quote must be followed by a space: " + line);
                        }
                        inSq = false;
                        i++;
                        break;
                    } else {
                        cur.write(b[i]);
                    }
                } else {
                    if (i >= b.length || Character.isWhitespace(b[i])) {
                        break;
                    } else if (b[i] == '"') {
                        inDq = true;
                    } else if (b[i] == '\'') {
                        inSq = true;
                    } else {
                        cur.write(b[i]);
                    }
                }
                i++;
            }
            out.add(cur.toByteArray());
        }
    }

    private static int hex(byte c) {
        return Character.digit(c, 16);
    }

    /** The lines redis-cli prints for {@code reply} (decoded by {@link Resp#parse}). */
    public static List<String> format(Object reply) {
        String text = format(reply, "");
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1);
        return lines;
    }

    private static String format(Object r, String prefix) {
        if (r == null) {
            return "(nil)\n";
        }
        if (r instanceof Long n) {
            return "(integer) " + n + "\n";
        }
        if (r instanceof Resp.Err e) {
            return "(error) " + e.message() + "\n";
        }
        if (r instanceof String s) {
            return s + "\n";
        }
        if (r instanceof byte[] b) {
            return repr(b) + "\n";
        }
        List<?> list = (List<?>) r;
        if (list.isEmpty()) {
            return "(empty array)\n";
        }
        int idxlen = Integer.toString(list.size()).length();
        String childPrefix = prefix + " ".repeat(idxlen + 2);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < list.size(); i++) {
            out.append(i == 0 ? "" : prefix).append(String.format("%" + idxlen + "d) ", i + 1));
            out.append(format(list.get(i), childPrefix));
        }
        return out.toString();
    }

    /** A bulk string as redis-cli quotes it (sdscatrepr). */
    public static String repr(byte[] b) {
        StringBuilder s = new StringBuilder("\"");
        for (byte x : b) {
            int c = x & 0xff;
            switch (c) {
                case '\\' -> s.append("\\\\");
                case '"' -> s.append("\\\"");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                case 7 -> s.append("\\a");
                case '\b' -> s.append("\\b");
                default -> {
                    if (c >= 0x20 && c < 0x7f) {
                        s.append((char) c);
                    } else {
                        s.append(String.format("\\x%02x", c));
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
