package io.kevy.feed.client;

import static io.kevy.feed.client.TestChanges.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FeedReadOutput} fed the callbacks lettuce's decoder makes for a FEED.READ reply: {@code multi} when an
 * array starts, a value call per scalar, then {@code complete} with the depth left after each element.
 */
class FeedReadOutputTest {
    /** The callbacks of {@code [7, 12, [[10, [SET k v]], [11, [DEL k]]]]}. */
    private static void twoFrames(FeedReadOutput o) {
        header(o, 7, 12);
        o.multi(2);
        frame(o, 10, "SET", "k", "v");
        frame(o, 11, "DEL", "k");
        o.complete(1);
        o.complete(0);
    }

    /** The callbacks of a reply's start: {@code [generation, nextOffset, ...}. */
    private static void header(FeedReadOutput o, long generation, long nextOffset) {
        o.multi(3);
        o.set(generation);
        o.complete(1);
        o.set(nextOffset);
        o.complete(1);
    }

    private static void frame(FeedReadOutput o, long offset, String... argv) {
        o.multi(2);
        o.set(offset);
        o.complete(3);
        o.multi(argv.length);
        for (String a : argv) {
            o.set(ByteBuffer.wrap(utf8(a)));
            o.complete(4);
        }
        o.complete(3);
        o.complete(2);
    }

    @Test
    void buildsTheFramesAndTheNextCursor() {
        FeedReadOutput o = new FeedReadOutput(3);
        twoFrames(o);
        assertThat(o.problem()).isNull();
        FrameBatch b = o.get();
        assertThat(b.next()).isEqualTo(new Cursor(3, 7, 12));
        assertThat(b.frames()).containsExactly(new Frame(10, new byte[][] {utf8("SET"), utf8("k"), utf8("v")}),
                new Frame(11, new byte[][] {utf8("DEL"), utf8("k")}));
    }

    @Test
    void anEmptyReadHasNoFrames() {
        FeedReadOutput o = new FeedReadOutput(0);
        header(o, 1, 5);
        o.multi(0);
        o.complete(1);
        o.complete(0);
        assertThat(o.get()).isEqualTo(new FrameBatch(new Cursor(0, 1, 5), List.of()));
    }

    @Test
    void anotherShapeIsAProblemAndNoBatch() {
        FeedReadOutput o = new FeedReadOutput(0);
        o.set(ByteBuffer.wrap(utf8("OK")));
        o.complete(0);
        assertThat(o.get()).isNull();
        assertThat(o.problem()).contains("unexpected reply shape");
        FeedReadOutput frameless = new FeedReadOutput(0);
        header(frameless, 1, 5);
        frameless.multi(1);
        frameless.multi(2);
        frameless.set(9L);
        frameless.complete(3);
        frameless.multi(0);
        frameless.complete(3);
        frameless.complete(2);
        frameless.complete(1);
        frameless.complete(0);
        assertThat(frameless.get()).isNull();
        assertThat(frameless.problem()).contains("incomplete frame");
    }
}
