package io.kevy.embedded;

import io.kevy.feed.FeedCursor;
import java.util.List;

/**
 * The answer of {@link Store#changesSince}: the changes delivered (possibly none) and the cursor to read from
 * next, which is one past the last change scanned, including changes the prefix filter dropped (feed contract
 * §4). Immutable.
 *
 * @param changes the delivered changes in offset order
 * @param next    where to resume
 */
public record ChangeBatch(List<Change> changes, FeedCursor next) {
    public ChangeBatch {
        changes = List.copyOf(changes);
    }
}
