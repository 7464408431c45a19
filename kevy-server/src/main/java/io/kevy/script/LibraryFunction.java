package io.kevy.script;

import java.util.Set;
import org.luaj.vm2.LuaFunction;

/**
 * One function of a library, as {@code redis.register_function} registered it: its name (letters, digits and
 * {@code _}; FCALL finds it case-insensitively), its description (bytes, or null when none was given), its
 * flags and the Lua callback, which FCALL calls with the keys and the arguments as two tables.
 *
 * <p>Immutable once registered (the callback runs on the functions' Lua state only, under the runner's lock).
 */
record LibraryFunction(String name, byte[] description, Set<FunctionFlag> flags, LuaFunction callback,
                       String library) {
    /** True when the function declared {@code no-writes}. */
    boolean noWrites() {
        return flags.contains(FunctionFlag.NO_WRITES);
    }
}
