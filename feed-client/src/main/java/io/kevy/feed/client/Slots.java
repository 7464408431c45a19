package io.kevy.feed.client;

/**
 * Key → shard as both servers map it (feed contract §2): {@code slot = CRC16-XMODEM(hashtag(key)) mod 16384},
 * {@code shard = slot mod N}, Redis Cluster hash tags honoured. Stateless and thread-safe.
 */
public final class Slots {
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

    /** The cluster slot of {@code key}. */
    public static int slot(byte[] key) {
        int from = 0;
        int to = key.length;
        for (int i = 0; i < key.length; i++) {
            if (key[i] == '{') {
                for (int j = i + 1; j < key.length; j++) {
                    if (key[j] == '}') {
                        if (j > i + 1) {
                            from = i + 1;
                            to = j;
                        }
                        break;
                    }
                }
                break;
            }
        }
        int crc = 0;
        for (int i = from; i < to; i++) {
            crc = ((crc << 8) ^ TABLE[((crc >>> 8) ^ key[i]) & 0xff]) & 0xffff;
        }
        return crc % SLOTS;
    }

    /** The shard of {@code key} among {@code shards}. */
    public static int shard(byte[] key, int shards) {
        return slot(key) % shards;
    }
}
