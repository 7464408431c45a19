package io.kevy.engine.command;

import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What COMMAND INFO and COMMAND DOCS say about a {@link CommandSpec}, in Redis 7.0's reply shapes. The table
 * states name, arity, flags, key positions, group, summary, since, complexity and (optionally) ACL categories,
 * key-spec flags and tips; the rest is derived here the way Redis derives it:
 *
 * <ul>
 *   <li>ACL categories: the explicit ones, or the group's ({@code hash} → {@code @hash}, {@code generic} →
 *       {@code @keyspace}, ...; none for {@code server} and for containers), plus those implied by the flags
 *       (Redis's {@code setImplicitACLCategories}: write, read, admin + dangerous, pubsub, fast or slow,
 *       blocking), printed in Redis's category order.</li>
 *   <li>Key specs: one {@code index}/{@code range} spec from first/last/step, with the explicit key-spec flags or
 *       {@code RO access} (read-only) / {@code RW update} (write), and the spec's notes when stated; or two
 *       when the keys after the first have flags of their own (PFMERGE: the destination, then the sources).</li>
 *   <li>Flags: Redis's names in Redis's order; {@code may_replicate} and kevy's locking flags are not shown.</li>
 * </ul>
 *
 * <p>Thread-safe (static, stateless).
 */
final class CommandMetadata {
    /** Redis 7.0's ACL categories in the order COMMAND prints them. */
    static final List<String> CATEGORY_ORDER = List.of("keyspace", "read", "write", "set", "sortedset", "list",
            "hash", "string", "bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow",
            "blocking", "dangerous", "connection", "transaction", "scripting");

    private static final Map<String, String> GROUP_CATEGORY = Map.ofEntries(
            Map.entry("generic", "keyspace"), Map.entry("string", "string"), Map.entry("hash", "hash"),
            Map.entry("list", "list"), Map.entry("set", "set"), Map.entry("sorted-set", "sortedset"),
            Map.entry("sorted_set", "sortedset"), Map.entry("zset", "sortedset"), Map.entry("bitmap", "bitmap"),
            Map.entry("hyperloglog", "hyperloglog"), Map.entry("geo", "geo"), Map.entry("stream", "stream"),
            Map.entry("pubsub", "pubsub"), Map.entry("connection", "connection"),
            Map.entry("transactions", "transaction"), Map.entry("scripting", "scripting"));

    private CommandMetadata() {
    }

    /** The ACL categories of {@code s} (lower case, without {@code @}), in Redis's order. */
    static List<String> aclCategories(CommandSpec s) {
        List<String> cats = new ArrayList<>();
        if (s.acl() != null) {
            cats.addAll(s.acl());
        } else if (!s.isContainer() && GROUP_CATEGORY.containsKey(s.group())) {
            cats.add(GROUP_CATEGORY.get(s.group()));
        }
        if (s.has(CommandFlag.WRITE)) {
            cats.add("write");
        }
        if (s.has(CommandFlag.READONLY) && !cats.contains("scripting")) {
            cats.add("read");
        }
        if (s.has(CommandFlag.ADMIN)) {
            cats.add("admin");
            cats.add("dangerous");
        }
        if (s.has(CommandFlag.PUBSUB)) {
            cats.add("pubsub");
        }
        if (s.has(CommandFlag.FAST)) {
            cats.add("fast");
        }
        if (s.has(CommandFlag.BLOCKING)) {
            cats.add("blocking");
        }
        if (!cats.contains("fast")) {
            cats.add("slow");
        }
        List<String> ordered = new ArrayList<>();
        for (String c : CATEGORY_ORDER) {
            if (cats.contains(c)) {
                ordered.add(c);
            }
        }
        for (String c : cats) {
            if (!ordered.contains(c)) {
                ordered.add(c);
            }
        }
        return ordered;
    }

    /** The key-spec flags of {@code s}'s keys ({@code RO access} / {@code RW update} unless stated). */
    static List<String> keyFlags(CommandSpec s) {
        if (s.keyFlags() != null) {
            return s.keyFlags();
        }
        return s.has(CommandFlag.WRITE) ? List.of("RW", "update") : List.of("RO", "access");
    }

    /** The flags COMMAND shows, in Redis's order. */
    static List<String> flags(CommandSpec s) {
        List<String> out = new ArrayList<>();
        for (CommandFlag f : s.flags()) {
            String n = f.redisName();
            if (n != null && f != CommandFlag.MAY_REPLICATE) {
                out.add(n);
            }
        }
        return out;
    }

