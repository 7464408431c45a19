package io.kevy.feed.client;

import java.util.List;

/**
 * One page of {@code SCAN}: the cursor to continue from ({@code "0"} when the scan is complete) and the keys
 * of this page. Immutable; do not modify the key arrays.
 *
 * @param cursor the next SCAN cursor, {@code "0"} at the end
 * @param keys   the keys of this page (may repeat across pages, as SCAN's do)
 */
public record ScanPage(String cursor, List<byte[]> keys) {
    public ScanPage {
        keys = List.copyOf(keys);
    }

    /** True when this was the last page. */
    public boolean last() {
        return cursor.equals("0");
    }
}
