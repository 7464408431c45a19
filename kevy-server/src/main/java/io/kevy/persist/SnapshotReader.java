package io.kevy.persist;

import io.kevy.resp.FrameReader;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Reads {@code dump-{i}.rdb}: the header's cursor, and the entries, after checking the whole file's CRC32C
 * first so that nothing from a damaged file is applied. Errors name the file and the reason.
 */
final class SnapshotReader {
    private SnapshotReader() {
    }

    /** The snapshot's header fields. {@code hasCursor} is false for format versions below 5. */
    record Header(int version, boolean hasCursor, long generation, long nextOffset) {
    }

    /** One stored key: a string ({@code string != null}) or the frames that rebuild a collection. */
    interface EntryConsumer {
        void string(byte[] key, long expireAt, byte[] value) throws IOException;

        void frames(byte[] key, long expireAt, byte[][][] frames) throws IOException;

        /** The server-wide state's frames (FUNCTION libraries; {@link SnapshotFormat}), before any entry. */
        default void serverFrames(byte[][][] frames) throws IOException {
        }
    }

    /**
     * Reads the 25-byte header.
     *
     * @throws IOException for bad magic or a header shorter than 25 bytes, naming the file
     */
    static Header readHeader(Path file) throws IOException {
        byte[] h;
        try (InputStream in = Files.newInputStream(file)) {
            h = in.readNBytes(SnapshotFormat.HEADER_SIZE);
        }
        return parseHeader(h, file);
    }

