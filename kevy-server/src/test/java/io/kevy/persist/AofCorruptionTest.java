package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.resp.RespFrameWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile bytes in real AOF files (issue 32, point 2): every length and count field of a record (overflowing,
 * negative, past the end of the file, over the limits) and seeded random damage. Each yields either an error that
 * names the file, the byte offset and what was wrong and points to {@code persistence.aof_load_corrupt}, or a
 * truncated torn tail; with truncation allowed, the valid prefix. Never another exception.
 */
class AofCorruptionTest {
    @TempDir
    Path dir;

    private static final int RECORDS = 40;

    /** RECORDS valid records, seeded; returns the frames and fills {@code ends} with each record's end offset. */
    private static List<byte[][]> frames(Random rnd) {
        List<byte[][]> out = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++) {
            byte[] value = new byte[rnd.nextInt(3) == 0 ? rnd.nextInt(3000) : rnd.nextInt(20)];
            rnd.nextBytes(value);
            byte[][] f = switch (rnd.nextInt(3)) {
                case 0 -> new byte[][] {b("SET"), b("k:" + i), value};
                case 1 -> new byte[][] {b("HSET"), b("h:" + (i % 5)), b("f" + i), value};
                default -> new byte[][] {b("RPUSH"), b("l:" + (i % 3)), value, b("*1\r\n$4294967295\r\n")};
            };
            out.add(f);
        }
        return out;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] encode(List<byte[][]> frames, long[] ends) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new AofHeader(7, 0).encode());
        for (int i = 0; i < frames.size(); i++) {
            RespFrameWriter.write(frames.get(i), out);
            ends[i] = out.size();
        }
        return out.toByteArray();
    }

    private List<byte[][]> load(boolean truncate) throws IOException {
        List<byte[][]> got = new ArrayList<>();
        AofLoader.read(dir, 0, truncate, (offset, frame) -> got.add(frame));
        return got;
    }

    private Path aof() {
        return AofWriter.aofPath(dir, 0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // the record: a length that overflowed an int cast ("len < 0")
        "'*1\\r\\n$4294967295\\r\\n'      | 5  | bulk length 4294967295 is over the longest value kevy holds",
        "'*1\\r\\n$9223372036854775807\\r\\n' | 5 | bulk length has more than 18 digits",
        "'*99999999999999999999\\r\\n'    | 1  | argument count has more than 18 digits",
        "'*-1\\r\\n'                      | 1  | expected a digit of the argument count, found '-'",
        "'*1\\r\\n$-5\\r\\n'              | 5  | expected a digit of the bulk length, found '-'",
        "'*0\\r\\n'                       | 1  | argument count 0 is outside 1..67108864",
        "'*67108865\\r\\n'                | 1  | argument count 67108865 is outside 1..67108864",
        "'*2\\r\\n$3\\r\\nGET\\r\\nX'     | 13 | expected '$' before argument 2 of 2, found 'X'",
        "'*1\\r\\n$3\\r\\nGETXY'          | 11 | expected CR after a bulk of 3 bytes, found 'X'",
        "'*1\\r\\n$3\\r\\nGET\\rY'        | 12 | expected LF after a bulk of 3 bytes, found 'Y'",
        "'*1\\r\\n$\\r\\n'                | 5  | empty bulk length",
        "'*1\\rX'                         | 3  | expected LF after the argument count, found 'X'",
        "'Z*1\\r\\n'                      | 0  | expected '*' at the start of a record, found 'Z'",
    })
    void aCorruptRecordNamesFileOffsetAndReasonAndTheSettingThenLoadsThePrefix(String hostile, int relative,
                                                                               String what) throws IOException {
        long[] ends = new long[RECORDS];
        List<byte[][]> frames = frames(new Random(1));
        byte[] valid = encode(frames, ends);
        byte[] bad = unescape(hostile);
        // in the middle: valid records follow the damage, so it cannot pass for a torn tail
        byte[] tail = Arrays.copyOfRange(valid, (int) ends[0], valid.length);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(valid, 0, (int) ends[0]);
        file.write(bad);
        file.write(tail);
        Files.write(aof(), file.toByteArray());
        long at = ends[0] + relative;
        assertThatThrownBy(() -> load(false)).isInstanceOf(IOException.class)
                .hasMessageContaining(aof().toString())
                .hasMessageContaining("corrupt at byte " + at)
                .hasMessageContaining(what)
                .hasMessageContaining("persistence.aof_load_corrupt = \"truncate\"");
        List<byte[][]> prefix = load(true);
        assertThat(prefix).hasSize(1);
        assertThat(prefix.get(0)).isDeepEqualTo(frames.get(0));
        assertThat(Files.size(aof())).as("cut at the corrupt record").isEqualTo(ends[0]);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "'*1\\r\\n$2000000000\\r\\nab'",  // a bulk past the end of the file: not read, not allocated
        "'*67108864\\r\\n$1\\r\\na\\r\\n'", // the largest count, then the end of the file: no 64M-slot array
        "'*3\\r\\n$3\\r\\nSET\\r\\n$5\\r\\nt:tor'",
        "'*1\\r\\n$12'",
    })
    void aRecordRunningPastTheEndOfTheFileIsATornTailAndIsCut(String hostile) throws IOException {
        long[] ends = new long[RECORDS];
        List<byte[][]> frames = frames(new Random(2));
        byte[] valid = encode(frames, ends);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        file.write(valid);
        file.write(unescape(hostile));
        Files.write(aof(), file.toByteArray());
        List<byte[][]> got = load(false);
        assertThat(got).hasSize(RECORDS);
        assertThat(Files.size(aof())).isEqualTo(valid.length);
    }

    /**
     * Seeded random damage (bit flips, bytes overwritten, hostile tokens inserted, lengths replaced by huge
     * numbers, cuts): reading fails only with an error naming the file, the offset and the setting; with
     * truncation allowed it always loads, and every record that ended before the damage is loaded unchanged.
     */
    @Test
    void randomDamageYieldsAClearErrorOrTheValidPrefix() throws IOException {
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        int runs = Integer.getInteger("kevy.runs", 400);
        System.out.println("AofCorruptionTest seed=" + seed + " runs=" + runs);
        Random rnd = new Random(seed);
        String[] tokens = {"*", "$", "\r\n", "-", "4294967295", "2147483647", "9223372036854775807", "0", "\r",
            "*1\r\n$4294967295\r\n", "99999999999999999999", "\n"};
        int errors = 0;
        int loaded = 0;
        for (int run = 0; run < runs; run++) {
            long[] ends = new long[RECORDS];
            List<byte[][]> frames = frames(new Random(rnd.nextLong()));
            byte[] valid = encode(frames, ends);
            int at = AofHeader.SIZE + rnd.nextInt(valid.length - AofHeader.SIZE);
            byte[] bad = damage(valid, at, rnd, tokens);
            Files.write(aof(), bad);
            String ctx = "seed=" + seed + " run=" + run + " damage at byte " + at;
            try {
                load(false);
                loaded++;
            } catch (IOException e) {
                errors++;
                assertThat(e.getMessage()).as(ctx).contains(aof().toString()).containsPattern("at byte \\d+")
                        .contains("persistence.aof_load_corrupt");
            } catch (RuntimeException | Error e) {
                throw new AssertionError(ctx + ": unexplained " + e, e);
            }
            Files.write(aof(), bad);
            List<byte[][]> prefix;
            try {
                prefix = load(true);
            } catch (IOException | RuntimeException | Error e) {
                throw new AssertionError(ctx + ": truncation did not load: " + e, e);
            }
            for (int i = 0; i < RECORDS && ends[i] <= at; i++) {
                assertThat(prefix.size()).as(ctx + ": record %d ended before the damage", i).isGreaterThan(i);
                assertThat(prefix.get(i)).as(ctx).isDeepEqualTo(frames.get(i));
            }
        }
        System.out.println("AofCorruptionTest runs=" + runs + " refused=" + errors + " loaded_whole_or_torn=" + loaded);
        assertThat(errors + loaded).isEqualTo(runs);
    }

    private static byte[] damage(byte[] valid, int at, Random rnd, String[] tokens) {
        byte[] b = valid.clone();
        switch (rnd.nextInt(5)) {
            case 0 -> b[at] ^= (byte) (1 << rnd.nextInt(8));
            case 1 -> b[at] = (byte) rnd.nextInt(256);
            case 2 -> {
                byte[] t = b(tokens[rnd.nextInt(tokens.length)]);
                byte[] out = new byte[b.length + t.length];
                System.arraycopy(b, 0, out, 0, at);
                System.arraycopy(t, 0, out, at, t.length);
                System.arraycopy(b, at, out, at + t.length, b.length - at);
                return out;
            }
            case 3 -> { // the digits around `at` become a huge number
                byte[] t = b(tokens[4 + rnd.nextInt(3)]);
                int end = Math.min(b.length, at + t.length);
                System.arraycopy(t, 0, b, at, end - at);
            }
            default -> {
                return Arrays.copyOf(b, at);
            }
        }
        return b;
    }

    private static byte[] unescape(String s) {
        return b(s.replace("\\r", "\r").replace("\\n", "\n"));
    }
}
