/**
 * The search-index example: {@link io.kevy.examples.search.HashIndex} (a Lucene index of kevy hashes),
 * {@link io.kevy.examples.search.IndexUpdater} (a FeedConsumer keeping it current, rebuilding with a sweeping
 * ScanRebuild on FEEDRESYNC), {@link io.kevy.examples.search.IndexCursorStore} (cursors committed with the
 * index), the Debian package catalog ({@link io.kevy.examples.search.DebianPackages}) and the CLI
 * ({@link io.kevy.examples.search.SearchIndexMain}). Arguments and results are non-null unless a method says
 * otherwise.
 */
package io.kevy.examples.search;