    static Header parseHeader(byte[] h, Path file) throws IOException {
        if (h.length < 9) {
            throw new IOException(file + ": truncated snapshot header (" + h.length + " bytes)");
        }
        if (!Arrays.equals(h, 0, 8, SnapshotFormat.MAGIC, 0, 8)) {
            throw new IOException(file + ": not a kevy snapshot (bad magic)");
        }
        int version = h[8] & 0xff;
        if (version < SnapshotFormat.VERSION_WITH_CURSOR) {
            return new Header(version, false, 0, 0);
        }
        if (h.length < SnapshotFormat.HEADER_SIZE) {
            throw new IOException(file + ": truncated snapshot header (" + h.length + " of "
                    + SnapshotFormat.HEADER_SIZE + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        return new Header(version, true, b.getLong(9), b.getLong(17));
    }

    /**
     * Verifies the checksum, then calls {@code consumer} for every entry.
     *
     * @return the header
     * @throws IOException naming the file on a checksum mismatch, truncation or format error
     */
    static Header read(Path file, EntryConsumer consumer) throws IOException {
        verifyChecksum(file);
        long size = Files.size(file);
        Counting counting = new Counting(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        try (DataInputStream in = new DataInputStream(counting)) {
            byte[] h = in.readNBytes(SnapshotFormat.HEADER_SIZE);
            Header header = parseHeader(h, file);
            if (header.version() != SnapshotFormat.VERSION_WITH_CURSOR) {
                throw new IOException(file + ": snapshot version " + header.version() + " is not kevy's ("
                        + SnapshotFormat.VERSION_WITH_CURSOR + ")");
            }
            byte[] magic = in.readNBytes(4);
            if (!Arrays.equals(magic, SnapshotFormat.BODY_MAGIC)) {
                throw new IOException(file + ": unknown snapshot body (not written by kevy for Java)");
            }
            int bodyVersion = in.readUnsignedByte();
            if (bodyVersion != SnapshotFormat.BODY_VERSION) {
                throw new IOException(file + ": unsupported snapshot body version " + bodyVersion);
            }
            in.skipNBytes(4 + 4 + 8);
            long count = 0;
            while (true) {
                long entryAt = counting.position;
                int kind = in.readUnsignedByte();
                if (kind == SnapshotFormat.END) {
                    long stored = Long.reverseBytes(in.readLong());
                    if (stored != count) {
                        throw new IOException(file + ": snapshot holds " + count + " entries, trailer says " + stored);
                    }
                    return header;
                }
                if (kind == SnapshotFormat.KIND_SERVER_FRAMES && count == 0) {
                    consumer.serverFrames(frames(in, counting, file, size));
                    continue;
                }
                if (kind != SnapshotFormat.KIND_STRING && kind != SnapshotFormat.KIND_FRAMES) {
                    throw corrupt(file, entryAt, "unknown entry kind " + kind + " after " + count + " entries");
                }
                long expireAt = Long.reverseBytes(in.readLong());
                byte[] key = bytes(in, counting, file, size, "key length");
                if (kind == SnapshotFormat.KIND_STRING) {
                    consumer.string(key, expireAt, bytes(in, counting, file, size, "value length"));
                } else {
                    consumer.frames(key, expireAt, frames(in, counting, file, size));
                }
                count++;
            }
        } catch (EOFException | FrameReader.Torn e) {
            throw new IOException(file + ": snapshot is truncated at byte " + counting.position, e);
        } catch (FrameReader.Corrupt e) {
            throw new IOException(file + ": snapshot is corrupt: " + e.getMessage(), e);
        }
    }

    /** A varint frame count and that many RESP frames. */
    private static byte[][][] frames(DataInputStream in, Counting counting, Path file, long size)
            throws IOException {
        long countAt = counting.position;
        long n = varint(in, counting, file);
        if (n < 0 || n > size - countAt) { // every frame takes at least a byte
            throw corrupt(file, countAt, "frame count " + Long.toUnsignedString(n) + " is outside 0.."
                    + (size - countAt) + " (the bytes left in the file)");
        }
        FrameReader frames = new FrameReader(in, counting.position, size);
        byte[][][] fs = new byte[(int) n][][];
        for (int i = 0; i < n; i++) {
            fs[i] = frames.next();
            if (fs[i] == null) {
                throw new EOFException();
            }
        }
        return fs;
    }

    private static IOException corrupt(Path file, long at, String what) {
        return new IOException(file + ": snapshot is corrupt at byte " + at + ": " + what);
    }

    private static void verifyChecksum(Path file) throws IOException {
        long size = Files.size(file);
        if (size < SnapshotFormat.HEADER_SIZE + 4) {
            throw new IOException(file + ": snapshot is truncated (" + size + " bytes)");
        }
        CRC32C crc = new CRC32C();
        byte[] tail = new byte[4];
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            byte[] buf = new byte[1 << 16];
            long remaining = size - 4;
            while (remaining > 0) {
                int n = in.read(buf, 0, (int) Math.min(buf.length, remaining));
                if (n < 0) {
                    throw new IOException(file + ": snapshot is truncated");
                }
                crc.update(buf, 0, n);
                remaining -= n;
            }
            if (in.readNBytes(tail, 0, 4) != 4) {
                throw new IOException(file + ": snapshot is truncated");
            }
        }
        int stored = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int) crc.getValue()) {
            throw new IOException(file + ": snapshot checksum mismatch (the file is damaged)");
        }
    }

    /** A varint length and that many bytes; the length must fit in what is left of the file. */
    private static byte[] bytes(DataInputStream in, Counting counting, Path file, long size, String what)
            throws IOException {
        long at = counting.position;
        long n = varint(in, counting, file);
        if (n < 0 || n > FrameReader.MAX_ARG || n > size - counting.position) {
            throw corrupt(file, at, what + " " + Long.toUnsignedString(n) + " is over "
                    + Math.min(FrameReader.MAX_ARG, size - counting.position) + " (the bytes left in the file, or "
                    + "the longest value kevy holds)");
        }
        byte[] b = in.readNBytes((int) n);
        if (b.length != n) {
            throw new EOFException();
        }
        return b;
    }

    /** An unsigned LEB128 of at most 10 bytes. */
    private static long varint(DataInputStream in, Counting counting, Path file) throws IOException {
        long at = counting.position;
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw corrupt(file, at, "varint longer than 10 bytes");
    }

    /** Counts the bytes read through it, for the offsets in error messages. Not thread-safe. */
    private static final class Counting extends FilterInputStream {
        long position;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                position++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                position += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            position += k;
            return k;
        }
    }
}
