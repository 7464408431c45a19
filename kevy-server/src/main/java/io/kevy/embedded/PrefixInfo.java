package io.kevy.embedded;

/**
 * Live keys under a prefix and how many of them have a TTL ({@link Store#infoPrefix}, like PREFIX.STATS of
 * feed contract §4). Immutable.
 *
 * @param keys    live keys starting with the prefix (expired keys not yet reaped excluded)
 * @param expires how many of them have a TTL
 */
public record PrefixInfo(long keys, long expires) {
}
