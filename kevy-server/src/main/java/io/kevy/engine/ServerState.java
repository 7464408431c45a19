package io.kevy.engine;

import java.util.List;

/**
 * Server-wide state outside the keyspace that persists and replicates with the data, as Redis keeps it in the
 * RDB: the FUNCTION libraries. It is stated as the frames that rebuild it on a server without it (for the
 * libraries, one {@code FUNCTION LOAD REPLACE <code>} per library); shard 0 carries them: its snapshot holds
 * them, a replica's full sync loads them, and a new stream of shard 0 (FLUSHALL) starts with them, so that
 * replaying shard 0's frames from offset 0 rebuilds the state (docs/cdc.md).
 *
 * <p>Implementations must be thread-safe; {@link #frames} is called with shard 0's lock held, so that the frames
 * are frozen in the same no-append window as the shard's cursor.
 */
public interface ServerState {
    /** None: a server without libraries. */
    ServerState NONE = List::of;

    /** The frames that rebuild the state, in order; empty when there is nothing to rebuild. */
    List<byte[][]> frames();
}
