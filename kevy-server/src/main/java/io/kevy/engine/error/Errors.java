package io.kevy.engine.error;

/**
 * Error replies with Redis 7.0's exact texts, shared by all command families. Family-specific texts live
 * next to their commands; texts built from arguments are made by the factory methods here.
 */
public final class Errors {
    public static final ErrorReply WRONGTYPE =
            ErrorReply.of("WRONGTYPE Operation against a key holding the wrong kind of value");
    public static final ErrorReply SYNTAX = ErrorReply.err("syntax error");
    public static final ErrorReply NO_SUCH_KEY = ErrorReply.err("no such key");
    public static final ErrorReply NOT_INTEGER = ErrorReply.err("value is not an integer or out of range");
    public static final ErrorReply NOT_FLOAT = ErrorReply.err("value is not a valid float");
    public static final ErrorReply OVERFLOW = ErrorReply.err("increment or decrement would overflow");
    public static final ErrorReply INCR_NAN_OR_INF = ErrorReply.err("increment would produce NaN or Infinity");
    public static final ErrorReply INDEX_OUT_OF_RANGE = ErrorReply.err("index out of range");
    public static final ErrorReply NOAUTH = ErrorReply.of("NOAUTH Authentication required.");
    public static final ErrorReply WRONGPASS =
            ErrorReply.of("WRONGPASS invalid username-password pair or user is disabled.");
    public static final ErrorReply EXECABORT =
            ErrorReply.of("EXECABORT Transaction discarded because of previous errors.");
    public static final ErrorReply DB_INDEX_OUT_OF_RANGE = ErrorReply.err("DB index is out of range");
    public static final ErrorReply STRING_TOO_LONG =
            ErrorReply.err("string exceeds maximum allowed size (proto-max-bulk-len)");
    public static final ErrorReply TIMEOUT_NOT_FLOAT = ErrorReply.err("timeout is not a float or out of range");
    public static final ErrorReply TIMEOUT_NEGATIVE = ErrorReply.err("timeout is negative");
    public static final ErrorReply MIN_MAX_NOT_FLOAT = ErrorReply.err("min or max is not a float");
    public static final ErrorReply MIN_MAX_NOT_STRING_RANGE = ErrorReply.err("min or max not valid string range item");

    private Errors() {
    }

    /** Another client's script is past {@code busy-reply-threshold} (Redis's {@code shared.slowevalerr}). */
    public static final ErrorReply BUSY = ErrorReply.of(
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
    /** Redis's {@code slowscripterr}: the {@code -BUSY} of a running library function (FCALL). */
    public static final ErrorReply BUSY_FUNCTION = ErrorReply.of(
            "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.");

    /** {@code ERR wrong number of arguments for '<name>' command} (name lower case, {@code cmd|sub} for subcommands). */
    public static ErrorReply wrongArity(String name) {
        return ErrorReply.err("wrong number of arguments for '" + name + "' command");
    }

    /** {@code ERR invalid expire time in '<command>' command}. */
    public static ErrorReply invalidExpire(String command) {
        return ErrorReply.err("invalid expire time in '" + command + "' command");
    }

    /**
     * Redis's unknown-command error: {@code ERR unknown command '<name>', with args beginning with: '<a1>' ...}
     * (each argument up to 128 bytes, the whole list up to 128 characters of arguments, as Redis trims them).
     */
    public static ErrorReply unknownCommand(byte[][] argv) {
        StringBuilder args = new StringBuilder();
        for (int i = 1; i < argv.length && args.length() < 128; i++) {
            int room = 128 - args.length();
            String a = sanitize(argv[i], room);
            args.append('\'').append(a).append("' ");
        }
        return ErrorReply.err("unknown command '" + sanitize(argv[0], 128) + "', with args beginning with: " + args);
    }

    /** {@code ERR unknown subcommand '<sub>'. Try <CMD> HELP.} */
    public static ErrorReply unknownSubcommand(byte[] sub, String container) {
        return ErrorReply.err("unknown subcommand '" + sanitize(sub, 128) + "'. Try "
                + container.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    /**
     * Renders argument bytes for an error message as Redis's {@code %.128s} does: at most {@code max} bytes,
     * cut at a NUL, CR and LF mapped to spaces, each byte one Latin-1 character (see {@link ErrorReply}).
     */
    static String sanitize(byte[] b, int max) {
        int n = Math.min(b.length, max);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n && b[i] != 0; i++) {
            int c = b[i] & 0xff;
            sb.append(c == '\r' || c == '\n' ? ' ' : (char) c);
        }
        return sb.toString();
    }
}
