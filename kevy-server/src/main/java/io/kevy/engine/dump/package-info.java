/**
 * Redis 7.0's DUMP payload format (the RDB serialization of one value, version 10): {@link DumpEncoder} writes
 * kevy values as Redis would, {@link DumpDecoder} reads every encoding Redis 7.0 emits or still loads, with
 * {@link Listpack}, {@link Ziplist}, {@link Lzf} and {@link Crc64} as its building blocks. Pure functions of their
 * inputs: no engine state, thread-safe.
 */
package io.kevy.engine.dump;
