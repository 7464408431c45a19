package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.server.config.ServerOptions;
import io.kevy.testing.FeedClient;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A write whose effect frame is the command as sent has the client's bytes copied to the feed and the AOF
 * instead of encoded ({@link io.kevy.resp.RequestBytes}). Whatever the client sends (verbs in any case,
 * bytes Redis skips unread where {@code \n} is due, commands cut across reads, options that rewrite the frame),
 * the feed's frames and the AOF's records are the canonical encodings of the effects, with the feed on and off.
 */
class RequestBytesIT {
    private static final byte[] SET = bytes("SET");

    @ParameterizedTest(name = "feed {0}")
    @ValueSource(booleans = {true, false})
    void theFeedAndTheAofHoldCanonicalFramesWhateverTheClientSent(boolean feed) throws Exception {
        long seed = System.nanoTime();
        System.out.println("RequestBytesIT seed " + seed + ", feed " + feed);
        Random rnd = new Random(seed);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        List<byte[][]> expected = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            byte[] key = random(rnd, 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 3_000 : 20));
            key[0] = (byte) i; // distinct enough; the value decides nothing here
            byte[] value = random(rnd, rnd.nextInt(rnd.nextInt(10) == 0 ? 20_000 : 10));
            byte[] verb = switch (rnd.nextInt(4)) {
                case 0 -> bytes("set");
                case 1 -> bytes("SeT");
                default -> SET;
            };
            boolean keepTtl = rnd.nextInt(8) == 0; // the frame spells the option upper-case
            byte[][] sent = keepTtl ? new byte[][] {verb, key, value, bytes("keepttl")} : new byte[][] {verb, key, value};
            byte[] cmd = RawClient.encode(sent);
            if (rnd.nextInt(5) == 0) {
                mangleSkippedByte(cmd, rnd);
            }
            wire.writeBytes(cmd);
            expected.add(keepTtl ? new byte[][] {SET, key, value, bytes("KEEPTTL")} : new byte[][] {SET, key, value});
        }

        try (TestServer s = TestServer.start(c -> c.with(ServerOptions.SHARDS, 1)
                .with(ServerOptions.AOF, true).with(ServerOptions.FEED_ENABLED, feed));
             RawClient raw = RawClient.connect(s.port())) {
            byte[] all = wire.toByteArray();
            for (int pos = 0; pos < all.length; ) { // cut anywhere, so some commands arrive over several reads
                int n = Math.min(all.length - pos, 1 + rnd.nextInt(rnd.nextBoolean() ? 50 : 50_000));
                raw.send(Arrays.copyOfRange(all, pos, pos + n));
                pos += n;
            }
            for (int i = 0; i < expected.size(); i++) {
                assertThat(raw.readReply()).as("seed %d, reply %d", seed, i).isEqualTo("+OK\r\n");
            }

            ByteArrayOutputStream records = new ByteArrayOutputStream();
            expected.forEach(f -> records.writeBytes(RawClient.encode(f)));
            s.server().persistence().aof().syncNow();
            byte[] file = Files.readAllBytes(AofWriter.aofPath(s.dir(), 0));
            assertThat(Arrays.copyOfRange(file, AofHeader.SIZE, file.length)).as("seed %d: the AOF", seed)
                    .isEqualTo(records.toByteArray());
            if (feed) {
                List<FeedClient.Frame> frames = new FeedClient(raw).readAll(0);
                assertThat(frames).hasSameSizeAs(expected);
                for (int i = 0; i < frames.size(); i++) {
                    assertThat(frames.get(i).argv()).as("seed %d, frame %d", seed, i).isEqualTo(expected.get(i));
                }
            }
        }
    }

    /** Replaces a byte the server skips unread (a header's {@code \n} or a bulk's {@code \r\n}) by another. */
    private static void mangleSkippedByte(byte[] cmd, Random rnd) {
        List<Integer> skipped = new ArrayList<>();
        int p = 0;
        for (int argc = -1; p < cmd.length; argc--) {
            int cr = p;
            while (cmd[cr] != '\r') {
                cr++;
            }
            skipped.add(cr + 1);
            if (argc == -1) { // the *<argc> line
                p = cr + 2;
                continue;
            }
            int len = Integer.parseInt(new String(cmd, p + 1, cr - p - 1, StandardCharsets.US_ASCII));
            p = cr + 2 + len;
            skipped.add(p);
            skipped.add(p + 1);
            p += 2;
        }
        int at = skipped.get(rnd.nextInt(skipped.size()));
        cmd[at] = (byte) (cmd[at] == 'x' ? 'y' : 'x');
    }

    private static byte[] random(Random rnd, int n) {
        byte[] b = new byte[n];
        rnd.nextBytes(b);
        return b;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
