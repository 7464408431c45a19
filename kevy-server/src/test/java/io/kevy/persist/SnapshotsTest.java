package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.feed.FeedCursor;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The snapshot header of feed contract §10, as upstream lays it out. */
class SnapshotsTest {
    @TempDir
    Path dir;

    private Path header(int version, long gen, long next, int length) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(25).order(ByteOrder.LITTLE_ENDIAN);
        b.put("KEVYSNAP".getBytes(StandardCharsets.US_ASCII)).put((byte) version).putLong(gen).putLong(next);
        Path f = dir.resolve("dump-v" + version + "-" + length + ".rdb");
        byte[] all = b.array();
        byte[] out = new byte[length];
        System.arraycopy(all, 0, out, 0, Math.min(length, all.length));
        Files.write(f, out);
        return f;
    }

    @Test
    void readsTheCursorOfVersionFiveAndLater() throws Exception {
        assertThat(Snapshots.readSnapshotCursor(header(5, 7, 1200, 25))).contains(new FeedCursor(7, 1200));
        assertThat(Snapshots.readSnapshotCursor(header(6, (1L << 53) - 1, 0, 40)))
                .contains(new FeedCursor((1L << 53) - 1, 0));
    }

    @Test
    void versionFourHasNoCursor() throws Exception {
        assertThat(Snapshots.readSnapshotCursor(header(4, 0, 0, 9))).isEmpty();
    }

    @Test
    void badMagicAndTruncatedHeadersAreClearErrors() throws Exception {
        Path bad = dir.resolve("bad.rdb");
        Files.writeString(bad, "REDIS0009xxxxxxxxxxxxxxxxxxxx");
        assertThatThrownBy(() -> Snapshots.readSnapshotCursor(bad)).hasMessageContaining(bad.toString())
                .hasMessageContaining("bad magic");
        Path truncated = header(5, 1, 2, 20);
        assertThatThrownBy(() -> Snapshots.readSnapshotCursor(truncated)).hasMessageContaining("truncated");
    }

    @Test
    void commandLinePrintsOneLinePerFile() throws Exception {
        Path f = header(5, 42, 99, 25);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommandLine cl = new CommandLine(new SnapshotCursorCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(f.toString(), dir.resolve("missing.rdb").toString());
        assertThat(out.toString()).isEqualTo(f + " generation=42 next_offset=99" + System.lineSeparator());
        assertThat(err.toString()).isEqualTo("snapshot-cursor: cannot read " + dir.resolve("missing.rdb")
                + ": no such file" + System.lineSeparator());
        assertThat(code).isEqualTo(1);
    }
}
