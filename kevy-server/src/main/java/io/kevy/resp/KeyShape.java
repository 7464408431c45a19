package io.kevy.resp;

/**
 * Where a command's keys are in its argv, as Redis's COMMAND reports them: the first key, the last key (a
 * negative value counts from the end, -1 being the last argument) and the step; {@code first == 0} means no keys.
 * The command table gives the shape of each verb ({@code CommandTable.keyShape}); this class holds the rules a
 * frame's shape decides. Immutable.
 *
 * @param first index of the first key in argv (the verb is 0), 0 for none
 * @param last  index of the last key, negative from the end
 * @param step  distance between keys
 */
public record KeyShape(int first, int last, int step) {
    /**
     * True when a frame of this shape with {@code argc} arguments (the verb included) has exactly one key, argument
     * 1, so a PREFIX filter may drop it (feed contract §8): a shape with one key at 1 ({@code SET k v},
     * {@code HSET k f v}, {@code PEXPIREAT k t}), or keys from 1 to the end by step 1 with one argument after the
     * verb ({@code DEL k}). Every other shape is fail-open: {@code DEL} of 2+ keys, {@code MSET} (step 2, even
     * with one pair), {@code RENAME} (keys 1 and 2), no keys.
     */
    public boolean singleKey(long argc) {
        if (first != 1 || argc < 2) {
            return false;
        }
        return last == 1 || (last == -1 && step == 1 && argc == 2);
    }

    /** Looks up the key shape of a frame's verb; implemented by the command table. Thread-safe. */
    @FunctionalInterface
    public interface Lookup {
        /**
         * The shape of the command named {@code buf[from, from + length)} (ASCII case-insensitive), or null for a
         * verb the table does not know or whose keys only its arguments can tell (movable keys).
         */
        KeyShape of(byte[] buf, int from, int length);

        /** {@link #of(byte[], int, int)} of a whole array. */
        default KeyShape of(byte[] verb) {
            return of(verb, 0, verb.length);
        }
    }
}
