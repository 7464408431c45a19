package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile contents in the one-line files boot reads (shards.meta, feed-{i}.gen, feed-{i}.meta): binary bytes,
 * numbers that overflow, signs, a huge file. shards.meta stops the boot naming the file and what it found; a
 * bad generation file or marker only costs a new generation (logged). Nothing is read whole into memory.
 */
class MetaFilesCorruptionTest {
    @TempDir
    Path dir;

    private void write(String name, byte[] b) throws IOException {
        Files.write(dir.resolve(name), b);
    }

    @Test
    void shardsMetaNamesTheFileAndWhatItFound() throws IOException {
        for (String bad : new String[] {"shards 99999999999", "shards -2", "shards 0", "shards x", "", "shard 2"}) {
            write(ShardsMeta.FILE, bad.getBytes(StandardCharsets.US_ASCII));
            assertThatThrownBy(() -> ShardsMeta.read(dir)).isInstanceOf(IOException.class)
                    .hasMessageContaining(dir.resolve(ShardsMeta.FILE).toString()).hasMessageContaining("expected");
        }
        write(ShardsMeta.FILE, new byte[] {'s', 'h', (byte) 0xff, (byte) 0xc3, 0});
        assertThatThrownBy(() -> ShardsMeta.read(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining(ShardsMeta.FILE).hasMessageContaining("found \"sh???\"");
        write(ShardsMeta.FILE, new byte[10 << 20]);
        assertThatThrownBy(() -> ShardsMeta.read(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("longer than 256 bytes (10485760)");
        write(ShardsMeta.FILE, "shards 4\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(ShardsMeta.read(dir)).isEqualTo(4);
    }

    @Test
    void aCraftedStaleListDeletesOnlyTheShardsOwnFiles(@TempDir Path outside) throws IOException {
        Path victim = Files.writeString(outside.resolve("victim"), "keep me");
        Path ready = Files.createDirectories(dir.resolve("redistribute.ready"));
        Files.writeString(dir.resolve("aof-7.aof"), "old");
        Files.writeString(dir.resolve("notes.txt"), "keep me too");
        Files.write(ready.resolve("stale"), ("../" + outside.getFileName() + "/victim\n" + victim + "\nnotes.txt\n"
                + "aof-7.aof\n\u00ff\u00fe\n").getBytes(StandardCharsets.ISO_8859_1));
        Redistribution.recover(dir);
        assertThat(victim).exists();
        assertThat(dir.resolve("notes.txt")).exists();
        assertThat(dir.resolve("aof-7.aof")).as("a listed shard file is deleted").doesNotExist();
        assertThat(ready).doesNotExist();
    }

    @Test
    void aBadGenerationFileOrMarkerMeansANewGeneration() throws IOException {
        byte[][] bad = {"99999999999999999999".getBytes(StandardCharsets.US_ASCII), {(byte) 0xfe, 1, 2},
            new byte[1 << 20], "12 x".getBytes(StandardCharsets.US_ASCII)};
        for (byte[] b : bad) {
            Files.write(GenerationFiles.genPath(dir, 0), b);
            assertThat(GenerationFiles.readGeneration(dir, 0)).isEmpty();
            Files.write(GenerationFiles.markerPath(dir, 0), b);
            assertThat(GenerationFiles.takeMarker(dir, 0)).isEmpty();
            assertThat(GenerationFiles.markerPath(dir, 0)).as("a marker is consumed either way").doesNotExist();
        }
        GenerationFiles.writeGeneration(dir, 0, 42);
        assertThat(GenerationFiles.readGeneration(dir, 0)).hasValue(42);
    }

    @Test
    void aDamagedGenerationHistoryIsAnEmptyHistoryNeverAFailedBoot() throws IOException {
        assertThat(GenerationFiles.readHistory(dir, 0)).as("no file: a data dir from before it existed").isEmpty();
        String[] bad = {"1", "1 2 3", "x 2", "1 -2", "18446744073709551616 1", "1\t2", "\u00ff\u00fe 1"};
        for (String b : bad) {
            write("feed-0.history", (b + "\n").getBytes(StandardCharsets.ISO_8859_1));
            assertThat(GenerationFiles.readHistory(dir, 0)).as("%s", b).isEmpty();
            assertThatThrownBy(() -> GenerationFiles.parseHistory(b)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("line 1 ");
        }
        write("feed-0.history", new byte[GenerationFiles.HISTORY_FILE_MAX + 1]);
        assertThat(GenerationFiles.readHistory(dir, 0)).as("too long: not read into memory").isEmpty();
        GenerationFiles.writeHistory(dir, 0, java.util.List.of(new long[] {-1L, 7}, new long[] {5, 9}));
        assertThat(Files.readString(dir.resolve("feed-0.history"))).isEqualTo("18446744073709551615 7\n5 9\n");
        assertThat(GenerationFiles.readHistory(dir, 0)).containsExactly(new long[] {-1L, 7}, new long[] {5, 9});
        GenerationFiles.writeHistory(dir, 0, java.util.List.of());
        assertThat(dir.resolve("feed-0.history")).as("an empty history has no file").doesNotExist();
    }
}
