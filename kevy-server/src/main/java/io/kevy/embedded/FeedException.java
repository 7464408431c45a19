package io.kevy.embedded;

/**
 * Why {@link Store#changesSince} or {@link Store#changesTail} could not answer (feed contract §4, §9):
 * {@link Resync} (the {@code -FEEDRESYNC} of the server), {@link Future} (cursor ahead of the stream) or
 * {@link Disabled}. Unchecked and thrown routinely, so without a stack trace.
 */
public abstract sealed class FeedException extends RuntimeException
        permits FeedException.Resync, FeedException.Future, FeedException.Disabled {
    private static final long serialVersionUID = 1L;

    FeedException(String message) {
        super(message, null, false, false);
    }

    /**
     * The cursor names another generation (a flush or a restart) or an offset no longer retained: rebuild
     * the derived state, then continue from {@code (generation, tail)}, the current tail (contract §4, §11).
     */
    public static final class Resync extends FeedException {
        private static final long serialVersionUID = 1L;
        private final long generation;
        private final long tail;

        public Resync(long generation, long tail) {
            super("FEEDRESYNC " + generation + " " + tail);
            this.generation = generation;
            this.tail = tail;
        }

        /** The current generation. */
        public long generation() {
            return generation;
        }

        /** The current next offset: where to continue after the rebuild. */
        public long tail() {
            return tail;
        }
    }

    /** The offset is past the stream's tail: a caller bug (the server's {@code feed cursor ahead of stream}). */
    public static final class Future extends FeedException {
        private static final long serialVersionUID = 1L;

        public Future() {
            super("feed cursor ahead of stream");
        }
    }

    /** The store was opened without the feed ({@link Config#withFeed}). */
    public static final class Disabled extends FeedException {
        private static final long serialVersionUID = 1L;

        public Disabled() {
            super("feed disabled (open the store with Config.withFeed)");
        }
    }
}
