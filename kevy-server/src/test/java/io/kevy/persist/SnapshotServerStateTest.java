package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.Keyspace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snapshot's server-state record (kind 2: the FUNCTION libraries as frames): read back in order before the
 * keys, absent (and the file byte for byte the earlier format) without libraries, and a record whose frame count
 * is impossible refused naming the file and the byte.
 */
class SnapshotServerStateTest {
    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Keyspace.Capture oneKey() {
        return new Keyspace.Capture(new byte[][] {b("k")}, new Object[] {b("v")}, new long[] {0});
    }

    private static List<String> read(Path f) throws IOException {
        List<String> seen = new ArrayList<>();
        Snapshots.read(f, new Snapshots.Entries() {
            @Override
            public void string(byte[] key, long expireAt, byte[] value) {
                seen.add("string " + new String(key, StandardCharsets.ISO_8859_1));
            }

            @Override
            public void frames(byte[] key, long expireAt, byte[][][] frames) {
                seen.add("frames " + new String(key, StandardCharsets.ISO_8859_1));
            }

            @Override
            public void serverFrames(byte[][][] frames) {
                for (byte[][] f : frames) {
                    seen.add("server " + String.join(" ", new String(f[0], StandardCharsets.ISO_8859_1),
                            new String(f[f.length - 1], StandardCharsets.ISO_8859_1)));
                }
            }
        });
        return seen;
    }

    @Test
    void libraryFramesComeBackBeforeTheKeys() throws Exception {
        Path f = dir.resolve("dump-0.rdb");
        List<byte[][]> server = List.of(new byte[][] {b("FUNCTION"), b("LOAD"), b("REPLACE"), b("#!lua name=a\nx")},
                new byte[][] {b("FUNCTION"), b("LOAD"), b("REPLACE"), b("#!lua name=b\ny")});
        SnapshotWriter.write(f, oneKey(), server, 7, 3, 0, 1, 0, new AtomicLong());
        assertThat(read(f)).containsExactly("server FUNCTION #!lua name=a\nx", "server FUNCTION #!lua name=b\ny",
                "string k");
    }

    @Test
    void withoutLibrariesTheFileIsTheEarlierFormat() throws Exception {
        Path plain = dir.resolve("plain.rdb");
        Path none = dir.resolve("none.rdb");
        SnapshotWriter.write(plain, oneKey(), 7, 3, 0, 1, 0);
        SnapshotWriter.write(none, oneKey(), List.of(), 7, 3, 0, 1, 0, new AtomicLong());
        assertThat(Files.readAllBytes(none)).isEqualTo(Files.readAllBytes(plain));
        assertThat(read(none)).containsExactly("string k");
    }

    @Test
    void anImpossibleFrameCountIsRefused() throws Exception {
        Path f = dir.resolve("dump-0.rdb");
        SnapshotWriter.write(f, oneKey(), List.<byte[][]>of(new byte[][] {b("FUNCTION"), b("FLUSH")}), 7, 3, 0, 1, 0,
                new AtomicLong());
        byte[] bytes = Files.readAllBytes(f);
        int record = SnapshotFormat.HEADER_SIZE + 4 + 1 + 4 + 4 + 8;
        assertThat(bytes[record]).isEqualTo((byte) SnapshotFormat.KIND_SERVER_FRAMES);
        bytes[record + 1] = (byte) 0x7f; // 127 frames in a file far too short for them
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int c = (int) crc.getValue();
        for (int i = 0; i < 4; i++) {
            bytes[bytes.length - 4 + i] = (byte) (c >>> (8 * i));
        }
        Files.write(f, bytes);
        assertThatThrownBy(() -> read(f)).isInstanceOf(IOException.class).hasMessageContaining(f.toString());
    }
}
