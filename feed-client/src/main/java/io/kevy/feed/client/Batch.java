package io.kevy.feed.client;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * What a {@link Sink} or handler receives: either the changes of one shard read in one step, in offset order
 * ({@link Kind#CHANGES}; the consumer stores {@link #next()} once the sink completed the batch), or entries of
 * a rebuild ({@link Kind#SNAPSHOT}: {@link Op#SNAPSHOT} and {@link Op#VANISHED} changes, possibly of several
 * shards, between {@link Sink#beginRebuild} and {@link Sink#endRebuild}). Immutable.
 *
 * @param <K> key type
 * @param <V> value type
 */
public final class Batch<K, V> implements Iterable<Change<K, V>> {
    /** The two kinds of batch. */
    public enum Kind {
        /** Frames of the feed (after an exact rebuild also fresh reads in a frame's place: {@link Sink}). */
        CHANGES,
        /** Entries of a rebuild. */
        SNAPSHOT
    }

    private final String consumer;
    private final Kind kind;
    private final Cursor from;
    private final Cursor next;
    private final RebuildScope rebuild;
    private final List<Change<K, V>> changes;

    private Batch(String consumer, Kind kind, Cursor from, Cursor next, RebuildScope rebuild,
            List<Change<K, V>> changes) {
        this.consumer = Objects.requireNonNull(consumer, "consumer");
        this.kind = kind;
        this.from = from;
        this.next = next;
        this.rebuild = rebuild;
        this.changes = List.copyOf(changes);
    }

    /**
     * A batch of feed changes of one shard read at {@code from}; {@code next} is the cursor stored after it.
     *
     * @throws IllegalArgumentException when the cursors name different shards
     */
    public static <K, V> Batch<K, V> ofChanges(String consumer, Cursor from, Cursor next, List<Change<K, V>> changes) {
        if (from.shard() != next.shard()) {
            throw new IllegalArgumentException("from and next name different shards: " + from + ", " + next);
        }
        return new Batch<>(consumer, Kind.CHANGES, from, next, null, changes);
    }

    /** A batch of rebuild entries of {@code scope}. */
    public static <K, V> Batch<K, V> ofSnapshot(String consumer, RebuildScope scope, List<Change<K, V>> entries) {
        return new Batch<>(consumer, Kind.SNAPSHOT, null, null, Objects.requireNonNull(scope, "scope"), entries);
    }

    /** The consumer's name. */
    public String consumer() {
        return consumer;
    }

    public Kind kind() {
        return kind;
    }

    /** The shard of a CHANGES batch; -1 for a SNAPSHOT batch (each entry names its shard). */
    public int shard() {
        return from == null ? -1 : from.shard();
    }

    /** Where a CHANGES batch was read; null for SNAPSHOT. */
    public Cursor from() {
        return from;
    }

    /**
     * The cursor the consumer stores once the sink completed this CHANGES batch (one past the last frame
     * scanned, feed contract §4); null for SNAPSHOT. A transactional sink may store it with its output.
     */
    public Cursor next() {
        return next;
    }

    /** The rebuild a SNAPSHOT batch belongs to; null for CHANGES. */
    public RebuildScope rebuild() {
        return rebuild;
    }

    /** The changes in order (offset order within a shard). */
    public List<Change<K, V>> changes() {
        return changes;
    }

    public int size() {
        return changes.size();
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    @Override
    public Iterator<Change<K, V>> iterator() {
        return changes.iterator();
    }

    @Override
    public String toString() {
        return kind == Kind.CHANGES ? "Batch[" + consumer + " " + from + ".." + next.offset() + ", " + size() + "]"
                : "Batch[" + consumer + " snapshot of rebuild " + rebuild.sequence() + ", " + size() + "]";
    }
}
