/**
 * The cache-invalidation example: {@link io.kevy.examples.cache.HashCache} (a Caffeine cache of kevy hashes,
 * loaded over lettuce), {@link io.kevy.examples.cache.CacheInvalidator} (a FeedConsumer that drops changed
 * entries, and everything on a rebuild) and {@link io.kevy.examples.cache.HashService} (an HTTP front,
 * {@code GET /users/{id}}). Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.examples.cache;
