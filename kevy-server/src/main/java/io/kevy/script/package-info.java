/**
 * Lua scripting as Redis 7.0 has it: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT ({@link ScriptCommands}), and
 * FUNCTION libraries with FCALL and FCALL_RO ({@link FunctionCommands}, {@link Functions}), run
 * on luaj (Lua 5.2, adapted to Redis's Lua 5.1 surface) in a sandbox ({@link LuaSandbox}). A script runs with
 * every shard locked; its {@code redis.call}s run through {@link io.kevy.engine.command.Call#runNested}, so its
 * frames are the effects of its writes. The only package that sees luaj types; the engine sees none.
 */
package io.kevy.script;
