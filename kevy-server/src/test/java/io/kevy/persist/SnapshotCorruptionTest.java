package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile snapshot bodies with a valid checksum (a crafted or mis-written file, which the CRC does not catch):
 * every length and count field (varints over 10 bytes, lengths past the end of the file or over 2^31, frame
 * counts of 2^63) gives an error naming the file and the byte offset, never another exception.
 */
class SnapshotCorruptionTest {
    @TempDir
    Path dir;

    /** A snapshot file: header, body head, {@code entries} as given, end marker with {@code count}, CRC32C. */
    private static byte[] snapshot(byte[] entries, long count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SnapshotFormat.MAGIC);
        out.write(SnapshotFormat.VERSION_WITH_CURSOR);
        le(out, 3, 8);
        le(out, 0, 8);
        out.writeBytes(SnapshotFormat.BODY_MAGIC);
        out.write(SnapshotFormat.BODY_VERSION);
        le(out, 0, 4);
        le(out, 1, 4);
        le(out, 0, 8);
        out.writeBytes(entries);
        out.write(SnapshotFormat.END);
        le(out, count, 8);
        CRC32C crc = new CRC32C();
        crc.update(out.toByteArray());
        le(out, crc.getValue(), 4);
        return out.toByteArray();
    }

    private static void le(ByteArrayOutputStream out, long v, int n) {
        for (int i = 0; i < n; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    private static final int BODY_START = SnapshotFormat.HEADER_SIZE + 4 + 1 + 4 + 4 + 8;

    private static ByteArrayOutputStream entryHead(int kind) {
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        e.write(kind);
        le(e, 0, 8);
        return e;
    }

    private void assertRefused(byte[] entries, long count, String... fragments) throws IOException {
        Path f = SnapshotFormat.path(dir, 0);
        Files.write(f, snapshot(entries, count));
        var thrown = assertThatThrownBy(() -> SnapshotReader.read(f, consumer())).isInstanceOf(IOException.class)
                .hasMessageContaining(f.toString()).hasMessageContaining("at byte");
        for (String s : fragments) {
            thrown.hasMessageContaining(s);
        }
    }

    private static SnapshotReader.EntryConsumer consumer() {
        return new SnapshotReader.EntryConsumer() {
            @Override
            public void string(byte[] key, long expireAt, byte[] value) {
            }

            @Override
            public void frames(byte[] key, long expireAt, byte[][][] frames) {
            }
        };
    }

    @Test
    void aValidSnapshotReads() throws IOException {
        ByteArrayOutputStream e = entryHead(SnapshotFormat.KIND_STRING);
        varint(e, 1);
        e.write('k');
        varint(e, 1);
        e.write('v');
        Path f = SnapshotFormat.path(dir, 0);
        Files.write(f, snapshot(e.toByteArray(), 1));
        assertThat(SnapshotReader.read(f, consumer()).generation()).isEqualTo(3);
    }

    @Test
    void everyLengthAndCountFieldIsBounded() throws IOException {
        ByteArrayOutputStream e = entryHead(SnapshotFormat.KIND_STRING);
        varint(e, 4294967295L);
        assertRefused(e.toByteArray(), 1, "at byte " + (BODY_START + 9), "key length 4294967295 is over");

        e = entryHead(SnapshotFormat.KIND_STRING);
        varint(e, 1);
        e.write('k');
        varint(e, 100); // past the end of the file
        assertRefused(e.toByteArray(), 1, "value length 100 is over");

        e = entryHead(SnapshotFormat.KIND_STRING);
        varint(e, -1L); // 2^64-1: a negative long if read as signed
        assertRefused(e.toByteArray(), 1, "key length 18446744073709551615 is over");

        e = entryHead(SnapshotFormat.KIND_FRAMES);
        varint(e, 1);
        e.write('k');
        varint(e, Long.MAX_VALUE);
        assertRefused(e.toByteArray(), 1, "frame count 9223372036854775807 is outside");

        e = entryHead(SnapshotFormat.KIND_FRAMES);
        varint(e, 1);
        e.write('k');
        varint(e, 1L << 31); // (int) of it was negative: NegativeArraySizeException before
        assertRefused(e.toByteArray(), 1, "frame count 2147483648 is outside");

        e = entryHead(SnapshotFormat.KIND_FRAMES);
        varint(e, 1);
        e.write('k');
        varint(e, 1);
        e.writeBytes("*1\r\n$4294967295\r\n".getBytes(StandardCharsets.US_ASCII));
        assertRefused(e.toByteArray(), 1, "bulk length 4294967295 is over");

        e = entryHead(SnapshotFormat.KIND_STRING);
        e.writeBytes(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1});
        assertRefused(e.toByteArray(), 1, "varint longer than 10 bytes");

        assertRefused(entryHead(7).toByteArray(), 1, "unknown entry kind 7", "at byte " + BODY_START);
    }

    /** Seeded random bytes in the body, checksum recomputed: only IOExceptions that name the file. */
    @Test
    void randomBodiesWithAValidChecksumFailCleanly() throws IOException {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        System.out.println("SnapshotCorruptionTest seed=" + seed);
        Random rnd = new Random(seed);
        Path f = SnapshotFormat.path(dir, 0);
        int refused = 0;
        for (int run = 0; run < 300; run++) {
            byte[] body = new byte[rnd.nextInt(64)];
            rnd.nextBytes(body);
            if (body.length > 0) {
                body[0] = (byte) rnd.nextInt(2); // a known kind, so the lengths are what is read next
            }
            Files.write(f, snapshot(body, rnd.nextInt(3)));
            try {
                SnapshotReader.read(f, consumer());
            } catch (IOException e) {
                refused++;
                assertThat(e.getMessage()).as("seed=" + seed + " run=" + run).contains(f.toString());
            } catch (RuntimeException | Error e) {
                throw new AssertionError("seed=" + seed + " run=" + run + ": unexplained " + e, e);
            }
        }
        System.out.println("SnapshotCorruptionTest runs=300 refused=" + refused);
    }
}
