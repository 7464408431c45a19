package io.kevy.engine.command;

import io.kevy.engine.Engine;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisMemory;
import io.kevy.engine.text.RedisNumbers;

/**
 * What the string commands share: the string "encoding" OBJECT ENCODING and OBJECT REFCOUNT report, the
 * length limit of stored strings, and the allocation of new string values.
 *
 * <p><b>Encodings.</b> A stored string is an immutable {@code byte[]}; Redis 7.0 would hold it as {@code int},
 * {@code embstr} or {@code raw}, and which one depends on how it was written, not only on its bytes. The
 * keyspace node's {@linkplain io.kevy.engine.Keyspace#encodingHint encoding hint} records the history that matters:
 * <ul>
 *   <li>{@link #HINT_DEFAULT}: written by SET and friends, which run Redis's {@code tryObjectEncoding}:
 *       {@code int} for a canonical integer of at most 20 bytes, {@code embstr} up to 44 bytes, else
 *       {@code raw}. Integers in [0, 10000) are Redis's shared objects (REFCOUNT 2147483647).</li>
 *   <li>{@link #HINT_RAW}: edited in place (APPEND to an existing key, SETRANGE): always {@code raw}.</li>
 *   <li>{@link #HINT_NO_INT}: made from a formatted number (INCRBYFLOAT): {@code embstr} up to 44 bytes, else
 *       {@code raw}, never {@code int}.</li>
 *   <li>{@link #HINT_UNSHARED}: a private copy (COPY of an {@code int}): as the default but never shared.</li>
 * </ul>
 *
 * <p>Thread-safe (static, stateless).
 */
final class StringValues {
    static final int HINT_DEFAULT = 0;
    static final int HINT_RAW = 1;
    static final int HINT_NO_INT = 2;
    static final int HINT_UNSHARED = 3;

    /** Redis's OBJ_ENCODING_EMBSTR_SIZE_LIMIT. */
    static final int EMBSTR_LIMIT = 44;
    /** Redis's OBJ_SHARED_INTEGERS: integers below it are shared objects. */
    static final int SHARED_INTEGERS = 10000;
    /** The refcount Redis reports for shared objects (OBJ_SHARED_REFCOUNT, INT_MAX). */
    static final long SHARED_REFCOUNT = Integer.MAX_VALUE;
    /** Redis's default {@code proto-max-bulk-len}, the largest string a command may build. */
    static final long DEFAULT_MAX_BULK = 512L * 1024 * 1024;
    /** The largest Java array we allocate for a string (a little under Integer.MAX_VALUE, as the JDK does). */
    static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
    /** Redis's proto-max-bulk-len cannot be set below 1mb, so sizes up to it need no config lookup. */
    static final long MIN_MAX_BULK = 1024 * 1024;

    static final ErrorReply OOM = ErrorReply.of("OOM command not allowed when used memory > 'maxmemory'.");

    private StringValues() {
    }

    /** OBJECT ENCODING of the string {@code v} stored with encoding hint {@code hint}. */
    static String encoding(byte[] v, int hint) {
        if (hint == HINT_RAW) {
            return "raw";
        }
        if (hint != HINT_NO_INT && v.length <= 20 && RedisNumbers.isLong(v)) {
            return "int";
        }
        return v.length <= EMBSTR_LIMIT ? "embstr" : "raw";
    }

    /** OBJECT REFCOUNT of the string {@code v} stored with encoding hint {@code hint}. */
    static long refcount(byte[] v, int hint) {
        if (hint == HINT_DEFAULT && v.length <= 20 && RedisNumbers.isLong(v)) {
            long n = RedisNumbers.parseLongOr(v, -1);
            if (n >= 0 && n < SHARED_INTEGERS) {
                return SHARED_REFCOUNT;
            }
        }
        return 1;
    }

    /**
     * The hint a copy of a string gets (COPY: Redis's {@code dupStringObject} keeps {@code raw} and
     * {@code embstr}, and makes an unshared {@code int}).
     */
    static int copyHint(int hint) {
        return hint == HINT_DEFAULT ? HINT_UNSHARED : hint;
    }

    /** The largest string length a command may build: the {@code proto-max-bulk-len} setting (512mb default). */
    static long maxBulkLen(Engine engine) {
        RuntimeConfig.Param p = engine.runtimeConfig().lookup("proto-max-bulk-len");
        if (p == null) {
            return DEFAULT_MAX_BULK;
        }
        try {
            return RedisMemory.parse(p.get());
        } catch (IllegalArgumentException e) {
            return DEFAULT_MAX_BULK;
        }
    }

    /**
     * Checks that a string of {@code size + append} bytes may be built (Redis's {@code checkStringLength}, with
     * its overflow check).
     *
     * @throws io.kevy.engine.error.CommandException {@link Errors#STRING_TOO_LONG} when it exceeds
     *                                         {@code proto-max-bulk-len} or what a Java array can hold
     */
    static void checkLength(Engine engine, long size, long append) {
        long total = size + append;
        if (total < size || total < append || total > MAX_ARRAY
                || (total > MIN_MAX_BULK && total > maxBulkLen(engine))) {
            throw Call.fail(Errors.STRING_TOO_LONG);
        }
    }

    /**
     * A zeroed array of {@code length} bytes for a new value, allocated before anything changes.
     *
     * @throws io.kevy.engine.error.CommandException {@link #OOM} when the heap cannot hold it
     */
    static byte[] allocate(long length) {
        try {
            return new byte[(int) length];
        } catch (OutOfMemoryError e) {
            throw Call.fail(OOM);
        }
    }
}
