package io.kevy.persist;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The 32-byte header at the start of every {@code aof-{i}.aof}: magic {@code KEVYAOF\0}, format version (u32
 * LE), the generation (u64 LE) and the offset of the first frame (u64 LE) — frame {@code k} of the file has
 * offset {@code baseOffset + k} — and a CRC32C of the first 28 bytes.
 *
 * @param generation the stream generation the frames belong to (feed contract §5)
 * @param baseOffset the offset of the file's first frame
 */
record AofHeader(long generation, long baseOffset) {
    static final int SIZE = 32;
    static final int VERSION = 1;
    private static final byte[] MAGIC = "KEVYAOF\0".getBytes(StandardCharsets.US_ASCII);

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putLong(generation).putLong(baseOffset);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 28);
        b.putInt((int) crc.getValue());
        return b.array();
    }

    /**
     * @throws IOException naming {@code file} when the bytes are not a valid header
     */
    static AofHeader decode(byte[] bytes, String file) throws IOException {
        if (bytes.length < SIZE) {
            throw new IOException(file + ": truncated AOF header (" + bytes.length + " of " + SIZE + " bytes)");
        }
        if (!Arrays.equals(bytes, 0, 8, MAGIC, 0, 8)) {
            throw new IOException(file + ": not a kevy AOF (bad magic)");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.position(8);
        int version = b.getInt();
        long gen = b.getLong();
        long base = b.getLong();
        int stored = b.getInt();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 28);
        if ((int) crc.getValue() != stored) {
            throw new IOException(file + ": AOF header checksum mismatch");
        }
        if (version != VERSION) {
            throw new IOException(file + ": unsupported AOF format version " + version + " (this kevy reads "
                    + VERSION + ")");
        }
        return new AofHeader(gen, base);
    }
}
