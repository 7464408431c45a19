package io.kevy.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.FrameRecorder;
import io.kevy.testing.StateDump;
import java.util.List;
import java.util.Map;

/** Test access to the embedded store from other packages: replaying recorded frames (feed contract §7). */
public final class StoreAccess {
    private StoreAccess() {
    }

    /**
     * Applies {@code frames} in order to a fresh embedded store as kevy's appliers do ({@link Store#applyFrame}),
     * each of which must apply cleanly, and returns its state as {@link StateDump#live} at {@code nowMs}.
     */
    public static Map<String, String> replay(List<FrameRecorder.Frame> frames, long nowMs) {
        try (Store s = Store.open(Config.defaults())) {
            for (FrameRecorder.Frame f : frames) {
                Reply r = s.applyFrame(f.argv());
                assertThat(r.isError()).as("frame %s applies cleanly: %s", f.text(), r).isFalse();
            }
            return StateDump.live(s.engine(), nowMs);
        }
    }
}