    /** One COMMAND INFO entry: {@code *10 [name, arity, flags, first, last, step, acl, tips, key specs, subs]}. */
    static void writeInfo(ReplySink r, CommandSpec s) {
        r.array(10);
        r.bulk(s.name());
        r.integer(s.arity());
        List<String> flags = flags(s);
        r.set(flags.size());
        flags.forEach(r::simple);
        r.integer(s.firstKey());
        r.integer(s.lastKey());
        r.integer(s.step());
        List<String> cats = aclCategories(s);
        r.set(cats.size());
        cats.forEach(c -> r.simple("@" + c));
        r.set(s.tips().size());
        s.tips().forEach(r::bulk);
        if (s.keynumIndex() > 0) {
            r.set(1);
            writeKeynumSpec(r, keyFlags(s), s.keyNotes(), s.keynumIndex());
        } else if (s.firstKey() > 0 && s.sourceKeyFlags() != null) {
            r.set(2);
            writeKeySpec(r, keyFlags(s), s.keyNotes(), s.firstKey(), 0, s.step());
            writeKeySpec(r, s.sourceKeyFlags(), null, s.firstKey() + 1,
                    s.lastKey() >= 0 ? s.lastKey() - s.firstKey() - 1 : s.lastKey(), s.step());
        } else if (s.firstKey() > 0) {
            r.set(1 + s.keywordKeys().size());
            writeKeySpec(r, keyFlags(s), s.keyNotes(), s.firstKey(),
                    s.lastKey() >= 0 ? s.lastKey() - s.firstKey() : s.lastKey(), s.step());
            for (String keyword : s.keywordKeys()) { // the key after each keyword: GEORADIUS's STORE
                writeKeywordSpec(r, List.of("OW", "update"), keyword, s.keywordKeysFrom(), 0, 1, 0);
            }
        } else if (s.keyword() != null) { // half the arguments after the keyword: XREAD's STREAMS
            r.set(1);
            writeKeywordSpec(r, keyFlags(s), s.keyword(), s.keywordFrom(), -1, 1, 2);
        } else {
            r.set(0);
        }
        if (s.subcommands().isEmpty()) {
            r.set(0); // Redis's addReplyCommandSubCommands: an empty set, a non-empty array
        } else {
            r.array(s.subcommands().size());
        }
        for (CommandSpec sub : s.subcommands().values()) {
            writeInfo(r, sub);
        }
    }

    /**
     * A keyword key spec: flags, a {@code keyword} begin_search from argument {@code from}, then a range find_keys
     * ({@code lastkey}, {@code keystep}, {@code limit} as Redis's key-spec fields).
     */
    private static void writeKeywordSpec(ReplySink r, List<String> kf, String keyword, int from, int lastKey,
            int step, int limit) {
        r.map(3);
        r.bulk("flags");
        r.set(kf.size());
        kf.forEach(r::simple);
        r.bulk("begin_search");
        r.map(2);
        r.bulk("type");
        r.bulk("keyword");
        r.bulk("spec");
        r.map(2);
        r.bulk("keyword");
        r.bulk(keyword);
        r.bulk("startfrom");
        r.integer(from);
        writeRangeFindKeys(r, lastKey, step, limit);
    }

    /** A range find_keys: Redis's {@code lastkey}, {@code keystep} and {@code limit}. */
    private static void writeRangeFindKeys(ReplySink r, int lastKey, int step, int limit) {
        r.bulk("find_keys");
        r.map(2);
        r.bulk("type");
        r.bulk("range");
        r.bulk("spec");
        r.map(3);
        r.bulk("lastkey");
        r.integer(lastKey);
        r.bulk("keystep");
        r.integer(step);
        r.bulk("limit");
        r.integer(limit);
    }

    /** One key spec: [notes], flags, an index begin_search at {@code index}, a range find_keys. */
    private static void writeKeySpec(ReplySink r, List<String> kf, String notes, int index, int lastKey, int step) {
        r.map(notes != null ? 4 : 3);
        if (notes != null) {
            r.bulk("notes");
            r.bulk(notes);
        }
        r.bulk("flags");
        r.set(kf.size());
        kf.forEach(r::simple);
        r.bulk("begin_search");
        r.map(2);
        r.bulk("type");
        r.bulk("index");
        r.bulk("spec");
        r.map(1);
        r.bulk("index");
        r.integer(index);
        writeRangeFindKeys(r, lastKey, step, 0);
    }

    /** A {@code keynum} key spec: the count at {@code index}, the keys after it, one by one (EVAL's). */
    private static void writeKeynumSpec(ReplySink r, List<String> kf, String notes, int index) {
        r.map(notes != null ? 4 : 3);
        if (notes != null) {
            r.bulk("notes");
            r.bulk(notes);
        }
        r.bulk("flags");
        r.set(kf.size());
        kf.forEach(r::simple);
        r.bulk("begin_search");
        r.map(2);
        r.bulk("type");
        r.bulk("index");
        r.bulk("spec");
        r.map(1);
        r.bulk("index");
        r.integer(index);
        r.bulk("find_keys");
        r.map(2);
        r.bulk("type");
        r.bulk("keynum");
        r.bulk("spec");
        r.map(3);
        r.bulk("keynumidx");
        r.integer(0);
        r.bulk("firstkey");
        r.integer(1);
        r.bulk("keystep");
        r.integer(1);
    }

    /** One COMMAND DOCS map: summary, since, group, complexity (when known), subcommands (when any). */
    static void writeDocs(ReplySink r, CommandSpec s) {
        int fields = 3 + (s.complexity() != null ? 1 : 0) + (s.isContainer() ? 1 : 0);
        r.map(fields);
        r.bulk("summary");
        r.bulk(s.summary());
        r.bulk("since");
        r.bulk(s.since());
        r.bulk("group");
        r.bulk(s.group());
        if (s.complexity() != null) {
            r.bulk("complexity");
            r.bulk(s.complexity());
        }
        if (s.isContainer()) {
            r.bulk("subcommands");
            r.map(s.subcommands().size());
            for (CommandSpec sub : s.subcommands().values()) {
                r.bulk(sub.name());
                writeDocs(r, sub);
            }
        }
    }
}
