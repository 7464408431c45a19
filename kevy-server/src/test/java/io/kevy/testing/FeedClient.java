package io.kevy.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * FEED.* over a {@link RawClient}, decoded: for tests that consume the feed rather than pin its bytes.
 * Not thread-safe (one connection).
 */
public final class FeedClient {
    private final RawClient raw;

    /** A frame as read: its offset and argv. */
    public record Frame(long offset, byte[][] argv) {
        public String verb() {
            return new String(argv[0], StandardCharsets.US_ASCII);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder().append(offset);
            for (byte[] a : argv) {
                sb.append(' ').append(new String(a, StandardCharsets.UTF_8));
            }
            return sb.toString();
        }
    }

    /** A decoded FEED.READ reply. */
    public record Batch(long generation, long next, List<Frame> frames) {
    }

    public FeedClient(RawClient raw) {
        this.raw = raw;
    }

    public RawClient raw() {
        return raw;
    }

    public int shards() {
        return ((Long) call("FEED.SHARDS")).intValue();
    }

    /** FEED.TAIL: {generation, next_offset}. */
    public long[] tail(int shard) {
        List<?> l = (List<?>) call("FEED.TAIL", Integer.toString(shard));
        return new long[] {(Long) l.get(0), (Long) l.get(1)};
    }

    /** FEED.READ with extra options; throws AssertionError on an error reply. */
    public Batch read(int shard, long generation, long offset, String... options) {
        String[] args = new String[4 + options.length];
        args[0] = "FEED.READ";
        args[1] = Integer.toString(shard);
        args[2] = Long.toString(generation);
        args[3] = Long.toString(offset);
        System.arraycopy(options, 0, args, 4, options.length);
        return decode(call(args));
    }

    /** Decodes a FEED.READ reply already parsed by {@link Resp}. */
    public static Batch decode(Object reply) {
        if (reply instanceof Resp.Err e) {
            throw new AssertionError("FEED.READ failed: " + e.message());
        }
        List<?> l = (List<?>) reply;
        List<Frame> frames = new ArrayList<>();
        for (Object f : (List<?>) l.get(2)) {
            List<?> fl = (List<?>) f;
            List<?> argv = (List<?>) fl.get(1);
            byte[][] a = new byte[argv.size()][];
            for (int i = 0; i < a.length; i++) {
                a[i] = (byte[]) argv.get(i);
            }
            frames.add(new Frame((Long) fl.get(0), a));
        }
        return new Batch((Long) l.get(0), (Long) l.get(1), frames);
    }

    /** Every frame of {@code shard} from offset 0 of its current generation to the tail. */
    public List<Frame> readAll(int shard) {
        long[] t = tail(shard);
        List<Frame> all = new ArrayList<>();
        long cursor = 0;
        while (cursor < t[1]) {
            Batch b = read(shard, t[0], cursor, "COUNT", "4096");
            all.addAll(b.frames());
            cursor = b.next();
        }
        return all;
    }

    private Object call(String... args) {
        raw.command(args);
        return Resp.parse(raw.readReplyBytes());
    }
}
