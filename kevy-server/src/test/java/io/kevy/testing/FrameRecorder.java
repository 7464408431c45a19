package io.kevy.testing;

import static org.assertj.core.api.Assertions.assertThat;
import io.kevy.engine.EffectListener;
import io.kevy.engine.Engine;
import io.kevy.engine.Shard;
import io.kevy.resp.FrameKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records the effect frames of every shard of an engine (feed contract §7) for assertions. Each frame is
 * checked on arrival: every key it names must belong to the shard that emitted it. Frames are kept in emission
 * order across shards (one command runs on one thread, so its frames arrive in the order it emitted them).
 *
 * <pre>{@code
 * FrameRecorder frames = FrameRecorder.attach(server.server().engine());
 * raw.call("LPUSH", "k", "a");
 * assertThat(frames.take()).containsExactly("LPUSH k a");
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class FrameRecorder implements EffectListener, AutoCloseable {
    /** One recorded frame: the emitting shard, its offset and its arguments. */
    public record Frame(int shard, long offset, byte[][] argv) {
        /** The arguments joined by single spaces (bytes as ISO-8859-1). */
        public String text() {
            StringBuilder sb = new StringBuilder();
            for (byte[] a : argv) {
                if (sb.length() > 0) {
                    sb.append(' ');
                }
                sb.append(new String(a, StandardCharsets.ISO_8859_1));
            }
            return sb.toString();
        }
    }

    private final Engine engine;
    private final List<Frame> frames = new ArrayList<>();
    private final List<Frame> all = new ArrayList<>();
    private final List<String> misplaced = new ArrayList<>();

    private FrameRecorder(Engine engine) {
        this.engine = engine;
    }

    /** Starts recording every shard of {@code engine}. */
    public static FrameRecorder attach(Engine engine) {
        FrameRecorder r = new FrameRecorder(engine);
        for (int i = 0; i < engine.shardCount(); i++) {
            engine.shard(i).addListener(r);
        }
        return r;
    }

    @Override
    public synchronized void onEffect(Shard shard, long offset, byte[][] frame) {
        Frame f = new Frame(shard.index(), offset, frame.clone());
        FrameKeys.forEach(frame, k -> {
            if (engine.shardIndex(k) != shard.index()) {
                misplaced.add("shard " + shard.index() + ": " + f.text());
            }
        });
        frames.add(f);
        all.add(f);
    }

    /** The frames recorded since the last take, as text ({@link Frame#text}), and forgets them. */
    public synchronized List<String> take() {
        assertThat(misplaced).as("frames emitted on a shard that does not own their key").isEmpty();
        List<String> out = new ArrayList<>();
        for (Frame f : frames) {
            out.add(f.text());
        }
        frames.clear();
        return out;
    }

    /** The frames recorded since the last take, with shard and offset, and forgets them. */
    public synchronized List<Frame> takeFrames() {
        assertThat(misplaced).as("frames emitted on a shard that does not own their key").isEmpty();
        List<Frame> out = new ArrayList<>(frames);
        frames.clear();
        return out;
    }

    /** Every frame recorded since attaching (take does not clear these), in emission order. */
    public synchronized List<Frame> all() {
        return new ArrayList<>(all);
    }

    /**
     * The completeness invariant (feed contract §7) for a randomised run: sends every frame recorded since attaching
     * ({@link #all}) to {@code mirror}, a server that started empty, asserting that it accepts each one; checks, as
     * {@link #take} does, that no frame was emitted on the wrong shard; then asserts that the mirror's whole state
     * ({@link StateDump}) equals the recorded engine's. {@code seed} names the run in failure messages.
     */
    public void assertReplayRebuilds(TestServer mirror, long seed) {
        RawClient dst = mirror.raw();
        for (Frame f : all()) {
            String reply = new String(dst.send(RawClient.encode(f.argv())).readReplyBytes(),
                    StandardCharsets.ISO_8859_1);
            assertThat(reply).as("seed %d, replay of %s", seed, f.text()).doesNotStartWith("-");
        }
        take();
        assertThat(StateDump.of(mirror.server().engine())).as("seed %d", seed).isEqualTo(StateDump.of(engine));
    }

    @Override
    public void close() {
        for (int i = 0; i < engine.shardCount(); i++) {
            engine.shard(i).removeListener(this);
        }
    }
}
