package io.kevy.engine.command;

import io.kevy.resp.KeyShape;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One entry of the {@link CommandTable}: name, arity, flags, key positions, handler and documentation. The
 * single source that dispatch, MULTI queueing, COMMAND, the PREFIX filter and the docs read.
 *
 * <p>Arity follows Redis: positive means exactly that many arguments including the name, negative means at
 * least {@code -arity}. Key positions follow Redis's legacy key spec (first, last, step; last -1 = to the end,
 * -2 = all but the last), or a {@link KeyFinder} for movable keys.
 *
 * <p>Immutable; thread-safe. Statistics live per engine in {@link CommandStats}.
 */
public final class CommandSpec {
    /** How the dispatcher locks shards around the handler. */
    public enum LockScope {
        /** The shards of the command's keys, ascending. */
        KEYS,
        /** Every shard. */
        ALL,
        /** None; the handler locks what it needs. */
        NONE
    }

    private final String name;
    private final int arity;
    private final Set<CommandFlag> flags;
    /** {@link #flags} as a bit set by ordinal, and the answers the dispatcher asks per command, precomputed. */
    private final long flagBits;
    private final boolean write;
    private final boolean hasSubcommands;
    private final LockScope lockScope;
    private final int firstKey;
    private final int lastKey;
    private final KeyShape keyShape;
    private final int step;
    private final KeyFinder keyFinder;
    private final int keynumIndex;
    private final CommandHandler handler;
    private final String group;
    private final String summary;
    private final String since;
    private final String container;
    private final java.util.List<String> acl;
    private final java.util.List<String> keyFlags;
    private final String keyNotes;
    private final String keyword;
    private final int keywordFrom;
    private final java.util.List<String> sourceKeyFlags;
    private final java.util.List<String> tips;
    private final java.util.List<String> keywordKeys;
    private final int keywordKeysFrom;
    private final String complexity;
    private final Map<String, CommandSpec> subcommands;

    private CommandSpec(Builder b, String container) {
        this.name = container == null ? b.name : container + "|" + b.name;
        this.arity = b.arity;
        this.flags = Collections.unmodifiableSet(b.flags);
        long bits = 0;
        for (CommandFlag f : b.flags) {
            bits |= 1L << f.ordinal();
        }
        this.flagBits = bits;
        this.write = b.flags.contains(CommandFlag.WRITE);
        this.firstKey = b.firstKey;
        this.lastKey = b.lastKey;
        this.step = b.step;
        this.keyFinder = b.keyFinder;
        this.keynumIndex = b.keynumIndex;
        this.keyShape = b.keyFinder == null ? new KeyShape(b.firstKey, b.lastKey, b.step) : null;
        this.handler = b.handler;
        this.group = b.group;
        this.summary = b.summary;
        this.since = b.since;
        this.container = container;
        this.acl = b.acl;
        this.keyFlags = b.keyFlags;
        this.keyNotes = b.keyNotes;
        this.keyword = b.keyword;
        this.keywordFrom = b.keywordFrom;
        this.sourceKeyFlags = b.sourceKeyFlags;
        this.tips = b.tips;
        this.keywordKeys = b.keywordKeys;
        this.keywordKeysFrom = b.keywordKeysFrom;
        this.complexity = b.complexity;
        Map<String, CommandSpec> subs = new LinkedHashMap<>();
        for (Builder sb : b.subcommands) {
            if (sb.group == null) {
                sb.group = b.group;
            }
            subs.put(sb.name, new CommandSpec(sb, b.name));
        }
        this.subcommands = Collections.unmodifiableMap(subs);
        this.hasSubcommands = !subs.isEmpty();
        this.lockScope = b.flags.contains(CommandFlag.ALL_SHARDS) ? LockScope.ALL
                : b.flags.contains(CommandFlag.NO_LOCK) || (firstKey == 0 && keyFinder == null) ? LockScope.NONE
                : LockScope.KEYS;
        if (handler == null && subcommands.isEmpty()) {
            throw new IllegalArgumentException("command " + name + " has no handler");
        }
        if (summary == null || summary.isBlank()) {
            throw new IllegalArgumentException("command " + name + " has no summary");
        }
        if (flags.contains(CommandFlag.WRITE) == flags.contains(CommandFlag.READONLY) && firstKey > 0
                && !(keyFlags != null && !flags.contains(CommandFlag.WRITE))) {
            // WATCH names keys but neither reads nor writes them: it states its key-spec flags instead
            throw new IllegalArgumentException("command " + name + " with keys must be exactly one of write/readonly"
                    + " (or, neither, state its key-spec flags)");
        }
    }

    /** Starts a command named {@code name} (lower case) with {@code arity}. */
    public static Builder command(String name, int arity) {
        return new Builder(name.toLowerCase(Locale.ROOT), arity);
    }

    /** Full name: {@code "get"}, or {@code "client|setname"} for a subcommand. */
    public String name() {
        return name;
    }

    public int arity() {
        return arity;
    }

