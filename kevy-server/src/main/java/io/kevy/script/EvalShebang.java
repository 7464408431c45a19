package io.kevy.script;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The shebang line an EVAL script may start with in Redis 7.0 ({@code evalExtractShebangFlags}):
 * {@code #!lua} and optionally {@code flags=<flag>,<flag>...}, split into words as {@code sdssplitargs} splits them.
 * A script with a shebang runs with the flags it declares ({@link FunctionFlag}: {@code no-writes} makes it
 * read-only, and only such scripts run from EVAL_RO); one without keeps Redis's compatibility mode (no checks
 * before it runs, EVAL_RO refuses its writes as they come).
 *
 * <p>Errors, with Redis's texts (the message of the {@link IllegalArgumentException}): {@code Invalid script
 * shebang} (no newline), {@code Invalid engine in script shebang} (a line that does not split), {@code Unexpected
 * engine in script shebang: <word>}, {@code Unknown lua shebang option: <word>}, {@code Unexpected flag in script
 * shebang: <flag>} (flags are matched as written, case included).
 *
 * @param flags the flags declared
 * @param length the shebang's length in bytes, up to (not including) its newline: the code Lua compiles starts
 *               there, so that line numbers count the shebang as line 1
 */
record EvalShebang(Set<FunctionFlag> flags, int length) {
    /** The shebang of {@code body}, or null when it has none (it does not start with {@code #!}). */
    static EvalShebang parse(byte[] body) {
        if (body.length < 2 || body[0] != '#' || body[1] != '!') {
            return null;
        }
        int end = -1;
        for (int i = 0; i < body.length && body[i] != 0; i++) { // Redis's strchr: the body as a C string
            if (body[i] == '\n') {
                end = i;
                break;
            }
        }
        if (end < 0) {
            throw new IllegalArgumentException("Invalid script shebang");
        }
        List<byte[]> parts = LibraryMetadata.splitArgs(java.util.Arrays.copyOf(body, end));
        if (parts == null || parts.isEmpty()) {
            throw new IllegalArgumentException("Invalid engine in script shebang");
        }
        String engine = latin1(parts.get(0));
        if (!engine.equals("#!lua")) {
            throw new IllegalArgumentException("Unexpected engine in script shebang: " + engine);
        }
        Set<FunctionFlag> flags = EnumSet.noneOf(FunctionFlag.class);
        for (int j = 1; j < parts.size(); j++) {
            String part = latin1(parts.get(j));
            if (!part.startsWith("flags=")) {
                throw new IllegalArgumentException("Unknown lua shebang option: " + part);
            }
            String list = part.substring(6);
            if (list.isEmpty()) {
                continue; // sdssplitlen of nothing: no flag
            }
            for (String name : list.split(",", -1)) {
                FunctionFlag f = FunctionFlag.of(name);
                if (f == null || !f.redisName().equals(name)) {
                    throw new IllegalArgumentException("Unexpected flag in script shebang: " + name);
                }
                flags.add(f);
            }
        }
        return new EvalShebang(flags, end);
    }

    boolean noWrites() {
        return flags.contains(FunctionFlag.NO_WRITES);
    }

    private static String latin1(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }
}
