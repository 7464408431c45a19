package io.kevy.feed.client;

import java.util.List;

/**
 * The answer of {@link FeedSource#read}: the frames delivered (possibly none) and the cursor to read from next,
 * which is one past the last frame scanned, including frames the PREFIX filter dropped (feed contract §4).
 * Immutable.
 *
 * @param next   where to continue; its generation is the stream's
 * @param frames the delivered frames in offset order
 */
public record FrameBatch(Cursor next, List<Frame> frames) {
    public FrameBatch {
        frames = List.copyOf(frames);
    }
}
