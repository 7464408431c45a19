package io.kevy.script;

import io.kevy.engine.ServerState;
import io.kevy.engine.dump.DumpDecoder;
import io.kevy.engine.dump.DumpEncoder;
import io.kevy.engine.dump.DumpFormatException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One instance's FUNCTION libraries (Redis 7.0's {@code functionsLibCtx}): libraries by name (case-sensitive),
 * functions by name (case-insensitive, across every library), loaded, deleted, flushed and restored with
 * Redis's rules and error texts ({@code functionsCreateWithLibraryCtx}, {@code libraryJoin}); and the
 * {@link ServerState} that persists them: one {@code FUNCTION LOAD REPLACE <code>} frame per library.
 *
 * <p>Each change returns the <b>effect frames</b> that turn the old set into the new one on a mirror or at
 * replay: {@code FUNCTION LOAD REPLACE <code>} for one new or changed library, {@code FUNCTION FLUSH} when none
 * is left of several, else {@code FUNCTION DELETE <name>} for each removed or changed library followed by one
 * {@code FUNCTION LOAD REPLACE <code>} per new or changed one (so that no intermediate step can collide on a
 * function name). A change that fails changes nothing and has no frame.
 *
 * <p>Thread-safe: the set is an immutable value behind a volatile reference, read without locks (FCALL, FUNCTION
 * LIST, DUMP, STATS); changes are serialised (they also hold every shard's lock, as their commands are
 * all-shards ones, so that the frames are appended in the same critical section as the change).
 */
public final class Functions implements ServerState {
    static final String BAD_NAME = "Library names can only contain letters, numbers, or underscores(_) and must "
            + "be at least one character long";
    private static final byte[] FUNCTION = bytes("FUNCTION");
    private static final byte[] LOAD = bytes("LOAD");
    private static final byte[] REPLACE = bytes("REPLACE");
    private static final byte[] DELETE = bytes("DELETE");
    private static final byte[] FLUSH = bytes("FLUSH");

    /** The libraries in load order and the functions by lower-case name. */
    private record State(Map<String, Library> libraries, Map<String, LibraryFunction> functions) {
        static final State EMPTY = new State(Map.of(), Map.of());

        int functionCount() {
            return functions.size();
        }
    }

    /** How FUNCTION RESTORE treats the libraries already loaded. */
    enum RestorePolicy {
        /** Add the payload's libraries; a library name already loaded fails the restore. */
        APPEND,
        /** Add them, replacing loaded libraries of the same name. */
        REPLACE,
        /** Drop every loaded library first. */
        FLUSH
    }

    private final Scripts scripts;
    private final LibraryLoader loader;
    private volatile State state = State.EMPTY;

    /** The libraries of {@code scripts}' runner (they run on its functions' Lua state). */
    public Functions(Scripts scripts) {
        this.scripts = scripts;
        this.loader = scripts.withFunctionState(LibraryLoader::new);
    }

    Scripts scripts() {
        return scripts;
    }

    /** The function named {@code name} (any case), or null. */
    LibraryFunction function(byte[] name) {
        return state.functions.get(new String(name, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT));
    }

    /** The libraries, in load order. */
    Collection<Library> libraries() {
        return state.libraries.values();
    }

    int functionCount() {
        return state.functionCount();
    }

    /**
     * FUNCTION LOAD: loads the library {@code code} (shebang included) and returns its name with the effect
     * frames.
     *
     * @param timeoutMs the load's time limit, 0 for none (the primary's link and boot replay)
     * @throws IllegalArgumentException with Redis's error text after {@code ERR }
     */
    synchronized Change load(byte[] code, boolean replace, long timeoutMs) {
        State old = state;
        Created created = create(old, code, replace, timeoutMs);
        state = created.state;
        return new Change(created.name, effects(old, created.state));
    }

    /** FUNCTION DELETE. @throws IllegalArgumentException {@code Library not found} */
    synchronized Change delete(String name) {
        State old = state;
        if (!old.libraries.containsKey(name)) {
            throw new IllegalArgumentException("Library not found");
        }
        Map<String, Library> libs = new LinkedHashMap<>(old.libraries);
        libs.remove(name);
        state = of(libs);
        return new Change(name, effects(old, state));
    }

    /** FUNCTION FLUSH: the effect frames (none when there was nothing to flush). */
    synchronized Change flush() {
        State old = state;
        state = State.EMPTY;
        return new Change(null, effects(old, state));
    }

