package io.kevy.engine.config;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.RedisNumbers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The parameters CONFIG GET / CONFIG SET see, by their Redis 7.0 names. Each parameter is declared once, by its
 * owner, with a getter and a setter that validates and applies it; the typed helpers ({@link #integer},
 * {@link #memory}, {@link #bool}, {@link #enumeration}) parse values and word their errors exactly as Redis 7.0
 * does. The {@code remember*} helpers declare Redis tuning names that do not apply to kevy (see
 * {@link RedisConfigCatalog}): their values are validated, stored and echoed back, and change nothing, so tools
 * and test suites that set them keep working.
 *
 * <p>Registering a name again replaces the earlier parameter: the catalog registers every Redis name first and
 * the engine and the server then register the real ones over it.
 *
 * <p>Thread-safe: registration and {@link #setAll} are synchronized; values live in the owners' volatile fields
 * or in this class's holders.
 */
public final class RuntimeConfig {
    /** CONFIG SET's reason for a parameter fixed at startup. */
    public static final String IMMUTABLE = "can't set immutable config";
    /** CONFIG SET's reason for a protected parameter (Redis's {@code enable-protected-configs no}). */
    public static final String PROTECTED = "can't set protected config";

    /** A CONFIG parameter. */
    public interface Param {
        /** Current value as CONFIG GET prints it; never null. */
        String get();

        /**
         * Validates and applies {@code value}.
         *
         * @return null on success, else the reason (it becomes part of CONFIG SET's error)
         */
        String set(String value);

        /** Null when CONFIG SET may change the parameter, else why not ({@link #IMMUTABLE}, {@link #PROTECTED}). */
        default String refusal() {
            return null;
        }

        /** False for parameters CONFIG SET refuses. */
        default boolean mutable() {
            return refusal() == null;
        }
    }

    private final Map<String, Param> params = new LinkedHashMap<>();

    /** Registers {@code param} under {@code name} (lower case) and any aliases, replacing earlier entries. */
    public synchronized void register(String name, Param param, String... aliases) {
        params.put(name.toLowerCase(Locale.ROOT), param);
        for (String a : aliases) {
            params.put(a.toLowerCase(Locale.ROOT), param);
        }
    }

    /** Registers a parameter CONFIG SET refuses as immutable. */
    public void readOnly(String name, Supplier<String> getter) {
        refused(name, getter, IMMUTABLE);
    }

    /** Registers a parameter CONFIG SET refuses as protected ({@code dir}, {@code dbfilename}, ...). */
    public void protectedParam(String name, Supplier<String> getter) {
        refused(name, getter, PROTECTED);
    }

    private void refused(String name, Supplier<String> getter, String reason) {
        register(name, new Param() {
            @Override
            public String get() {
                return getter.get();
            }

            @Override
            public String set(String value) {
                return reason;
            }

            @Override
            public String refusal() {
                return reason;
            }
        });
    }

    /** Registers a mutable parameter whose setter validates, applies, and returns an error text or null. */
    public void mutable(String name, Supplier<String> getter, Function<String, String> setter, String... aliases) {
        register(name, new Param() {
            @Override
            public String get() {
                return getter.get();
            }

            @Override
            public String set(String value) {
                return setter.apply(value);
            }
        }, aliases);
    }

    /**
     * Registers a mutable parameter through a normalizer: {@code parse} turns the text into the canonical stored
     * form or throws {@link IllegalArgumentException} whose message is the reason; {@code apply} receives it.
     */
    public void parsed(String name, Supplier<String> getter, Function<String, String> parse, Consumer<String> apply,
            String... aliases) {
        mutable(name, getter, v -> {
            String canonical;
            try {
                canonical = parse.apply(v);
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
            apply.accept(canonical);
            return null;
        }, aliases);
    }

    /** A yes/no parameter (Redis's bool config). */
    public void bool(String name, Supplier<Boolean> getter, Consumer<Boolean> setter, String... aliases) {
        parsed(name, () -> getter.get() ? "yes" : "no", RuntimeConfig::parseBool,
                v -> setter.accept(v.equals("yes")), aliases);
    }

    /** An integer parameter in {@code [min, max]} (Redis's numeric config without the memory flag). */
    public void integer(String name, long min, long max, LongSupplier getter, LongConsumer setter, String... aliases) {
        parsed(name, () -> Long.toString(getter.getAsLong()), v -> Long.toString(parseInteger(v, min, max)),
                v -> setter.accept(Long.parseLong(v)), aliases);
    }

    /** A byte-size parameter in {@code [min, max]} accepting Redis memory units ({@code 1kb}, {@code 5m}, ...). */
    public void memory(String name, long min, long max, LongSupplier getter, LongConsumer setter, String... aliases) {
        parsed(name, () -> Long.toString(getter.getAsLong()), v -> Long.toString(parseMemory(v, min, max)),
                v -> setter.accept(Long.parseLong(v)), aliases);
    }

    /** A parameter taking one of {@code values} (case-insensitive; stored as listed). */
    public void enumeration(String name, List<String> values, Supplier<String> getter, Consumer<String> setter,
            String... aliases) {
        parsed(name, getter, v -> parseEnum(v, values), setter, aliases);
    }

    /** Remembers a free-form string parameter (no effect on kevy). */
    public void remember(String name, String initial, String... aliases) {
        rememberParsed(name, initial, v -> v, aliases);
    }

    /** Remembers a parameter whose text {@code parse} validates and normalizes (see {@link #parsed}). */
    public void rememberParsed(String name, String initial, Function<String, String> parse, String... aliases) {
        Holder h = new Holder(initial);
        parsed(name, h::get, parse, h::set, aliases);
    }

    /** Remembers a yes/no parameter. */
    public void rememberBool(String name, boolean initial, String... aliases) {
        rememberParsed(name, initial ? "yes" : "no", RuntimeConfig::parseBool, aliases);
    }

    /** Remembers an integer parameter in {@code [min, max]}. */
    public void rememberInteger(String name, long initial, long min, long max, String... aliases) {
        rememberParsed(name, Long.toString(initial), v -> Long.toString(parseInteger(v, min, max)), aliases);
    }

    /** Remembers an unsigned 64-bit byte-size parameter ({@code maxmemory}), read back unsigned. */
    public void rememberUnsignedMemory(String name, long initial, String... aliases) {
        rememberParsed(name, Long.toUnsignedString(initial), v -> Long.toUnsignedString(parseUnsignedMemory(v)),
                aliases);
    }

    /** Remembers a byte-size parameter in {@code [min, max]}. */
    public void rememberMemory(String name, long initial, long min, long max, String... aliases) {
        rememberParsed(name, Long.toString(initial), v -> Long.toString(parseMemory(v, min, max)), aliases);
    }

    /** Remembers a parameter taking one of {@code values}. */
    public void rememberEnum(String name, String initial, List<String> values, String... aliases) {
        rememberParsed(name, initial, v -> parseEnum(v, values), aliases);
    }

    /** The parameter named {@code name} (case-insensitive), or null. */
    public synchronized Param lookup(String name) {
        return params.get(name.toLowerCase(Locale.ROOT));
    }

    /** Every registered name (aliases included) in registration order. */
    public synchronized List<String> names() {
        return new ArrayList<>(params.keySet());
    }

    /** The current value of {@code name}, or null when unknown. */
    public String get(String name) {
        Param p = lookup(name);
        return p == null ? null : p.get();
    }

    /**
     * CONFIG SET of several {@code name, value, name, value, ...}, all or nothing, with Redis 7.0's checks in its
     * order: the first unknown, immutable, protected or repeated name (in argument order) fails the command; then
     * each value is applied in turn, and when one is invalid the ones already applied are restored.
     *
     * @return null when every value was applied, else the error to reply (nothing changed)
     */
    public synchronized ErrorReply setAll(List<String> namesAndValues) {
        int n = namesAndValues.size() / 2;
        Param[] found = new Param[n];
        String unknown = null;
        String failedName = null;
        String reason = null;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < n && unknown == null && reason == null; i++) {
            String name = namesAndValues.get(2 * i);
            Param p = params.get(name.toLowerCase(Locale.ROOT));
            if (p == null) {
                unknown = name;
            } else if (p.refusal() != null) {
                reason = p.refusal();
                failedName = name;
            } else if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                reason = "duplicate parameter";
                failedName = name;
            } else {
                found[i] = p;
            }
        }
        if (unknown != null) {
            return ErrorReply.err("Unknown option or number of arguments for CONFIG SET - '" + unknown + "'");
        }
        if (reason != null) {
            return failed(failedName, reason);
        }
        String[] old = new String[n];
        for (int i = 0; i < n; i++) {
            old[i] = found[i].get();
        }
        for (int i = 0; i < n; i++) {
            String err = found[i].set(namesAndValues.get(2 * i + 1));
            if (err != null) {
                for (int j = i - 1; j >= 0; j--) {
                    found[j].set(old[j]);
                }
                return failed(namesAndValues.get(2 * i).toLowerCase(Locale.ROOT), err);
            }
        }
        return null;
    }

    private static ErrorReply failed(String name, String reason) {
        return ErrorReply.err("CONFIG SET failed (possibly related to argument '" + name + "') - " + reason);
    }

    /* ---- Redis 7.0's value parsers; each throws IllegalArgumentException with CONFIG SET's reason ---- */

    /** {@code yes} or {@code no} (any case), returned lower case. */
    public static String parseBool(String v) {
        String l = v.toLowerCase(Locale.ROOT);
        if (!l.equals("yes") && !l.equals("no")) {
            throw new IllegalArgumentException("argument must be 'yes' or 'no'");
        }
        return l;
    }

    /** A canonical integer ({@code string2ll}) in {@code [min, max]}. */
    public static long parseInteger(String v, long min, long max) {
        byte[] b = v.getBytes(StandardCharsets.UTF_8);
        if (!RedisNumbers.isLong(b)) {
            throw new IllegalArgumentException("argument couldn't be parsed into an integer");
        }
        return checkRange(RedisNumbers.parseLong(b), min, max);
    }

    /**
     * A memory value as Redis 7.0's {@code memtoull}: digits (possibly none, meaning 0) and an optional unit
     * {@code b}, {@code k}/{@code m}/{@code g} (powers of 1000) or {@code kb}/{@code mb}/{@code gb} (powers of 1024),
     * any case; then the range check on the value read as a signed 64-bit integer. As in Redis, the digits saturate
     * at 2^64-1 ({@code strtoull}) and the unit multiplies modulo 2^64, so a value past 2^63-1 fails the range check
     * ("argument must be between ...") rather than the syntax check ("argument must be a memory value").
     *
     * @throws IllegalArgumentException with Redis's CONFIG SET reason
     */
    public static long parseMemory(String v, long min, long max) {
        return checkRange(memtoull(v), min, max);
    }

    /**
     * An unsigned memory value ({@code maxmemory}: any 64-bit value, read back unsigned), as {@link #parseMemory}
     * without the range check: the returned bits are the unsigned value.
     */
    public static long parseUnsignedMemory(String v) {
        return memtoull(v);
    }

    private static long memtoull(String v) {
        int i = 0;
        while (i < v.length() && v.charAt(i) >= '0' && v.charAt(i) <= '9') {
            i++;
        }
        long mul = switch (v.substring(i).toLowerCase(Locale.ROOT)) {
            case "", "b" -> 1;
            case "k" -> 1000;
            case "kb" -> 1024;
            case "m" -> 1000L * 1000;
            case "mb" -> 1024L * 1024;
            case "g" -> 1000L * 1000 * 1000;
            case "gb" -> 1024L * 1024 * 1024;
            default -> 0;
        };
        if (mul == 0 || i >= 128) { // 128: memtoull's digit buffer
            throw new IllegalArgumentException("argument must be a memory value");
        }
        long n = 0;
        for (int k = 0; k < i; k++) {
            int d = v.charAt(k) - '0';
            if (Long.compareUnsigned(n, Long.divideUnsigned(-1L - d, 10)) > 0) {
                n = -1L; // strtoull saturates at ULLONG_MAX
                break;
            }
            n = n * 10 + d;
        }
        return n * mul;
    }

    /** One of {@code values}, case-insensitive, returned as listed. */
    public static String parseEnum(String v, List<String> values) {
        for (String s : values) {
            if (s.equalsIgnoreCase(v)) {
                return s;
            }
        }
        throw new IllegalArgumentException("argument(s) must be one of the following: " + String.join(", ", values));
    }

    private static long checkRange(long n, long min, long max) {
        if (n < min || n > max) {
            throw new IllegalArgumentException("argument must be between " + min + " and " + max + " inclusive");
        }
        return n;
    }

    /** A remembered value. */
    private static final class Holder {
        private volatile String value;

        Holder(String value) {
            this.value = value;
        }

        String get() {
            return value;
        }

        void set(String v) {
            value = v;
        }
    }
}
