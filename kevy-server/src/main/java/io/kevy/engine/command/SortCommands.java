package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.text.Strtod;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.ListValue;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * SORT and SORT_RO, a port of Redis 7.0's {@code sortCommandGeneric}: lists, sets and sorted sets; BY (a
 * {@code *} pattern, {@code ->field} of a hash, or a pattern without {@code *} = no sorting), LIMIT, GET
 * (repeatable, {@code #} = the element), ASC/DESC, ALPHA and STORE (SORT only).
 *
 * <ul>
 *   <li>Numeric sorting reads weights with strtod's rules ({@link Strtod#parseSortWeight}); a weight that is not a
 *       number fails the command with "One or more scores can't be converted into double". Equal weights are
 *       ordered by the elements' bytes. A missing BY key weighs 0 (numeric) or sorts first (ALPHA).</li>
 *   <li>ALPHA compares bytes: as C strings (up to a NUL, strcoll in the C.UTF-8 locale the reference Redis runs
 *       in) without STORE, as whole binary strings with STORE, as Redis does.</li>
 *   <li>Without sorting (BY nosort), lists and sorted sets keep their order (reversed by DESC) and LIMIT picks a
 *       range of it; a set keeps its table order, except with STORE, where Redis sorts it ALPHA so the stored
 *       result is deterministic.</li>
 *   <li>Ties that Redis leaves to its quicksort (ALPHA with BY weights that compare equal) keep the input order
 *       here (a stable sort); Redis's glibc {@code qsort} does the same, its partial sort for BY + LIMIT may not.</li>
 *   <li>SORT reads the sorted set it sorts into the skiplist encoding, as Redis 7.0 does.</li>
 * </ul>
 *
 * <p><b>Locking.</b> BY and GET patterns name keys on any shard, known only once the elements are read. The key
 * finder therefore returns null for a SORT whose BY or GET patterns read keys, and the dispatcher runs it with
 * every shard locked; any other SORT locks only the shards of the sorted key and the STORE key. (The ALL_SHARDS
 * flag would serialise every SORT, the common pattern-free ones included, against all shards.)
 *
 * <p>Flags follow Redis 7.0: SORT is {@code write denyoom} (because of STORE), SORT_RO is {@code readonly}.
 *
 * <p>Frames (feed contract §7): SORT ... STORE emits {@code DEL dst} then {@code RPUSH dst ...} in frames of at
 * most 1024 elements when the result is not empty (it stores a list, replacing dst and its TTL), and only
 * {@code DEL dst} when the result is empty and dst existed. SORT without STORE and SORT_RO emit nothing (only
 * lazy expiry of the keys they read does).
 */
final class SortCommands {
    private static final ErrorReply NOT_DOUBLE = ErrorReply.err("One or more scores can't be converted into double");

    /** The parsed options of one SORT. */
    static final class Options {
        boolean desc;
        boolean alpha;
        boolean dontSort;
        long limitStart;
        long limitCount = -1;
        byte[] sortBy;
        final List<byte[]> gets = new ArrayList<>();
        int storeAt = -1;
    }

    /** One element and its sort key. */
    private static final class Item {
        final byte[] element;
        double score;
        byte[] cmp;

        Item(byte[] element) {
            this.element = element;
        }
    }

    private SortCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("sort", -2).flags(WRITE, DENYOOM).keys(1, 1, 1, new SortKeys(false)).group("generic")
                .since("1.0.0")
                .summary("Sort the elements in a list, set or sorted set, optionally storing the result")
                .handler(c -> sort(c, false)));
        t.add(command("sort_ro", -2).flags(READONLY).keys(1, 1, 1, new SortKeys(true)).group("generic")
                .since("7.0.0").summary("Sort the elements in a list, set or sorted set. Read-only variant of SORT.")
                .handler(c -> sort(c, true)));
    }

    /**
     * SORT's keys: the sorted key and the STORE key (what COMMAND GETKEYS reports, as Redis); when a BY or GET
     * pattern reads keys built from the elements, every shard is locked; the sorted key alone when the options
     * are malformed (the handler fails before reading anything).
     */
    record SortKeys(boolean readonly) implements KeyFinder {
        @Override
        public int[] keyPositions(byte[][] argv) {
            Options o = parseOrNull(argv, readonly);
            return o == null || o.storeAt < 0 ? new int[] {1} : new int[] {1, o.storeAt};
        }

        @Override
        public boolean readsUnnamedKeys(byte[][] argv) {
            Options o = parseOrNull(argv, readonly);
            if (o == null) {
                return false;
            }
            if (!o.dontSort && o.sortBy != null && readsKeys(o.sortBy)) {
                return true;
            }
            for (byte[] g : o.gets) {
                if (readsKeys(g)) {
                    return true;
                }
            }
            return false;
        }

        private static Options parseOrNull(byte[][] argv, boolean readonly) {
            try {
                return parse(argv, readonly);
            } catch (CommandException e) {
                return null;
            }
        }
    }

    /** The option loop of {@code sortCommandGeneric}, with its errors in its order. */
    static Options parse(byte[][] argv, boolean readonly) {
        Options o = new Options();
        for (int j = 2; j < argv.length; j++) {
            int left = argv.length - j - 1;
            byte[] a = argv[j];
            if (is(a, "asc")) {
                o.desc = false;
            } else if (is(a, "desc")) {
                o.desc = true;
            } else if (is(a, "alpha")) {
                o.alpha = true;
            } else if (is(a, "limit") && left >= 2) {
                o.limitStart = RedisNumbers.parseLong(argv[j + 1], Errors.NOT_INTEGER);
                o.limitCount = RedisNumbers.parseLong(argv[j + 2], Errors.NOT_INTEGER);
                j += 2;
            } else if (!readonly && is(a, "store") && left >= 1) {
                o.storeAt = j + 1;
                j++;
            } else if (is(a, "by") && left >= 1) {
                o.sortBy = argv[j + 1];
                if (indexOf(o.sortBy, (byte) '*', 0, cLength(o.sortBy)) < 0) {
                    o.dontSort = true;
                }
                j++;
            } else if (is(a, "get") && left >= 1) {
                o.gets.add(argv[j + 1]);
                j++;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        return o;
    }

    private static boolean is(byte[] a, String lower) {
        return Bytes.equalsIgnoreCase(a, lower);
    }

    private static void sort(Call c, boolean readonly) {
        Options o = parse(c.argv(), readonly);
        byte[] store = o.storeAt < 0 ? null : c.arg(o.storeAt);
        Object value = c.value(c.arg(1));
        if (store == null) {
            c.engine().countLookup(value != null);
        }
        if (value != null && !(value instanceof ListValue) && !(value instanceof SetValue)
                && !(value instanceof ZSetValue)) {
            throw Call.fail(Errors.WRONGTYPE);
        }
        boolean dontSort = o.dontSort;
        boolean alpha = o.alpha;
        byte[] sortBy = o.sortBy;
        if (dontSort && value instanceof SetValue && store != null) {
            dontSort = false;
            alpha = true;
            sortBy = null;
        }
        if (value instanceof ZSetValue z) {
            z.convertToSkiplist();
        }
        int len = value == null ? 0 : ((RedisValue) value).size();
        long start = Math.min(Math.max(o.limitStart, 0), len);
        long count = Math.min(Math.max(o.limitCount, -1), len);
        long end = count < 0 ? len - 1 : start + count - 1;
        if (start >= len) {
            start = len - 1;
            end = len - 2;
        }
        if (end >= len) {
            end = len - 1;
        }
        List<Item> items;
        if (dontSort && (value instanceof ListValue || value instanceof ZSetValue)) {
            items = orderedRange(value, start, end, o.desc);
            end -= start;
            start = 0;
        } else {
            items = all(value);
        }
        if (!dontSort) {
            boolean bad = weigh(c, items, sortBy, alpha, store == null);
            if (bad) {
                throw Call.fail(NOT_DOUBLE);
            }
            items.sort(comparator(alpha, sortBy != null, store != null, o.desc));
        }
        if (store == null) {
            reply(c, items, start, end, o.gets);
        } else {
            store(c, store, items, start, end, o.gets);
        }
    }

    /** Positions {@code [start, end]} of a list or sorted set in its order (reversed when desc). */
    private static List<Item> orderedRange(Object value, long start, long end, boolean desc) {
        List<Item> items = new ArrayList<>();
        if (end < start) {
            return items;
        }
        if (value instanceof ListValue l) {
            int n = l.size();
            for (long i = start; i <= end; i++) {
                items.add(new Item(l.get((int) (desc ? n - 1 - i : i))));
            }
            return items;
        }
        SkipList list = ((ZSetValue) value).list();
        SkipList.Node node = desc ? list.byRank(list.length() - 1 - start) : list.byRank(start);
        for (long i = start; i <= end && node != null; i++) {
            items.add(new Item(node.member()));
            node = desc ? node.prev() : node.next();
        }
        return items;
    }

    /** Every element: list order, set table order, sorted-set table order (Redis iterates the zset's dict). */
    private static List<Item> all(Object value) {
        List<Item> items = new ArrayList<>();
        if (value instanceof ListValue l) {
            l.forEach(e -> items.add(new Item(e)));
        } else if (value instanceof SetValue s) {
            s.forEach(e -> items.add(new Item(e)));
        } else if (value instanceof ZSetValue z) {
            z.dict().forEach(n -> items.add(new Item(n.key())));
        }
        return items;
    }

    /**
     * Fills each item's sort key: a weight (numeric) or the BY value (ALPHA with BY). Returns true when some
     * weight is not a number. Every lookup runs even after a bad weight, as in Redis (they may expire keys).
     */
    private static boolean weigh(Call c, List<Item> items, byte[] sortBy, boolean alpha, boolean countLookups) {
        boolean bad = false;
        for (Item it : items) {
            byte[] by = it.element;
            if (sortBy != null) {
                by = lookup(c, sortBy, it.element, countLookups);
                if (by == null) {
                    continue;
                }
            }
            if (alpha) {
                if (sortBy != null) {
                    it.cmp = by;
                }
            } else {
                double d = Strtod.parseSortWeight(by);
                if (Double.isNaN(d)) {
                    bad = true;
                } else {
                    it.score = d;
                }
            }
        }
        return bad;
    }

    /** Redis's {@code sortCompare} for the options in effect. */
    private static Comparator<Item> comparator(boolean alpha, boolean byPattern, boolean storing, boolean desc) {
        Comparator<byte[]> strings = storing ? Arrays::compareUnsigned : SortCommands::compareCStrings;
        Comparator<Item> cmp;
        if (!alpha) {
            cmp = (a, b) -> a.score > b.score ? 1 : a.score < b.score ? -1
                    : Arrays.compareUnsigned(a.element, b.element);
        } else if (byPattern) {
            cmp = (a, b) -> a.cmp == null || b.cmp == null ? (a.cmp == b.cmp ? 0 : a.cmp == null ? -1 : 1)
                    : strings.compare(a.cmp, b.cmp);
        } else {
            cmp = (a, b) -> strings.compare(a.element, b.element);
        }
        return desc ? cmp.reversed() : cmp;
    }

    /** strcmp: unsigned bytes up to the first NUL of each (strcoll in the C and C.UTF-8 locales). */
    static int compareCStrings(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, cLength(a), b, 0, cLength(b));
    }

    private static void reply(Call c, List<Item> items, long start, long end, List<byte[]> gets) {
        long n = end - start + 1;
        ReplySink r = c.reply();
        r.array((int) (gets.isEmpty() ? n : gets.size() * n));
        for (long j = start; j <= end; j++) {
            byte[] e = items.get((int) j).element;
            if (gets.isEmpty()) {
                r.bulk(e);
            }
            for (byte[] g : gets) {
                r.bulkOrNull(lookup(c, g, e, true));
            }
        }
    }

    /** STORE: the result as a list at dst (replacing any value and TTL), or dst deleted when it is empty. */
    private static void store(Call c, byte[] dst, List<Item> items, long start, long end, List<byte[]> gets) {
        ListValue list = new ListValue();
        for (long j = start; j <= end; j++) {
            byte[] e = items.get((int) j).element;
            if (gets.isEmpty()) {
                list.pushRight(e);
            }
            for (byte[] g : gets) {
                byte[] v = lookup(c, g, e, false);
                list.pushRight(v == null ? Bytes.EMPTY : v);
            }
        }
        if (list.isEmpty()) {
            if (c.value(dst) != null) {
                c.db(dst).remove(dst);
                c.emit(Verbs.DEL, dst);
            }
            c.reply().integer(0);
            return;
        }
        c.db(dst).put(dst, list, false);
        c.emit(Verbs.DEL, dst);
        list.rebuild(dst, c::emit);
        c.reply().integer(list.size());
    }

    /**
     * True when {@code pattern} makes {@link #lookup} read a key: it is not {@code #} and has a {@code *} (both
     * read as a C string, as Redis does).
     */
    static boolean readsKeys(byte[] pattern) {
        int n = cLength(pattern);
        return !(n == 1 && pattern[0] == '#') && indexOf(pattern, (byte) '*', 0, n) >= 0;
    }

    /**
     * Redis's {@code lookupKeyByPattern}: {@code #} is the element itself; otherwise the first {@code *} is
     * replaced by the element and the key read: a string's value, or with {@code ->field} after the {@code *}
     * that field of a hash. Null for a pattern without {@code *}, a missing key or field, or another type.
     */
    static byte[] lookup(Call c, byte[] pattern, byte[] element, boolean countLookup) {
        int n = cLength(pattern);
        if (n == 1 && pattern[0] == '#') {
            return element;
        }
        int star = indexOf(pattern, (byte) '*', 0, n);
        if (star < 0) {
            return null;
        }
        int arrow = -1;
        for (int i = star + 1; i + 1 < n; i++) {
            if (pattern[i] == '-' && pattern[i + 1] == '>') {
                arrow = i;
                break;
            }
        }
        byte[] field = null;
        int fieldLen = 0;
        if (arrow >= 0 && arrow + 2 < n) {
            fieldLen = pattern.length - arrow - 2;
            field = Arrays.copyOfRange(pattern, arrow + 2, pattern.length);
        }
        int postfix = pattern.length - (star + 1) - (fieldLen > 0 ? fieldLen + 2 : 0);
        byte[] key = new byte[star + element.length + postfix];
        System.arraycopy(pattern, 0, key, 0, star);
        System.arraycopy(element, 0, key, star, element.length);
        System.arraycopy(pattern, star + 1, key, star + element.length, postfix);
        Object v = c.value(key);
        if (countLookup) {
            c.engine().countLookup(v != null);
        }
        if (field != null) {
            return v instanceof HashValue h ? h.get(field) : null;
        }
        return v instanceof byte[] b ? b : null;
    }

    /** The length of {@code b} as a C string: up to its first NUL. */
    private static int cLength(byte[] b) {
        int i = indexOf(b, (byte) 0, 0, b.length);
        return i < 0 ? b.length : i;
    }

    private static int indexOf(byte[] b, byte x, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
