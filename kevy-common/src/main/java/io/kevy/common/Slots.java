package io.kevy.common;

/**
 * Key to shard mapping (feed contract §2): {@code slot = CRC16-XMODEM(hashtag(key)) mod 16384}, with Redis
 * Cluster hash tags ({@code {...}}, first non-empty tag) honoured, and {@code shard = slot mod N}.
 *
 * <p>Thread-safe and allocation-free.
 */
public final class Slots {
    /** Number of hash slots, as in Redis Cluster. */
    public static final int SLOTS = 16384;

    /*
     * CRC16 by slicing-by-8: T0[x] is the CRC of the byte x, Tk[x] the CRC of x followed by k zero bytes. The CRC
     * is linear and its register is two bytes wide, so the CRC after eight bytes b0..b7 from register r is
     * T7[b0 ^ r.hi] ^ T6[b1 ^ r.lo] ^ T5[b2] ^ ... ^ T0[b7]: eight independent table loads instead of a chain of
     * eight dependent steps (the byte-wise loop was 14% of the server's samples under pipelined GETs).
     */
    private static final int[] T0 = new int[256];
    private static final int[] T1 = new int[256];
    private static final int[] T2 = new int[256];
    private static final int[] T3 = new int[256];
    private static final int[] T4 = new int[256];
    private static final int[] T5 = new int[256];
    private static final int[] T6 = new int[256];
    private static final int[] T7 = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int j = 0; j < 8; j++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            T0[i] = crc & 0xffff;
        }
        int[][] tables = {T0, T1, T2, T3, T4, T5, T6, T7};
        for (int k = 1; k < tables.length; k++) {
            for (int i = 0; i < 256; i++) {
                int prev = tables[k - 1][i];
                tables[k][i] = ((prev << 8) ^ T0[prev >>> 8]) & 0xffff; // one more zero byte
            }
        }
    }

    private Slots() {
    }

    /** CRC16-XMODEM (polynomial 0x1021, initial value 0) of {@code b[off..off+len)}. */
    public static int crc16(byte[] b, int off, int len) {
        int crc = 0;
        int i = off;
        int end = off + len;
        for (; end - i >= 8; i += 8) {
            crc = T7[((crc >>> 8) ^ b[i]) & 0xff] ^ T6[(crc ^ b[i + 1]) & 0xff] ^ T5[b[i + 2] & 0xff]
                    ^ T4[b[i + 3] & 0xff] ^ T3[b[i + 4] & 0xff] ^ T2[b[i + 5] & 0xff] ^ T1[b[i + 6] & 0xff]
                    ^ T0[b[i + 7] & 0xff];
        }
        for (; i < end; i++) {
            crc = ((crc << 8) ^ T0[((crc >>> 8) ^ b[i]) & 0xff]) & 0xffff;
        }
        return crc;
    }

    /** The hash slot of {@code key} in [0, 16384). */
    public static int slot(byte[] key) {
        int open = -1;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{') {
                open = i;
                break;
            }
        }
        if (open >= 0) {
            for (int j = open + 1; j < key.length; j++) {
                if (key[j] == '}') {
                    if (j > open + 1) {
                        return crc16(key, open + 1, j - open - 1) & (SLOTS - 1);
                    }
                    break;
                }
            }
        }
        return crc16(key, 0, key.length) & (SLOTS - 1);
    }

    /** The shard of {@code key} among {@code shards} shards. */
    public static int shard(byte[] key, int shards) {
        return shards == 1 ? 0 : slot(key) % shards;
    }
}
