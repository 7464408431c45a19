package io.kevy.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The parameters CONFIG GET / CONFIG SET see, by their Redis names. Each parameter is declared once with a
 * getter and an optional setter that validates and applies; {@link #remember} declares Redis tuning names that
 * do not apply to kevy (encodings, ...) so tools that set them keep working: their values are stored and
 * echoed back, and change nothing.
 *
 * <p>Thread-safe: parameters are registered at startup; reads and writes of values go through the owners'
 * volatile fields or this class's synchronized map.
 */
public final class RuntimeConfig {
    /** A CONFIG parameter. */
    public interface Param {
        /** Current value as CONFIG GET prints it. */
        String get();

        /**
         * Validates and applies {@code value}.
         *
         * @return null on success, else the reason (becomes part of CONFIG SET's error)
         */
        String set(String value);

        /** False for parameters CONFIG SET refuses (immutable after start). */
        boolean mutable();
    }

    private final Map<String, Param> params = new LinkedHashMap<>();

    /** Registers {@code param} under {@code name} (lower case) and any aliases. */
    public synchronized void register(String name, Param param, String... aliases) {
        params.put(name.toLowerCase(Locale.ROOT), param);
        for (String a : aliases) {
            params.put(a.toLowerCase(Locale.ROOT), param);
        }
    }

    /** Registers a read-only parameter. */
    public void readOnly(String name, Supplier<String> getter) {
        register(name, new Param() {
            @Override
            public String get() {
                return getter.get();
            }

            @Override
            public String set(String value) {
                return "can't set immutable config";
            }

            @Override
            public boolean mutable() {
                return false;
            }
        });
    }

    /** Registers a mutable parameter with a parser that returns an error text or null after applying. */
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

            @Override
            public boolean mutable() {
                return true;
            }
        }, aliases);
    }

    /** Registers a name whose value is only remembered (it does not apply to kevy). */
    public void remember(String name, String initial, String... aliases) {
        String[] holder = {initial};
        mutable(name, () -> holder[0], v -> {
            holder[0] = v;
            return null;
        }, aliases);
    }

    /** A yes/no parameter backed by {@code getter}/{@code setter}. */
    public void bool(String name, Supplier<Boolean> getter, Consumer<Boolean> setter) {
        mutable(name, () -> getter.get() ? "yes" : "no", v -> {
            String l = v.toLowerCase(Locale.ROOT);
            if (!l.equals("yes") && !l.equals("no")) {
                return "argument must be 'yes' or 'no'";
            }
            setter.accept(l.equals("yes"));
            return null;
        });
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
}
