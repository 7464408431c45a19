package io.kevy.feed;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;

/**
 * The wire shapes and error texts of the feed commands (feed contract §4), byte for byte, shared by the
 * FEED.* handlers and the blocked FEED.READ. Thread-safe; static methods only.
 */
public final class FeedReplies {
    public static final ErrorReply INVALID_SHARD = ErrorReply.err("invalid shard");
    public static final ErrorReply SHARD_OUT_OF_RANGE = ErrorReply.err("shard out of range");
    public static final ErrorReply DISABLED = ErrorReply.err("feed disabled (set [feed] enabled = true)");
    public static final ErrorReply INVALID_GENERATION = ErrorReply.err("invalid generation");
    public static final ErrorReply INVALID_OFFSET = ErrorReply.err("invalid offset");
    public static final ErrorReply INVALID_COUNT = ErrorReply.err("invalid COUNT");
    public static final ErrorReply PREFIX_REQUIRES_VALUE = ErrorReply.err("PREFIX requires a value");
    public static final ErrorReply INVALID_BLOCK = ErrorReply.err("invalid BLOCK");
    public static final ErrorReply CURSOR_AHEAD = ErrorReply.err("feed cursor ahead of stream");
    /** FEED.READ DURABLE where no fsync schedule exists (ours; upstream has no DURABLE: a syntax error). */
    public static final ErrorReply DURABLE_UNAVAILABLE = ErrorReply.err("DURABLE needs an fsync schedule: the "
            + "AOF on ([persistence] aof = true) with appendfsync always or everysec");

    private FeedReplies() {
    }

    /** {@code -FEEDRESYNC <generation> <tail>}. */
    public static ErrorReply resync(long generation, long tail) {
        return ErrorReply.of("FEEDRESYNC " + generation + " " + tail);
    }

    /** {@code *2 [:generation, :next_offset]} (FEED.TAIL). */
    public static void writeCursor(ReplySink out, FeedCursor c) {
        out.array(2);
        out.integer(c.generation());
        out.integer(c.offset());
    }

    /**
     * Writes a read result: {@code *3 [:generation, :next_cursor, *frames]} with each frame
     * {@code *2 [:offset, *argv]} and argv elements as bulk strings (the argv copied as the backlog encoded
     * it); or the FEEDRESYNC / cursor-ahead error.
     */
    public static void write(ReplySink out, FeedRead.Result result) {
        if (result instanceof FeedRead.Batch b) {
            out.array(3);
            out.integer(b.generation());
            out.integer(b.next());
            out.array(b.frames().size());
            for (FeedFrame f : b.frames()) {
                out.array(2);
                out.integer(f.offset());
                out.encoded(f.data(), f.start(), f.end() - f.start());
            }
        } else if (result instanceof FeedRead.Resync r) {
            out.error(resync(r.generation(), r.tail()));
        } else {
            out.error(CURSOR_AHEAD);
        }
    }
}
