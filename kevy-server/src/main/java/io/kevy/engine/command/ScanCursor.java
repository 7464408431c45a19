package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;

/**
 * The SCAN cursor over a sharded keyspace: one unsigned 64-bit number that names a shard and a position in that
 * shard's table.
 *
 * <p><b>Encoding.</b> With N shards, let {@code b} be the number of bits needed for a shard index
 * ({@code ceil(log2 N)}, 0 for one shard). The low {@code b} bits hold the shard index and the bits above them
 * hold the shard's {@link io.kevy.engine.struct.Dict#scan Dict} cursor (the reverse-binary bucket cursor, at
 * most 30 bits): {@code cursor = dictCursor << b | shard}. The scan visits shard 0 from Dict cursor 0 to the
 * end of its table, then shard 1, and so on; the cursor {@code (shard 0, dict cursor 0)} is 0, so a scan starts
 * and ends at 0 as in Redis, and with one shard the cursor is exactly Redis's.
 *
 * <p><b>Guarantee.</b> A key always lives on the same shard, and each shard's walk keeps the Dict guarantee
 * (every key present from the start to the end of the walk is returned at least once, whatever resizes happen
 * in between), so a key present for the whole SCAN is returned at least once. A cursor whose shard bits name no
 * shard (only a forged cursor can) ends the scan.
 *
 * <p>Thread-safe (static).
 */
final class ScanCursor {
    static final ErrorReply INVALID = ErrorReply.err("invalid cursor");

    private ScanCursor() {
    }

    /** Bits of the shard index for {@code shards} shards. */
    static int shardBits(int shards) {
        return shards <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(shards - 1);
    }

    static long encode(int shard, long dictCursor, int shards) {
        return (dictCursor << shardBits(shards)) | shard;
    }

    static int shard(long cursor, int shards) {
        int bits = shardBits(shards);
        return (int) (cursor & ((1L << bits) - 1));
    }

    static long dictCursor(long cursor, int shards) {
        return cursor >>> shardBits(shards);
    }

    /**
     * Parses a cursor as Redis 7.0's {@code parseScanCursorOrReply} does ({@code strtoul} base 10 with its
     * checks): the argument up to its first NUL byte (C sees no further, so {@code "12\0x"} is 12); no leading
     * space; an optional sign ({@code -n} wraps modulo 2^64); digits; nothing after them; at most 2^64 - 1. The
     * empty string is 0. The one cursor parser of SCAN, SSCAN, HSCAN and ZSCAN.
     *
     * @return the cursor as an unsigned 64-bit value
     * @throws io.kevy.engine.error.CommandException {@code ERR invalid cursor}
     */
    static long parse(byte[] b) {
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        if (n == 0) {
            return 0;
        }
        int i = 0;
        boolean negative = false;
        if (b[0] == '+' || b[0] == '-') {
            negative = b[0] == '-';
            i++;
        }
        if (i == n) {
            throw Call.fail(INVALID);
        }
        long v = 0;
        for (; i < n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                throw Call.fail(INVALID);
            }
            long hi = Math.multiplyHigh(v, 10) + ((v >> 63) & 10); // unsigned high word of v * 10
            long lo = v * 10;
            if (hi != 0 || Long.compareUnsigned(lo + d, lo) < 0) {
                throw Call.fail(INVALID);
            }
            v = lo + d;
        }
        return negative ? -v : v;
    }
}