    public Set<CommandFlag> flags() {
        return flags;
    }

    public boolean has(CommandFlag f) {
        return (flagBits & (1L << f.ordinal())) != 0;
    }

    public boolean isWrite() {
        return write;
    }

    public int firstKey() {
        return firstKey;
    }

    public int lastKey() {
        return lastKey;
    }

    public int step() {
        return step;
    }

    /** The finder for movable keys, or null when the first/last/step range says it all. */
    public KeyFinder keyFinder() {
        return keyFinder;
    }

    /**
     * The argument index of the key count when COMMAND INFO describes the keys by a {@code keynum} key spec
     * (EVAL: {@code numkeys} at 2, the keys after it), else 0.
     */
    public int keynumIndex() {
        return keynumIndex;
    }

    /** The handler, or null for a container (CLIENT, CONFIG, ...) whose subcommands have handlers. */
    public CommandHandler handler() {
        return handler;
    }

    public String group() {
        return group;
    }

    public String summary() {
        return summary;
    }

    public String since() {
        return since;
    }

    /**
     * The ACL categories named explicitly (lower case, without {@code @}: {@code "keyspace"}), or null when COMMAND
     * derives them from the group; the ones implied by the flags (read, write, fast, slow, admin, ...) are always
     * added by COMMAND.
     */
    public java.util.List<String> acl() {
        return acl;
    }

    /** The key-spec flags COMMAND reports ({@code "RW", "update"}), or null to derive them from the flags. */
    public java.util.List<String> keyFlags() {
        return keyFlags;
    }

    /**
     * The keyword after which a movable-key command's keys follow (XREAD's {@code STREAMS}), for its key spec's
     * {@code keyword} begin_search; null when the key spec is not a keyword search.
     */
    public String keyword() {
        return keyword;
    }

    /** Where the search for {@link #keyword()} starts (Redis's {@code startfrom}). */
    public int keywordFrom() {
        return keywordFrom;
    }

    /** The notes of the (first) key spec COMMAND INFO shows, or null (Redis's {@code key_specs[].notes}). */
    public String keyNotes() {
        return keyNotes;
    }

    /**
     * The key-spec flags of the keys after the first when they form a second key spec (PFMERGE's sources), or
     * null when every key shares {@link #keyFlags()}.
     */
    public java.util.List<String> sourceKeyFlags() {
        return sourceKeyFlags;
    }

    /** COMMAND's tips ({@code "nondeterministic_output"}, ...); empty when none. */
    public java.util.List<String> tips() {
        return tips;
    }

    /**
     * The keywords of the keyword key specs (GEORADIUS's {@code STORE}, {@code STOREDIST}: the key after the
     * keyword, flags {@code OW update}), searched from {@link #keywordKeysFrom()}; empty when none.
     */
    public java.util.List<String> keywordKeys() {
        return keywordKeys;
    }

    /** The argument the keyword key specs start their search from. */
    public int keywordKeysFrom() {
        return keywordKeysFrom;
    }

    /** The time complexity COMMAND DOCS reports, or null. */
    public String complexity() {
        return complexity;
    }

    /** The container's name for a subcommand, else null. */
    public String container() {
        return container;
    }

    public Map<String, CommandSpec> subcommands() {
        return subcommands;
    }

    public boolean isContainer() {
        return hasSubcommands;
    }

    /** True when {@code argc} arguments (name included) satisfy the arity. */
    public boolean arityOk(int argc) {
        return arity >= 0 ? argc == arity : argc >= -arity;
    }

    /**
     * The key positions as a {@link KeyShape} (first, last, step), or null when a key finder decides them from
     * the arguments (movable keys).
     */
    public KeyShape keyShape() {
        return keyShape;
    }

    public LockScope lockScope() {
        return lockScope;
    }

    /**
     * The argument index of the command's only key when its key spec names exactly one fixed position (GET,
     * SET, INCR...: first = last, no key finder), else -1. Present in {@code argv} only when {@code argv} is
     * longer than it (otherwise {@link #keyPositions} is empty).
     */
    public int singleKey() {
        return keyFinder == null && firstKey > 0 && lastKey == firstKey ? firstKey : -1;
    }

