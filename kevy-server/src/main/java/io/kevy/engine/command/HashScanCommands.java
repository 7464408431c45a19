package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Glob;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.HashValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * Hash iteration and sampling (Redis 7.0): HSCAN and HRANDFIELD. Reads only; no frames.
 *
 * <p>Reply shapes follow Redis: a listpack-encoded hash answers HSCAN in one call with cursor 0 whatever COUNT
 * says, and HRANDFIELD with a count at least the hash's size in insertion order; a hashtable is scanned with the
 * reverse-binary cursor of {@link io.kevy.engine.struct.Dict}.
 */
final class HashScanCommands {
    static final ErrorReply OUT_OF_RANGE = ErrorReply.err("value is out of range");

    private HashScanCommands() {
    }

    static void register(CommandTable t) {
        t.add(HashCommands.read("hscan", -3, "Incrementally iterate hash fields and associated values",
                "O(1) for every call. O(N) for a complete iteration, including enough command calls for the cursor to "
                        + "return back to 0. N is the number of elements inside the collection..")
                .since("2.8.0").keyFlags("RO", "access").tips("nondeterministic_output")
                .handler(HashScanCommands::hscan));
        t.add(HashCommands.read("hrandfield", -2, "Get one or multiple random fields from a hash",
                "O(N) where N is the number of fields returned").since("6.2.0").keyFlags("RO", "access")
                .tips("nondeterministic_output").handler(HashScanCommands::hrandfield));
    }

    /** HSCAN key cursor [MATCH pattern] [COUNT count]: cursor errors first, then a missing key, then options. */
    private static void hscan(Call c) {
        long cursor = ScanCursor.parse(c.arg(2));
        HashValue h = c.read(c.arg(1), HashValue.class);
        if (h == null) {
            SetCommands.replyScan(c.reply(), 0, List.of());
            return;
        }
        SetCommands.ScanOptions args = SetCommands.ScanOptions.parse(c, 3);
        List<byte[]> items = new ArrayList<>();
        if (h.isListpack()) {
            cursor = h.scan(cursor, (f, v) -> {
                items.add(f);
                items.add(v);
            });
        } else {
            long maxIterations = args.count * 10;
            do {
                cursor = h.scan(cursor, (f, v) -> {
                    items.add(f);
                    items.add(v);
                });
            } while (cursor != 0 && maxIterations-- > 0 && items.size() < args.count);
        }
        List<byte[]> out = items;
        if (args.pattern != null) {
            out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i += 2) {
                if (Glob.matches(args.pattern, items.get(i), false)) {
                    out.add(items.get(i));
                    out.add(items.get(i + 1));
                }
            }
        }
        SetCommands.replyScan(c.reply(), cursor, out);
    }

    /** HRANDFIELD key [count [WITHVALUES]]: the count is parsed before the key is looked up. */
    private static void hrandfield(Call c) {
        if (c.argc() == 2) {
            HashValue h = c.read(c.arg(1), HashValue.class);
            if (h == null) {
                c.reply().nullBulk();
            } else {
                c.reply().bulk(h.randomPair(ThreadLocalRandom.current())[0]);
            }
            return;
        }
        long l = RedisNumbers.parseLong(c.arg(2), Errors.NOT_INTEGER);
        if (l == Long.MIN_VALUE) {
            throw Call.fail(ErrorReply.err("value is out of range, value must between -9223372036854775807 and "
                    + "9223372036854775807"));
        }
        if (c.argc() > 4 || (c.argc() == 4 && !c.argIs(3, "withvalues"))) {
            throw Call.fail(Errors.SYNTAX);
        }
        boolean withValues = c.argc() == 4;
        if (withValues && (l < -Long.MAX_VALUE / 2 || l > Long.MAX_VALUE / 2)) {
            throw Call.fail(OUT_OF_RANGE);
        }
        HashValue h = c.read(c.arg(1), HashValue.class);
        ReplySink r = c.reply();
        if (h == null || l == 0) {
            r.array(0);
            return;
        }
        boolean unique = l > 0;
        long count = Math.abs(l);
        RandomGenerator rnd = ThreadLocalRandom.current();
        if (!unique || count == 1) {
            RepeatedPicks.write(c, count, withValues, o -> { // closes the connection past its output limit, as Redis
                byte[][] p = h.randomPair(rnd);
                if (withValues) {
                    o.pair();
                }
                o.bulk(p[0]);
                if (withValues) {
                    o.bulk(p[1]);
                }
            });
            return;
        }
        byte[][] all = h.toFlatArray();
        int size = all.length / 2;
        if (count >= size) {
            writePairs(r, all, null, size, withValues);
            return;
        }
        // A uniform sample of `count` distinct pairs, replied in the hash's iteration order (as Redis's
        // listpack sampling does).
        int[] idx = new int[size];
        for (int i = 0; i < size; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < count; i++) {
            int j = i + rnd.nextInt(size - i);
            int tmp = idx[i];
            idx[i] = idx[j];
            idx[j] = tmp;
        }
        int[] chosen = Arrays.copyOf(idx, (int) count);
        Arrays.sort(chosen);
        writePairs(r, all, chosen, chosen.length, withValues);
    }

    /** Writes pairs {@code which[0..n)} (or the first {@code n} when {@code which} is null) of a flat array. */
    private static void writePairs(ReplySink r, byte[][] flat, int[] which, int n, boolean withValues) {
        if (withValues) {
            r.pairs(n); // flat on RESP2, [field, value] pairs on RESP3 (Redis's hrandfieldWithCountCommand)
        } else {
            r.array(n);
        }
        for (int k = 0; k < n; k++) {
            int i = which == null ? k : which[k];
            if (withValues) {
                r.pair();
            }
            r.bulk(flat[2 * i]);
            if (withValues) {
                r.bulk(flat[2 * i + 1]);
            }
        }
    }
}
