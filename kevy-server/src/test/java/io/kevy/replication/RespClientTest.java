package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replica's RESP2 reply reader: every type, and hostile replies refused by name within its limits. */
class RespClientTest {
    private static Object read(String bytes) throws IOException {
        return RespClient.over(new ByteArrayInputStream(bytes.getBytes(StandardCharsets.ISO_8859_1)),
                new ByteArrayOutputStream()).read();
    }

    @Test
    void readsEveryReplyType() throws IOException {
        assertThat(read("+OK\r\n")).isEqualTo("OK");
        assertThat(read("-FEEDRESYNC 1 2\r\n")).isEqualTo(new RespClient.Error("FEEDRESYNC 1 2"));
        assertThat(read(":-12\r\n")).isEqualTo(-12L);
        assertThat((byte[]) read("$3\r\na\r\n\r\n")).isEqualTo("a\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(read("$-1\r\n")).isNull();
        assertThat(read("*-1\r\n")).isNull();
        Object nested = read("*2\r\n:1\r\n*1\r\n$1\r\nx\r\n");
        assertThat(nested).isInstanceOf(List.class);
        assertThat(((List<?>) nested).get(0)).isEqualTo(1L);
    }

    @Test
    void writesCommandsAsArraysOfBulkStrings() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RespClient c = RespClient.over(new ByteArrayInputStream(new byte[0]), out);
        c.send("FEED.READ", 0, 7L, new byte[] {'k'});
        c.flush();
        assertThat(out.toString(StandardCharsets.US_ASCII))
                .isEqualTo("*4\r\n$9\r\nFEED.READ\r\n$1\r\n0\r\n$1\r\n7\r\n$1\r\nk\r\n");
    }

    @Test
    void hostileRepliesAreRefusedNamingWhatWasWrong() {
        assertThatThrownBy(() -> read("$" + (RespClient.MAX_BULK + 1) + "\r\n")).hasMessageContaining("bulk length");
        assertThatThrownBy(() -> read("$-2\r\n")).hasMessageContaining("bulk length -2");
        assertThatThrownBy(() -> read("*" + (RespClient.MAX_ARRAY + 1) + "\r\n"))
                .hasMessageContaining("array length");
        assertThatThrownBy(() -> read("*1\r\n".repeat(RespClient.MAX_DEPTH + 1) + ":1\r\n"))
                .hasMessageContaining("nested deeper");
        assertThatThrownBy(() -> read("+" + "x".repeat(RespClient.MAX_LINE + 1) + "\r\n"))
                .hasMessageContaining("longer than");
        assertThatThrownBy(() -> read(":12x\r\n")).hasMessageContaining("not an integer");
        assertThatThrownBy(() -> read("!3\r\n")).hasMessageContaining("not a RESP2 type");
        assertThatThrownBy(() -> read("+OK\n")).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> read("+OK\rX")).hasMessageContaining("CRLF");
        assertThatThrownBy(() -> read("$5\r\nab")).isInstanceOf(EOFException.class).hasMessageContaining("cut short");
        assertThatThrownBy(() -> read("")).isInstanceOf(EOFException.class);
    }
}
