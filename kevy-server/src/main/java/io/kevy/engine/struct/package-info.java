/**
 * The data structures under the keyspace and the values: Redis's incrementally rehashed
 * {@link io.kevy.engine.struct.Dict} with its SCAN cursor, the {@link io.kevy.engine.struct.SkipList} of sorted
 * sets, the inline short strings of table nodes, and the hash function.
 */
package io.kevy.engine.struct;
