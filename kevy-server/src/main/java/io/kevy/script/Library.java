package io.kevy.script;

import java.util.Map;

/**
 * One loaded FUNCTION library: its name (case-sensitive, as Redis's library dictionary), its engine
 * ({@code LUA}, the one engine), its whole code as given to FUNCTION LOAD (shebang included: what FUNCTION LIST
 * WITHCODE, FUNCTION DUMP and the persisted frames carry), and its functions in registration order.
 *
 * <p>Immutable: a reload makes a new library.
 */
record Library(String name, String engine, byte[] code, Map<String, LibraryFunction> functions) {
    /** The engine of every library: Redis 7.0 has only Lua ({@code LUA_ENGINE_NAME}). */
    static final String LUA = "LUA";
}