    /**
     * FUNCTION RESTORE of a FUNCTION DUMP payload whose footer the caller verified ({@link DumpDecoder#verify}).
     *
     * @throws IllegalArgumentException with Redis's error text after {@code ERR }
     */
    synchronized Change restore(byte[] payload, RestorePolicy policy) {
        List<byte[]> codes;
        try {
            codes = DumpDecoder.functions(payload);
        } catch (DumpFormatException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        State loaded = State.EMPTY;
        for (byte[] code : codes) {
            loaded = create(loaded, code, false, 0).state;
        }
        State old = state;
        State next;
        if (policy == RestorePolicy.FLUSH) {
            next = loaded;
        } else {
            Map<String, Library> libs = new LinkedHashMap<>(old.libraries);
            for (Library l : loaded.libraries.values()) {
                if (libs.containsKey(l.name())) {
                    if (policy != RestorePolicy.REPLACE) {
                        throw new IllegalArgumentException("Library " + l.name() + " already exists");
                    }
                    libs.remove(l.name());
                }
            }
            Map<String, LibraryFunction> remaining = of(libs).functions;
            for (String f : loaded.functions.keySet()) {
                if (remaining.containsKey(f)) {
                    throw new IllegalArgumentException("Function " + loaded.functions.get(f).name()
                            + " already exists");
                }
            }
            libs.putAll(loaded.libraries);
            next = of(libs);
        }
        state = next;
        return new Change(null, effects(old, next));
    }

    /** FUNCTION DUMP: the libraries in Redis's payload format, in load order. */
    byte[] dump(boolean compression) {
        List<byte[]> codes = new ArrayList<>();
        for (Library l : state.libraries.values()) {
            codes.add(l.code());
        }
        return DumpEncoder.functions(codes, compression);
    }

    /** {@link ServerState}: one {@code FUNCTION LOAD REPLACE <code>} per library, in load order. */
    @Override
    public List<byte[][]> frames() {
        List<byte[][]> frames = new ArrayList<>();
        for (Library l : state.libraries.values()) {
            frames.add(new byte[][] {FUNCTION, LOAD, REPLACE, l.code()});
        }
        return frames;
    }

    /** A change's result: the library name (LOAD, DELETE) and its effect frames. */
    record Change(String library, List<byte[][]> frames) {
    }

    private record Created(String name, State state) {
    }

    /** {@code functionsCreateWithLibraryCtx} on {@code ctx}: the checks in Redis's order, then the load. */
    private Created create(State ctx, byte[] code, boolean replace, long timeoutMs) {
        LibraryMetadata md = LibraryMetadata.parse(code);
        if (!LibraryMetadata.validName(md.name())) {
            throw new IllegalArgumentException(BAD_NAME);
        }
        if (!md.engine().equalsIgnoreCase(Library.LUA)) {
            throw new IllegalArgumentException("Engine '" + md.engine() + "' not found");
        }
        if (ctx.libraries.containsKey(md.name()) && !replace) {
            throw new IllegalArgumentException("Library '" + md.name() + "' already exists");
        }
        Map<String, LibraryFunction> functions = scripts.withFunctionState(sb -> loader.load(md, timeoutMs));
        if (functions.isEmpty()) {
            throw new IllegalArgumentException("No functions registered");
        }
        Map<String, Library> libs = new LinkedHashMap<>(ctx.libraries);
        libs.remove(md.name());
        Map<String, LibraryFunction> others = of(libs).functions;
        for (LibraryFunction f : functions.values()) {
            if (others.containsKey(f.name().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("Function " + f.name() + " already exists");
            }
        }
        libs.put(md.name(), new Library(md.name(), Library.LUA, code.clone(), functions));
        return new Created(md.name(), of(libs));
    }

    private static State of(Map<String, Library> libs) {
        Map<String, LibraryFunction> fs = new LinkedHashMap<>();
        for (Library l : libs.values()) {
            for (LibraryFunction f : l.functions().values()) {
                // first come wins, as Redis's case-insensitive dictAdd of a library's "f" and "F"
                fs.putIfAbsent(f.name().toLowerCase(Locale.ROOT), f);
            }
        }
        return new State(Collections.unmodifiableMap(new LinkedHashMap<>(libs)), Collections.unmodifiableMap(fs));
    }

    /** The frames that turn {@code old} into {@code next} (see the class comment). */
    private static List<byte[][]> effects(State old, State next) {
        List<byte[][]> frames = new ArrayList<>();
        if (next.libraries.isEmpty() && old.libraries.size() > 1) {
            frames.add(new byte[][] {FUNCTION, FLUSH});
            return frames;
        }
        List<String> removed = new ArrayList<>();
        List<Library> added = new ArrayList<>();
        for (Library l : old.libraries.values()) {
            Library n = next.libraries.get(l.name());
            if (n == null || !Arrays.equals(n.code(), l.code())) {
                removed.add(l.name());
            }
        }
        for (Library l : next.libraries.values()) {
            Library o = old.libraries.get(l.name());
            if (o == null || !Arrays.equals(o.code(), l.code())) {
                added.add(l);
            }
        }
        boolean single = added.size() == 1 && (removed.isEmpty()
                || removed.size() == 1 && removed.get(0).equals(added.get(0).name()));
        if (!single) {
            for (String name : removed) {
                frames.add(new byte[][] {FUNCTION, DELETE, bytes(name)});
            }
        }
        for (Library l : added) {
            frames.add(new byte[][] {FUNCTION, LOAD, REPLACE, l.code()});
        }
        return frames;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
