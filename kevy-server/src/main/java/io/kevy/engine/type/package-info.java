/**
 * The value types a key holds ({@link io.kevy.engine.type.ValueType}) and their encodings as OBJECT ENCODING
 * reports them: hashes, lists, sets and sorted sets ({@link io.kevy.engine.type.RedisValue}); strings are plain
 * {@code byte[]}.
 */
package io.kevy.engine.type;
