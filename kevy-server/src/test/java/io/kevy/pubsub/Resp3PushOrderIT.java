package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import io.kevy.server.config.ServerOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RESP3 lets a subscribed connection run commands, PUBLISH included: a message to its own channel is a push
 * written at PUBLISH time, before PUBLISH's reply, and a pipelined UNSUBSCRIBE + RESET after it changes nothing of
 * that (Redis writes the message into the output buffer at once). Compared reply for reply with redis-server.
 */
class Resp3PushOrderIT {
    private static final String PIPELINE = "SUBSCRIBE ch\r\nPUBLISH ch x\r\nPSUBSCRIBE p*\r\nPUBLISH pq y\r\n"
            + "SSUBSCRIBE sc\r\nSPUBLISH sc z\r\nSUNSUBSCRIBE\r\nUNSUBSCRIBE\r\nPUNSUBSCRIBE\r\nRESET\r\nPING\r\n";
    private static final int REPLIES = 14;

    private static List<String> run(int port, boolean pipelined) {
        List<String> out = new ArrayList<>();
        try (RawClient c = RawClient.connect(port)) {
            assertThat(c.call("HELLO", "3")).startsWith("%");
            if (pipelined) {
                c.send(PIPELINE);
            } else {
                for (String line : PIPELINE.split("\r\n")) {
                    c.send(line + "\r\n");
                    out.add(c.readReply());
                    if (line.startsWith("PUBLISH") || line.startsWith("SPUBLISH")) {
                        out.add(c.readReply());
                    }
                }
                return out;
            }
            for (int i = 0; i < REPLIES; i++) {
                out.add(c.readReply());
            }
        }
        return out;
    }

    @Test
    void aPushToTheConnectionItselfComesBeforeTheReplyAsInRedis() {
        try (RedisOracle redis = RedisOracle.start();
                TestServer kevy = TestServer.start(c -> c.with(ServerOptions.IO_THREADS, 1))) {
            for (boolean pipelined : new boolean[] {false, true}) {
                List<String> r = run(redis.port(), pipelined);
                List<String> k = run(kevy.port(), pipelined);
                assertThat(k).as("pipelined=%s", pipelined).isEqualTo(r);
                assertThat(k.get(1)).startsWith(">3\r\n$7\r\nmessage\r\n");
                assertThat(k.get(2)).isEqualTo(":1\r\n");
            }
        }
    }
}
