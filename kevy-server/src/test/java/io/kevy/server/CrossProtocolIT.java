package io.kevy.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.TestServer;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Cross-protocol scripting (a web page making the browser POST to a server on 127.0.0.1): a request whose first
 * word is {@code POST} or {@code Host:} closes the connection at once, with no reply and nothing after it run,
 * as Redis's {@code securityWarningCommand} does; compared with a real redis-server.
 */
class CrossProtocolIT {
    private static final String[] ATTACKS = {
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 13\r\n\r\nSET pwned 1\r\n",
        "GET / HTTP/1.1\r\nHost: localhost\r\n\r\nSET pwned 2\r\n",
        "host: evil\r\nSET pwned 3\r\n",
        "*1\r\n$4\r\npOsT\r\nSET pwned 4\r\n",
    };

    /** The bytes the server sent before it closed the connection (within 5 s). */
    private static String send(int port, String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1); // until the server closes
        }
    }

    @Test
    void httpRequestsCloseTheConnectionAndRunNothing() throws Exception {
        try (TestServer kevy = TestServer.start(); RedisOracle redis = RedisOracle.start()) {
            for (String attack : ATTACKS) {
                String k = send(kevy.port(), attack);
                String r = send(redis.port(), attack);
                assertThat(k).as("kevy's bytes before closing, for %s", attack).isEqualTo(r);
            }
            try (RawClient c = RawClient.connect(kevy.port())) {
                assertThat(c.call("EXISTS", "pwned")).isEqualTo(":0\r\n");
                assertThat(c.call("PING")).isEqualTo("+PONG\r\n");
            }
        }
    }
}
