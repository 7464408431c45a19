package io.kevy.persist;

import java.nio.charset.StandardCharsets;

/**
 * The layout of {@code dump-{i}.rdb}.
 *
 * <pre>
 * header (feed contract §10, upstream's layout, 25 bytes):
 *   0-7    "KEVYSNAP"
 *   8      format version: 4 = no cursor, 5 or more = cursor present (kevy writes 5)
 *   9-16   generation, u64 little-endian
 *   17-24  next offset, u64 little-endian
 * body (kevy's own, version {@link #BODY_VERSION}):
 *   "KVYB" | u8 body version | u32 LE shard index | u32 LE shard count | i64 LE created at (ms)
 *   server state (shard 0 only, and only when there is some), before the entries:
 *     u8 2 | varint frame count | frames as RESP arrays (FUNCTION LOAD REPLACE &lt;code&gt;, one per library)
 *   entries, each: u8 kind | i64 LE expire-at ms (0 = none) | varint key length | key | payload
 *     kind 0 (string): varint length | bytes
 *     kind 1 (collection): varint frame count | frames as RESP arrays (HSET/RPUSH/SADD/ZADD that rebuild it; a
 *                          stream: RESTORE key 0 &lt;its DUMP payload&gt; REPLACE, so its listpack nodes come back
 *                          as they were, or its rebuild frames when its nodes pass 256 MiB)
 *   end: u8 0xFF | u64 LE entry count (keys; the server-state record is not counted) | u32 LE CRC32C of every
 *        byte before it
 * </pre>
 *
 * <p>The server-state record (kind 2, {@link io.kevy.engine.ServerState}: the FUNCTION libraries, which Redis
 * keeps in its RDB) was added without a new body version: a snapshot without libraries is byte-for-byte what
 * earlier kevy wrote, and every earlier snapshot reads as one without libraries; a kevy from before it refuses a
 * snapshot with libraries with {@code unknown entry kind 2} rather than losing them silently.
 */
final class SnapshotFormat {
    static final byte[] MAGIC = "KEVYSNAP".getBytes(StandardCharsets.US_ASCII);
    static final byte[] BODY_MAGIC = "KVYB".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_SIZE = 25;
    static final int VERSION_WITH_CURSOR = 5;
    static final int BODY_VERSION = 1;
    static final int KIND_STRING = 0;
    static final int KIND_FRAMES = 1;
    static final int KIND_SERVER_FRAMES = 2;
    static final int END = 0xFF;

    private SnapshotFormat() {
    }

    /** {@code dir/dump-{i}.rdb}. */
    static java.nio.file.Path path(java.nio.file.Path dir, int shard) {
        return dir.resolve("dump-" + shard + ".rdb");
    }
}
