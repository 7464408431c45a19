package io.kevy.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.testing.RawClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RespParserTest {
    private final ProtocolLimits limits = new ProtocolLimits();
    private final RespParser parser = new RespParser(limits);
    private final ByteBuf in = Unpooled.buffer();

    @AfterEach
    void release() {
        in.release();
    }

    private static String str(byte[][] argv) {
        List<String> l = new ArrayList<>();
        for (byte[] a : argv) {
            l.add(new String(a, StandardCharsets.ISO_8859_1));
        }
        return String.join("|", l);
    }

    private List<String> feed(String s) {
        in.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
        List<String> out = new ArrayList<>();
        byte[][] argv;
        while ((argv = parser.parse(in, true)) != null) {
            out.add(str(argv));
        }
        return out;
    }

    @Test
    void multibulkAndPipelining() {
        assertThat(feed("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nPING\r\n")).containsExactly("GET|k", "PING");
        assertThat(in.isReadable()).isFalse();
    }

    @Test
    void oneByteAtATimeGivesTheSameCommands() {
        String wire = "*3\r\n$3\r\nSET\r\n$5\r\nk\r\ney\r\n$0\r\n\r\nPING\r\n\"ECHO\" \"a b\"\r\n*0\r\n*-1\r\n"
                + "*2\r\n$4\r\nECHO\r\n$3\r\n\u0000\u00ff\n\r\n";
        List<String> out = new ArrayList<>();
        for (char ch : wire.toCharArray()) {
            in.writeByte(ch);
            byte[][] argv;
            while ((argv = parser.parse(in, true)) != null) {
                out.add(str(argv));
            }
        }
        assertThat(out).containsExactly("SET|k\r\ney|", "PING", "ECHO|a b", "ECHO|\u0000\u00ff\n");
    }

    @Test
    void randomSplitsGiveTheSameCommands() {
        long seed = System.nanoTime();
        System.out.println("RespParserTest.randomSplitsGiveTheSameCommands seed=" + seed);
        Random rnd = new Random(seed);
        StringBuilder wire = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int argc = 1 + rnd.nextInt(5);
            wire.append('*').append(argc).append("\r\n");
            List<String> args = new ArrayList<>();
            for (int a = 0; a < argc; a++) {
                StringBuilder arg = new StringBuilder();
                int len = rnd.nextInt(20);
                for (int j = 0; j < len; j++) {
                    arg.append((char) rnd.nextInt(256));
                }
                wire.append('$').append(len).append("\r\n").append(arg).append("\r\n");
                args.add(arg.toString());
            }
            expected.add(String.join("|", args));
        }
        byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
        List<String> out = new ArrayList<>();
        int pos = 0;
        while (pos < bytes.length) {
            int n = Math.min(bytes.length - pos, 1 + rnd.nextInt(64));
            in.writeBytes(bytes, pos, n);
            pos += n;
            byte[][] argv;
            while ((argv = parser.parse(in, true)) != null) {
                out.add(str(argv));
            }
        }
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void inlineQuotingFollowsSdssplitargs() {
        assertThat(feed("SET key \"a\\x41\\n\" 'it\\'s'\r\n")).containsExactly("SET|key|aA\n|it's");
        assertThat(feed("   \r\n\n")).isEmpty();
        assertThat(feed("PING\n")).containsExactly("PING");
    }

    @Test
    void protocolErrorsCarryRedisTexts() {
        assertError("*abc\r\n", "invalid multibulk length");
        assertError("*1\r\n$-5\r\n", "invalid bulk length");
        assertError("*1\r\n$x\r\n", "invalid bulk length");
        assertError("*1\r\n+PING\r\n", "expected '$', got '+'");
        assertError("*3000000000\r\n", "invalid multibulk length");
        assertError("SET \"unbalanced\r\n", "unbalanced quotes in request");
        assertError("SET \"a\"b\r\n", "unbalanced quotes in request");
    }

    /** The one-pass header reading keeps the general rules at its edges (18 digits, leading zeros, a lone CR). */
    @Test
    void headerEdgesFollowTheGeneralRules() {
        assertThat(feed("*1\r\n$0\r\n\r\n")).containsExactly("");
        assertError("*01\r\n", "invalid multibulk length");
        assertError("*1\r\n$03\r\nabc\r\n", "invalid bulk length");
        assertError("*1\r\n$999999999999999999\r\n", "invalid bulk length"); // 18 digits, over the limit
        assertError("*1\r\n$9999999999999999999\r\n", "invalid bulk length"); // 19 digits: the general path
        assertError("*1\r\n$99999999999999999999\r\n", "invalid bulk length"); // over Long.MAX_VALUE
        assertError("*1\r\n$3x\r\nabc\r\n", "invalid bulk length");
        assertThat(feed("*1\r\n$4\r")).isEmpty(); // the LF has not arrived: nothing consumed
        assertThat(feed("\nPING\r\n")).containsExactly("PING");
    }

    @Test
    void limitsAreCheckedBeforeAllocating() {
        limits.maxBulkLen(1024 * 1024);
        assertError("*1\r\n$1048577\r\n", "invalid bulk length");
        limits.maxMultibulkLen(100);
        assertError("*101\r\n", "invalid multibulk length");
        // a huge declared count within limits must not pre-size anything large
        limits.maxMultibulkLen(ProtocolLimits.DEFAULT_MAX_MULTIBULK_LEN);
        assertThat(feed("*1000000\r\n$1\r\na\r\n")).isEmpty();
    }

    @Test
    void inlineAndHeaderLengthsAreBounded() {
        String longLine = "x".repeat(ProtocolLimits.MAX_INLINE_LEN + 1);
        assertError(longLine, "too big inline request");
        assertError("*" + "1".repeat(ProtocolLimits.MAX_INLINE_LEN + 1), "too big mbulk count string");
        assertError("*1\r\n$" + "1".repeat(ProtocolLimits.MAX_INLINE_LEN + 1), "too big bulk count string");
    }

    @Test
    void unauthenticatedClientsGetSmallLimits() {
        in.writeBytes("*11\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> parser.parse(in, false)).isInstanceOf(ProtocolException.class)
                .hasMessage("unauthenticated multibulk length");
        RespParser p2 = new RespParser(limits);
        ByteBuf b = Unpooled.copiedBuffer("*1\r\n$16385\r\n", StandardCharsets.US_ASCII);
        try {
            assertThatThrownBy(() -> p2.parse(b, false)).hasMessage("unauthenticated bulk length");
        } finally {
            b.release();
        }
    }

    @Test
    void halfACommandHoldsOnlyWhatArrived() {
        assertThat(feed("*2\r\n$3\r\nGET\r\n$100000000\r\nabc")).isEmpty();
        // nothing was copied for the incomplete bulk: the bytes stay in the input buffer only
        assertThat(in.readableBytes()).isEqualTo(3);
    }

    /** One parse of {@code wire}; the command's {@link RespParser#request} bytes, or null when it has none. */
    private byte[] requestBytes(String wire) {
        in.writeBytes(wire.getBytes(StandardCharsets.ISO_8859_1));
        byte[][] argv = parser.parse(in, true);
        assertThat(argv).as("a complete command").isNotNull();
        RequestBytes r = parser.request();
        if (r == null) {
            return null;
        }
        byte[] copy = new byte[r.length() + 3];
        assertThat(r.copyTo(copy, 2)).isEqualTo(2 + r.length());
        return Arrays.copyOfRange(copy, 2, 2 + r.length());
    }

    @Test
    void aCanonicalMultibulkExposesItsOwnBytes() {
        String set = "*3\r\n$3\r\nSET\r\n$3\r\nk:1\r\n$0\r\n\r\n";
        assertThat(requestBytes(set)).isEqualTo(set.getBytes(StandardCharsets.ISO_8859_1));
        String lower = "*2\r\n$3\r\nget\r\n$12\r\n\u0000\u00ff\r\n\r\n\u000123456\r\n";
        assertThat(requestBytes(lower)).isEqualTo(lower.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(parser.parse(in, true)).isNull();
        assertThat(parser.request()).as("cleared by the next parse").isNull();
    }

    @Test
    void bytesThatAreNotTheCanonicalEncodingExposeNone() {
        // Redis, and this parser, skip the byte after a header's \r and the two after a bulk unread
        assertThat(requestBytes("*1\rX$4\r\nPING\r\n")).isNull();
        assertThat(requestBytes("*1\r\n$4\r\rPING\r\n")).isNull();
        assertThat(requestBytes("*1\r\n$4\r\nPINGxy")).isNull();
        assertThat(requestBytes("*1\r\n$4\r\nPING\n\r")).isNull();
        assertThat(requestBytes("PING\r\n")).as("inline").isNull();
        assertThat(requestBytes("*0\r\n*-1\r\n*1\r\n$4\r\nPING\r\n"))
                .as("after ignored empty multibulks").isEqualTo("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
        // a command read over two calls: its first bytes may be gone from the buffer by the second
        in.writeBytes("*2\r\n$4\r\nECHO\r\n$1\r".getBytes(StandardCharsets.US_ASCII));
        assertThat(parser.parse(in, true)).isNull();
        in.discardReadBytes();
        assertThat(requestBytes("\nx\r\n")).isNull();
        assertThat(requestBytes("*1\r\n$4\r\nPING\r\n")).as("the next one again").isNotNull();
    }

    /**
     * Hostile input: seeded random commands with a terminator byte sometimes replaced and the wire cut at random
     * points. Whenever the parser exposes a command's bytes they are exactly the canonical encoding of its argv
     * (what the feed and the AOF copy in place of encoding it); a command sent canonically in one piece has them.
     */
    @Test
    void exposedBytesAreAlwaysTheCanonicalEncoding() {
        long seed = System.nanoTime();
        System.out.println("RespParserTest.exposedBytesAreAlwaysTheCanonicalEncoding seed=" + seed);
        Random rnd = new Random(seed);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        List<int[]> spans = new ArrayList<>(); // per command: start, end, 1 when a terminator was replaced
        for (int i = 0; i < 2_000; i++) {
            int argc = 1 + rnd.nextInt(5);
            byte[][] argv = new byte[argc][];
            for (int a = 0; a < argc; a++) {
                argv[a] = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(300) : rnd.nextInt(12)];
                rnd.nextBytes(argv[a]);
            }
            List<Integer> skipped = new ArrayList<>(); // where the parser skips a byte unread
            byte[] cmd = encodeNoting(argv, skipped);
            boolean replaced = false;
            if (rnd.nextInt(4) == 0) { // a header's \n or a bulk's \r\n byte becomes any byte
                int at = skipped.get(rnd.nextInt(skipped.size()));
                byte b = (byte) rnd.nextInt(256);
                replaced = b != cmd[at];
                cmd[at] = b;
            }
            spans.add(new int[] {wire.size(), wire.size() + cmd.length, replaced ? 1 : 0});
            wire.writeBytes(cmd);
        }
        byte[] bytes = wire.toByteArray();
        int pos = 0;
        int parsed = 0;
        int exposed = 0;
        boolean[] cutInside = new boolean[spans.size()];
        while (pos < bytes.length) {
            int n = Math.min(bytes.length - pos, 1 + rnd.nextInt(rnd.nextBoolean() ? 40 : 4000));
            in.writeBytes(bytes, pos, n);
            pos += n;
            for (int c = parsed; c < spans.size() && spans.get(c)[0] < pos; c++) {
                cutInside[c] |= spans.get(c)[1] > pos;
            }
            byte[][] argv;
            while ((argv = parser.parse(in, true)) != null) {
                int[] span = spans.get(parsed);
                RequestBytes r = parser.request();
                if (r != null) {
                    exposed++;
                    byte[] copy = new byte[r.length()];
                    r.copyTo(copy, 0);
                    assertThat(copy).as("seed %d, command %d", seed, parsed).isEqualTo(RawClient.encode(argv));
                    assertThat(span[2]).as("seed %d, command %d had a replaced terminator", seed, parsed).isZero();
                } else {
                    assertThat(span[2] == 1 || cutInside[parsed])
                            .as("seed %d, command %d is canonical and arrived whole", seed, parsed).isTrue();
                }
                parsed++;
            }
            if (rnd.nextInt(8) == 0) {
                in.discardReadBytes(); // as ByteToMessageDecoder does between reads
            }
        }
        assertThat(parsed).isEqualTo(spans.size());
        assertThat(exposed).as("seed %d", seed).isGreaterThan(spans.size() / 4);
    }

    /**
     * The canonical encoding of {@code argv}; adds to {@code skipped} the positions of the bytes the parser skips
     * unread (each header's {@code \n}, each bulk's trailing {@code \r\n}).
     */
    private static byte[] encodeNoting(byte[][] argv, List<Integer> skipped) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("*" + argv.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        skipped.add(out.size() - 1);
        for (byte[] a : argv) {
            out.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            skipped.add(out.size() - 1);
            out.writeBytes(a);
            skipped.add(out.size());
            skipped.add(out.size() + 1);
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        byte[] cmd = out.toByteArray();
        assertThat(cmd).isEqualTo(RawClient.encode(argv));
        return cmd;
    }

    private void assertError(String wire, String message) {
        RespParser p = new RespParser(limits);
        ByteBuf b = Unpooled.copiedBuffer(wire, StandardCharsets.ISO_8859_1);
        try {
            assertThatThrownBy(() -> {
                while (p.parse(b, true) != null) {
                    // drain
                }
            }).isInstanceOf(ProtocolException.class).hasMessage(message);
            assertThat(new ProtocolException(message).replyText()).isEqualTo("ERR Protocol error: " + message);
        } finally {
            b.release();
        }
    }
}
