package io.kevy.feed.client;

import static io.kevy.feed.client.TestChanges.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplyOutput} fed the callbacks lettuce's decoder makes ({@code multi} when an array starts, a value call
 * per scalar, {@code complete} with the depth left after each element): an error inside EXEC's reply is an
 * element, so the other replies keep their places; one at the top fails the command.
 */
class ReplyOutputTest {
    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anExecReplyKeepsItsErrorsAsElements() {
        // EXEC's reply to TYPE k, GET k (wrong type), LRANGE k 0 -1, FEED.TAIL 0: [list, -WRONGTYPE, [a, b], [7, 3]]
        ReplyOutput o = new ReplyOutput();
        o.multi(4);
        o.setSingle(bytes("list"));
        o.complete(1);
        o.setError(bytes("WRONGTYPE Operation against a key holding the wrong kind of value"));
        o.complete(1);
        o.multi(2);
        o.set(bytes("a"));
        o.complete(2);
        o.set(bytes("b"));
        o.complete(2);
        o.complete(1);
        o.multi(2);
        o.set(7L);
        o.complete(2);
        o.set(3L);
        o.complete(2);
        o.complete(1);
        o.complete(0);
        assertThat(o.hasError()).isFalse();
        assertThat(o.array()).isTrue();
        List<Object> r = o.get();
        assertThat(r).hasSize(4);
        assertThat((byte[]) r.get(0)).isEqualTo(utf8("list"));
        assertThat(r.get(1)).isEqualTo(new ReplyOutput.ErrorElement(
                "WRONGTYPE Operation against a key holding the wrong kind of value"));
        assertThat((List<?>) r.get(2)).hasSize(2);
        assertThat((byte[]) ((List<?>) r.get(2)).get(1)).isEqualTo(utf8("b"));
        assertThat(r.get(3)).isEqualTo(List.of(7L, 3L));
    }

    @Test
    void aTopLevelErrorFailsTheCommand() {
        ReplyOutput o = new ReplyOutput();
        o.setError(bytes("EXECABORT Transaction discarded because of previous errors."));
        o.complete(0);
        assertThat(o.hasError()).isTrue();
        assertThat(o.getError()).startsWith("EXECABORT");
    }

    @Test
    void aScalarIsTheOneElementAndNilIsNull() {
        ReplyOutput o = new ReplyOutput();
        o.setSingle(bytes("QUEUED"));
        o.complete(0);
        assertThat(o.array()).isFalse();
        assertThat((byte[]) o.get().get(0)).isEqualTo(utf8("QUEUED"));
        ReplyOutput nil = new ReplyOutput();
        nil.set((ByteBuffer) null);
        nil.complete(0);
        assertThat(nil.get()).containsExactly((Object) null);
    }

    @Test
    void anEmptyArrayAndNestedEmptyArrays() {
        ReplyOutput o = new ReplyOutput();
        o.multi(2);
        o.multi(0);
        o.complete(1);
        o.set(1.5);
        o.complete(1);
        o.complete(0);
        assertThat(o.get()).containsExactly(List.of(), 1.5);
    }
}
