package io.kevy.engine.command;

/**
 * Finds the key arguments of a command whose keys are not a fixed range (ZUNIONSTORE's numkeys, LMPOP, ...).
 * Used for locking and for COMMAND GETKEYS. Must not throw: return null when the arguments are malformed, in
 * which case the command runs with every shard locked and its handler reports the error. Null is also the answer
 * when the keys depend on the data (SORT's BY and GET patterns name keys built from the elements it sorts): the
 * command then runs with every shard locked.
 */
@FunctionalInterface
public interface KeyFinder {
    /** Indexes into {@code argv} of the keys, in argument order; null when they cannot be determined. */
    int[] keyPositions(byte[][] argv);
}
