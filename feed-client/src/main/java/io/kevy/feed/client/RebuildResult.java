package io.kevy.feed.client;

import java.time.Duration;

/**
 * What a rebuild did. Immutable.
 *
 * @param keys     SNAPSHOT entries delivered
 * @param vanished VANISHED entries delivered (keys the handler held that are gone)
 * @param duration from the begin to the end of the rebuild
 */
public record RebuildResult(long keys, long vanished, Duration duration) {
}
