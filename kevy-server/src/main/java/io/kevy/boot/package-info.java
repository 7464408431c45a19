/**
 * Where a kevy is put together: {@link io.kevy.boot.KevyInstance} builds the engine, the feed, the command table,
 * the dispatcher and the persistence, for the network server ({@code io.kevy.server}) and the embedded store
 * ({@code io.kevy.embedded}) alike.
 */
package io.kevy.boot;
