/**
 * The data structures under the keyspace and the values: Redis's incrementally rehashed
 * {@link io.kevy.engine.struct.Dict} with its SCAN cursor, the {@link io.kevy.engine.struct.SkipList} of sorted
 * sets, the inline short strings of table nodes, the hash function, and the geohash encoding and search areas of
 * the geo commands ({@link io.kevy.engine.struct.GeoHash}, {@link io.kevy.engine.struct.GeoShape}).
 */
package io.kevy.engine.struct;
