package io.kevy.script;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The metadata line a library's code starts with, as Redis 7.0 reads it ({@code functionExtractLibMetaData}):
 * {@code #!<engine> name=<library>} up to the first newline, split into words as {@code sdssplitargs} splits
 * them (spaces, tabs and CR separate; {@code "..."} with backslash escapes and {@code '...'} quote), the engine
 * being the first word without its {@code #!}, and {@code name=} (any case) the only option. The code the engine
 * compiles starts at that newline, so Lua's line numbers count the metadata line as line 1.
 *
 * <p>Errors, with Redis's texts (the message of the {@link IllegalArgumentException}): {@code Missing library
 * metadata} (no {@code #!}), {@code Invalid library metadata} (no newline, or a line that does not split),
 * {@code Invalid metadata value given: <word>}, {@code Invalid metadata value, name argument was given multiple
 * times}, {@code Library name was not given}.
 *
 * <p>Immutable; thread-safe.
 */
record LibraryMetadata(String engine, String name, byte[] code) {
    static final String MISSING = "Missing library metadata";
    static final String INVALID = "Invalid library metadata";

    /** Parses the metadata of {@code payload} (the whole FUNCTION LOAD argument). */
    static LibraryMetadata parse(byte[] payload) {
        if (payload.length < 2 || payload[0] != '#' || payload[1] != '!') {
            throw new IllegalArgumentException(MISSING);
        }
        int end = -1;
        for (int i = 0; i < payload.length; i++) {
            if (payload[i] == '\n') {
                end = i;
                break;
            }
            if (payload[i] == 0) {
                break; // Redis reads the payload as a C string here (strchr)
            }
        }
        if (end < 0) {
            throw new IllegalArgumentException(INVALID);
        }
        List<byte[]> parts = splitArgs(Arrays.copyOf(payload, end));
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException(INVALID);
        }
        String engine = latin1(parts.get(0)).substring(2);
        String name = null;
        for (int i = 1; i < parts.size(); i++) {
            String part = latin1(parts.get(i));
            if (part.length() >= 5 && part.substring(0, 5).toLowerCase(Locale.ROOT).equals("name=")) {
                if (name != null) {
                    throw new IllegalArgumentException(
                            "Invalid metadata value, name argument was given multiple times");
                }
                name = part.substring(5);
                continue;
            }
            throw new IllegalArgumentException("Invalid metadata value given: " + part);
        }
        if (name == null) {
            throw new IllegalArgumentException("Library name was not given");
        }
        return new LibraryMetadata(engine, name, Arrays.copyOfRange(payload, end, payload.length));
    }

    /**
     * True for a valid library or function name: one or more of {@code [a-zA-Z0-9_]} ({@code functionsVerifyName}).
     */
    static boolean validName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    /** Redis's {@code sdssplitargs}: the words of {@code line}, or null when its quotes do not balance. */
    static List<byte[]> splitArgs(byte[] line) {
        List<byte[]> out = new ArrayList<>();
        int p = 0;
        int n = line.length;
        while (true) {
            while (p < n && isSpace(line[p])) {
                p++;
            }
            if (p >= n) {
                return out;
            }
            boolean inq = false;
            boolean insq = false;
            boolean done = false;
            ByteArrayOutputStream cur = new ByteArrayOutputStream();
            while (!done) {
                if (inq) {
                    if (p >= n) {
                        return null; // unterminated quotes
                    }
                    if (line[p] == '\\' && p + 3 < n && line[p + 1] == 'x' && isHex(line[p + 2])
                            && isHex(line[p + 3])) {
                        cur.write(Character.digit(line[p + 2], 16) * 16 + Character.digit(line[p + 3], 16));
                        p += 3;
                    } else if (line[p] == '\\' && p + 1 < n) {
                        p++;
                        cur.write(switch (line[p]) {
                            case 'n' -> '\n';
                            case 'r' -> '\r';
                            case 't' -> '\t';
                            case 'b' -> '\b';
                            case 'a' -> 7;
                            default -> line[p];
                        });
                    } else if (line[p] == '"') {
                        if (p + 1 < n && !isSpace(line[p + 1])) {
                            return null; // the closing quote must be followed by a space or nothing
                        }
                        done = true;
                    } else {
                        cur.write(line[p]);
                    }
                } else if (insq) {
                    if (p >= n) {
                        return null;
                    }
                    if (line[p] == '\\' && p + 1 < n && line[p + 1] == '\'') {
                        p++;
                        cur.write('\'');
                    } else if (line[p] == '\'') {
                        if (p + 1 < n && !isSpace(line[p + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(line[p]);
                    }
                } else {
                    if (p >= n || isSpace(line[p]) || line[p] == 0) {
                        done = true;
                    } else if (line[p] == '"') {
                        inq = true;
                    } else if (line[p] == '\'') {
                        insq = true;
                    } else {
                        cur.write(line[p]);
                    }
                }
                if (p < n) {
                    p++;
                }
            }
            out.add(cur.toByteArray());
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == 0x0b || b == '\f';
    }

    private static boolean isHex(byte b) {
        return Character.digit(b, 16) >= 0;
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
