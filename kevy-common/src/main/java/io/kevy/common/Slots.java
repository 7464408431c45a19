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

    private static final int[] TABLE = new int[256];

    static {
        for (int i = 0; i < 256; i++) {
            int crc = i << 8;
            for (int j = 0; j < 8; j++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            TABLE[i] = crc & 0xffff;
        }
    }

    private Slots() {
    }

    /** CRC16-XMODEM (polynomial 0x1021, initial value 0) of {@code b[off..off+len)}. */
    public static int crc16(byte[] b, int off, int len) {
        int crc = 0;
        for (int i = off; i < off + len; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ b[i]) & 0xff]) & 0xffff;
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
