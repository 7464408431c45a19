package io.kevy.resp;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RespFramesTest {
    /** Lengths around every change of the decimal width and of the encoder's fast paths (below 10, below 100). */
    private static final int[] LENGTHS = {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 9999, 10000, 65536};

    @Test
    void everyArgumentLengthAroundTheDigitBoundariesEncodesAsRespBulkStrings() {
        for (int len : LENGTHS) {
            byte[][] argv = {"SET".getBytes(StandardCharsets.US_ASCII), filled(len, 'k'), filled(len, 'v')};
            assertEncodes(argv, 0);
            assertEncodes(argv, 7);
        }
    }

    @Test
    void everyArgumentCountAroundTheDigitBoundariesEncodesItsArrayHeader() {
        for (int argc : new int[] {0, 1, 9, 10, 11, 99, 100, 101, 1000}) {
            byte[][] argv = new byte[argc][];
            for (int i = 0; i < argc; i++) {
                argv[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
            }
            assertEncodes(argv, 3);
        }
    }

    @Test
    void binaryArgumentsIncludingCrlfAreCopiedAsTheyAre() {
        byte[][] argv = {{'\r', '\n'}, {0, -1, '$', '*'}, {}};
        assertEncodes(argv, 0);
    }

    @Test
    void randomFramesMatchTheReferenceEncoding() {
        long seed = System.nanoTime();
        System.out.println("RespFramesTest seed " + seed);
        Random rnd = new Random(seed);
        for (int t = 0; t < 2_000; t++) {
            byte[][] argv = new byte[1 + rnd.nextInt(12)][];
            for (int i = 0; i < argv.length; i++) {
                int len = rnd.nextInt(4) == 0 ? rnd.nextInt(2_000) : rnd.nextInt(120);
                argv[i] = new byte[len];
                rnd.nextBytes(argv[i]);
            }
            assertEncodes(argv, rnd.nextInt(16));
        }
    }

    /**
     * Encodes {@code argv} at {@code at} in a buffer with sentinel bytes around the room {@link RespFrames#encodedSize}
     * asks for, and checks the bytes, the returned end and that nothing outside the room was written.
     */
    private static void assertEncodes(byte[][] argv, int at) {
        byte[] expected = RawClient.encode(argv); // the test client's plain encoder is the reference
        assertThat(RespFrames.encodedSize(argv)).as("encodedSize").isEqualTo(expected.length);
        byte[] buf = new byte[at + expected.length + 16];
        Arrays.fill(buf, (byte) 0x5A);
        int end = RespFrames.encode(buf, at, argv);
        assertThat(end).as("end").isEqualTo(at + expected.length);
        assertThat(Arrays.copyOfRange(buf, at, end)).isEqualTo(expected);
        for (int i = 0; i < at; i++) {
            assertThat(buf[i]).as("byte before the frame at %d", i).isEqualTo((byte) 0x5A);
        }
        for (int i = end; i < buf.length; i++) {
            assertThat(buf[i]).as("byte after the frame at %d", i).isEqualTo((byte) 0x5A);
        }
    }

    private static byte[] filled(int len, char c) {
        byte[] b = new byte[len];
        Arrays.fill(b, (byte) c);
        return b;
    }
}
