package io.kevy.engine.command;

/**
 * Finds the key arguments of a command whose keys are not a fixed range (ZUNIONSTORE's numkeys, LMPOP, ...).
 * Used for locking and for COMMAND GETKEYS. Must not throw: return null when the arguments are malformed, in
 * which case the command runs with every shard locked and its handler reports the error.
 */
@FunctionalInterface
public interface KeyFinder {
    /** Indexes into {@code argv} of the keys, in argument order; null when they cannot be determined. */
    int[] keyPositions(byte[][] argv);

    /**
     * True when the command will also read keys its arguments do not name (SORT's BY and GET patterns build key
     * names from the elements it sorts): it then runs with every shard locked, while {@link #keyPositions} still
     * names the keys COMMAND GETKEYS reports.
     */
    default boolean readsUnnamedKeys(byte[][] argv) {
        return false;
    }
}