    /**
     * The argument indexes of the keys in {@code argv}; empty when none; null when they cannot be determined
     * (malformed movable keys).
     */
    public int[] keyPositions(byte[][] argv) {
        if (keyFinder != null) {
            return keyFinder.keyPositions(argv);
        }
        if (firstKey == 0) {
            return new int[0];
        }
        int last = lastKey >= 0 ? lastKey : argv.length + lastKey;
        if (last >= argv.length) {
            last = argv.length - 1;
        }
        if (last < firstKey) {
            return new int[0];
        }
        int n = (last - firstKey) / step + 1;
        int[] pos = new int[n];
        for (int i = 0; i < n; i++) {
            pos[i] = firstKey + i * step;
        }
        return pos;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Builds a {@link CommandSpec}; every setting defaults to "none". */
    public static final class Builder {
        private final String name;
        private final int arity;
        private final EnumSet<CommandFlag> flags = EnumSet.noneOf(CommandFlag.class);
        private int firstKey;
        private int lastKey;
        private int step;
        private KeyFinder keyFinder;
        private int keynumIndex;
        private CommandHandler handler;
        private String group;
        private String summary;
        private String since = "1.0.0";
        private java.util.List<String> acl;
        private java.util.List<String> keyFlags;
        private String keyNotes;
        private String keyword;
        private int keywordFrom;
        private java.util.List<String> sourceKeyFlags;
        private java.util.List<String> tips = java.util.List.of();
        private java.util.List<String> keywordKeys = java.util.List.of();
        private int keywordKeysFrom;
        private String complexity;
        private final java.util.List<Builder> subcommands = new java.util.ArrayList<>();

        private Builder(String name, int arity) {
            this.name = name;
            this.arity = arity;
        }

        public Builder flags(CommandFlag... fs) {
            flags.addAll(java.util.List.of(fs));
            return this;
        }

        /** Keys at {@code first..last} every {@code step} (last -1 = to the end). */
        public Builder keys(int first, int last, int step) {
            this.firstKey = first;
            this.lastKey = last;
            this.step = step;
            return this;
        }

        /** Movable keys: {@code finder} locates them; {@code first/last/step} is what COMMAND reports. */
        public Builder keys(int first, int last, int step, KeyFinder finder) {
            keys(first, last, step);
            this.keyFinder = finder;
            this.flags.add(CommandFlag.MOVABLEKEYS);
            return this;
        }

        /**
         * COMMAND INFO describes the keys as Redis's {@code keynum} key spec: the key count at argument
         * {@code index}, the keys right after it (EVAL, FCALL).
         */
        public Builder keynum(int index) {
            this.keynumIndex = index;
            return this;
        }

        public Builder handler(CommandHandler handler) {
            this.handler = handler;
            return this;
        }

        /** Redis's command group: {@code string}, {@code generic}, {@code hash}, {@code server}, ... */
        public Builder group(String group) {
            this.group = group;
            return this;
        }

        /** One line of documentation (COMMAND DOCS, docs/commands.md). */
        public Builder summary(String summary) {
            this.summary = summary;
            return this;
        }

        /**
         * Explicit ACL categories, lower case without {@code @} (as Redis's command JSON {@code acl_categories}),
         * replacing the one derived from the group; the flag-implied categories are added anyway.
         */
        public Builder acl(String... categories) {
            this.acl = java.util.List.of(categories);
            return this;
        }

        /** The key-spec flags COMMAND reports for the keys, as Redis's ({@code "RW", "access", "update"}). */
        public Builder keyFlags(String... flags) {
            this.keyFlags = java.util.List.of(flags);
            return this;
        }

        /**
         * The key spec is Redis's {@code keyword} search: {@code keyword} from argument {@code from}, then a range
         * of half the remaining arguments (XREAD's and XREADGROUP's {@code STREAMS key ... id ...}).
         */
        public Builder keywordSearch(String keyword, int from) {
            this.keyword = keyword;
            this.keywordFrom = from;
            return this;
        }

        /** The notes Redis's key spec carries (COMMAND INFO shows them first in the spec). */
        public Builder keyNotes(String notes) {
            this.keyNotes = notes;
            return this;
        }

        /**
         * The keys after the first are a second key spec with these flags, as Redis's PFMERGE ({@code destkey}
         * then {@code sourcekey...}); {@link #keyFlags} are then the first key's.
         */
        public Builder sourceKeyFlags(String... flags) {
            this.sourceKeyFlags = java.util.List.of(flags);
            return this;
        }

        /** COMMAND's tips, as Redis's ({@code "nondeterministic_output"}, {@code "request_policy:all_shards"}). */
        public Builder tips(String... tips) {
            this.tips = java.util.List.of(tips);
            return this;
        }

        /**
         * Keyword key specs after the index one, as Redis's GEORADIUS: for each keyword, the key following it,
         * searched from argument {@code startFrom}, flags {@code OW update} (COMMAND INFO only; the keys
         * themselves are found by the {@link KeyFinder}).
         */
        public Builder keywordKeys(int startFrom, String... keywords) {
            this.keywordKeysFrom = startFrom;
            this.keywordKeys = java.util.List.of(keywords);
            return this;
        }

        /** The time complexity for COMMAND DOCS ({@code "O(1)"}). */
        public Builder complexity(String complexity) {
            this.complexity = complexity;
            return this;
        }

        public Builder since(String since) {
            this.since = since;
            return this;
        }

        /** Adds a subcommand (its name without the container prefix). */
        public Builder subcommand(Builder sub) {
            subcommands.add(sub);
            return this;
        }

        public CommandSpec build() {
            if (group == null) {
                throw new IllegalArgumentException("command " + name + " has no group");
            }
            return new CommandSpec(this, null);
        }
    }
}
