package io.kevy.resp;

/**
 * Limits on what one client may send, checked by {@link RespParser} before anything is allocated. Live
 * values: CONFIG SET changes them for every connection.
 *
 * <p>Thread-safe (volatile fields).
 */
public final class ProtocolLimits {
    /** Redis's {@code proto-max-bulk-len} default: 512 MiB. */
    public static final long DEFAULT_MAX_BULK_LEN = 512L * 1024 * 1024;
    /** Default largest argument count of one command (kevy's {@code proto-max-multibulk-len}). */
    public static final int DEFAULT_MAX_MULTIBULK_LEN = 1024 * 1024;
    /** Redis's PROTO_INLINE_MAX_SIZE: the longest inline command and header line, 64 KiB. */
    public static final int MAX_INLINE_LEN = 64 * 1024;
    /** Largest multibulk count before AUTH when a password is required (Redis: 10). */
    public static final int UNAUTHENTICATED_MULTIBULK_LEN = 10;
    /** Largest bulk length before AUTH when a password is required (Redis: 16384). */
    public static final int UNAUTHENTICATED_BULK_LEN = 16384;

    private volatile long maxBulkLen = DEFAULT_MAX_BULK_LEN;
    private volatile int maxMultibulkLen = DEFAULT_MAX_MULTIBULK_LEN;

    /** Largest accepted bulk string, bytes. */
    public long maxBulkLen() {
        return maxBulkLen;
    }

    public void maxBulkLen(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("proto-max-bulk-len must be positive");
        }
        this.maxBulkLen = bytes;
    }

    /** Largest accepted argument count of one command. */
    public int maxMultibulkLen() {
        return maxMultibulkLen;
    }

    public void maxMultibulkLen(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("proto-max-multibulk-len must be positive");
        }
        this.maxMultibulkLen = count;
    }
}
