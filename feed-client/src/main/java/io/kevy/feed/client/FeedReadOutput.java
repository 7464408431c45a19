package io.kevy.feed.client;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The lettuce output of one {@code FEED.READ} reply, {@code [generation, next, [[offset, [argv...]] ...]]}
 * (feed contract §4): builds the {@link Frame}s straight from the decoder's callbacks, each argument copied once
 * into its own {@code byte[]}, without the nested {@code List}s of lettuce's generic output. Its result is the
 * {@link FrameBatch}, or null when the reply had another shape ({@link #problem()} says how); an error reply
 * is lettuce's as usual. Used by one command on one event loop; not thread-safe.
 *
 * <p>The decoder calls {@link #multi} when an array starts and {@link #complete} with the nesting depth left
 * after each element; the depth says which part of the reply a value is: 1 the cursor, 3 a frame's offset, 4 an
 * argument.
 */
final class FeedReadOutput extends CommandOutput<byte[], byte[], FrameBatch> {
    private final int shard;
    private int depth;
    private int topValues;
    private long generation;
    private long next;
    private List<Frame> frames;
    private long offset;
    private byte[][] argv;
    private int args;
    private String problem;

    FeedReadOutput(int shard) {
        super(ByteArrayCodec.INSTANCE, null);
        this.shard = shard;
    }

    /** Why the reply did not have the shape of a FEED.READ reply, or null when it had. */
    String problem() {
        return problem;
    }

    @Override
    public void multi(int count) {
        switch (depth) {
            case 0 -> {
            }
            case 1 -> {
                if (topValues != 2) {
                    fail("frames before the cursor");
                }
                frames = new ArrayList<>(Math.max(0, count));
            }
            case 2 -> {
                if (count != 2) {
                    fail("a frame of " + count + " elements");
                }
                argv = null;
            }
            case 3 -> {
                argv = new byte[Math.max(0, count)][];
                args = 0;
            }
            default -> fail("nesting deeper than 4");
        }
        depth++;
    }

    @Override
    public void set(long integer) {
        if (depth == 1 && topValues < 2) {
            if (topValues++ == 0) {
                generation = integer;
            } else {
                next = integer;
            }
        } else if (depth == 3 && argv == null) {
            offset = integer;
        } else {
            fail("an integer at depth " + depth);
        }
    }

    @Override
    public void set(ByteBuffer bytes) {
        if (depth == 4 && bytes != null && args < argv.length) {
            byte[] b = new byte[bytes.remaining()];
            bytes.get(b);
            argv[args++] = b;
        } else {
            fail("a string at depth " + depth);
        }
    }

    @Override
    public void complete(int depth) {
        while (this.depth > depth) {
            if (this.depth == 3 && frames != null && argv != null && args == argv.length && args > 0) {
                frames.add(new Frame(offset, argv));
            } else if (this.depth == 3) {
                fail("an incomplete frame");
            }
            this.depth--;
        }
        if (depth == 0 && problem == null) {
            if (frames == null) {
                fail("no frames array");
            } else {
                output = new FrameBatch(new Cursor(shard, generation, next), frames);
            }
        }
    }

    private void fail(String what) {
        if (problem == null) {
            problem = "FEED.READ: unexpected reply shape: " + what;
        }
    }
}
