package io.kevy.engine.struct;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * A hash table keyed by {@code byte[]}, modelled on Redis's {@code dict}: chained buckets, power-of-two
 * tables, incremental rehashing between two tables, and a reverse-binary {@link #scan scan cursor}.
 *
 * <p>Used for the keyspace of a shard, for hash fields, set members and the member index of sorted sets.
 * Each {@link Node} carries the key, one object value, one {@code long} "aux" word (the keyspace keeps the
 * expiry time there, the sorted set its score) and one {@code int} "meta" word (the keyspace's access clock and
 * string encoding), so no second map is needed for those.
 *
 * <p><b>Not thread-safe.</b> The owner (a shard, under its lock) serialises access. Read methods ({@code find},
 * {@code get}, {@code scan}, {@code forEach}, {@code randomNode}) do not change the structure, so a table that
 * is no longer written (a value captured by a snapshot) can be read from another thread. Keys are never copied:
 * the caller must not mutate a {@code byte[]} after handing it to the table.
 */
public final class Dict<V> {
    /*
     * Design note.
     *
     * Resizing. The table grows when size reaches the bucket count (load factor 1) to the next power of two
     * at or above 2 * size, and shrinks when fewer than 1/8 of the buckets would be used, to the next power
     * of two at or above size. A resize allocates the new table and then moves one bucket per operation
     * (plus bounded bulk steps from the shard's cron, see rehashSteps), so no single command pays for
     * moving millions of nodes. While rehashing, lookups probe both tables and inserts go to the new one.
     *
     * Scan. The cursor is the bucket index with its bits reversed and incremented from the high end, as in
     * Redis: when the table doubles, each bucket splits into two buckets whose reversed indexes are
     * adjacent, so every element present for the whole scan is returned at least once whatever resizes
     * happen between calls (it may be returned twice). During a rehash the smaller table's bucket and all
     * of its expansions in the larger table are emitted together.
     *
     * Random node. A uniform pick over chained buckets: draw a bucket uniformly (over both tables while
     * rehashing) and a position uniformly below a bound on every chain's length, and retry when the bucket has
     * no node at that position. Every node then has the same chance, 1 / (buckets * bound), per attempt (Redis's
     * dictGetRandomKey and dictGetFairRandomKey favour nodes in short chains). Each table keeps such a bound:
     * raised when an insert or a rehash move lengthens one of its chains past it, never lowered by removals
     * (a stale bound only costs attempts), renewed when a rehash replaces the table. With a load factor between
     * 1/8 and 1 and chains of a few nodes, a pick takes a small constant number of attempts on average.
     */

    private static final int MIN_CAPACITY = 4;
    @SuppressWarnings("rawtypes")
    private static final Node[] EMPTY = new Node[0];

    /**
     * A table entry. Identity is stable for the life of the mapping (rehashing relinks, never copies). An owner
     * may store its values differently by subclassing it ({@link NodeFactory}); the table itself reads and writes
     * values only through {@link #value()} and {@link #value(Object)}.
     */
    public static class Node<V> {
        final byte[] key;
        final int hash;
        private V value;
        long aux;
        int meta;
        Node<V> next;

        protected Node(byte[] key, int hash) {
            this.key = key;
            this.hash = hash;
        }

        /** The key; callers must not mutate it. */
        public byte[] key() {
            return key;
        }

        public V value() {
            return value;
        }

        public void value(V value) {
            this.value = value;
        }

        /** The auxiliary word (expiry time, score bits, ...); 0 for a new node. */
        public long aux() {
            return aux;
        }

        public void aux(long aux) {
            this.aux = aux;
        }

        /**
         * A second owner-defined word, 0 for a new node (the keyspace keeps the access clock and the string
         * encoding there). Costs no memory: the node's padding has room for it.
         */
        public int meta() {
            return meta;
        }

        public void meta(int meta) {
            this.meta = meta;
        }
    }

    /** Creates the nodes of a table: {@code Node::new}, or an owner's subclass. */
    @FunctionalInterface
    public interface NodeFactory<V> {
        Node<V> create(byte[] key, int hash);
    }

    private final NodeFactory<V> factory;
    private Node<V>[] t0;
    private Node<V>[] t1;
    private int rehashIdx = -1;
    private int size;
    /** At least the length of every chain of t0 (0 while t0 has no buckets); see the design note. */
    private int chainBound0;
    /** At least the length of every chain of t1, while rehashing. */
    private int chainBound1;

    public Dict() {
        this(Node::new);
    }

    /** A table whose nodes {@code factory} creates. */
    @SuppressWarnings("unchecked")
    public Dict(NodeFactory<V> factory) {
        this.factory = factory;
        t0 = EMPTY;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Buckets in the main table (and the one being rehashed into); for INFO and tests. */
    public long buckets() {
        return t0.length + (t1 == null ? 0 : t1.length);
    }

    public boolean isRehashing() {
        return t1 != null;
    }

    /**
     * Returns the node for {@code key}, or null. Reads never move rehash buckets (writes and
     * {@link #rehashSteps} do), so a table nobody writes may be read from several threads.
     */
    public Node<V> find(byte[] key) {
        if (size == 0) {
            return null;
        }
        int h = Hashing.hash(key);
        Node<V> n = lookup(t0, key, h);
        if (n == null && t1 != null) {
            n = lookup(t1, key, h);
        }
        return n;
    }

    /** Returns the value for {@code key}, or null when absent. */
    public V get(byte[] key) {
        Node<V> n = find(key);
        return n == null ? null : n.value();
    }

    public boolean containsKey(byte[] key) {
        return find(key) != null;
    }

    /** Maps {@code key} to {@code value}; returns the previous value or null. */
    public V put(byte[] key, V value) {
        Node<V> n = findOrAdd(key);
        V prev = n.value();
        n.value(value);
        return prev;
    }

    /** Returns the existing node for {@code key}, or a new node with a null value and aux 0. */
    public Node<V> findOrAdd(byte[] key) {
        if (t1 != null) {
            rehashStep();
        }
        Node<V> n = find(key);
        return n != null ? n : addNew(key, Hashing.hash(key));
    }

    /**
     * Adds a node for a key the caller knows to be absent (checked only by assertions).
     *
     * @return the new node, value null and aux 0
     */
    public Node<V> addAbsent(byte[] key) {
        assert find(key) == null;
        return addNew(key, Hashing.hash(key));
    }

    private Node<V> addNew(byte[] key, int h) {
        if (t1 == null) {
            expandIfNeeded();
        } else {
            rehashStep();
        }
        Node<V>[] t = t1 != null ? t1 : t0;
        Node<V> n = factory.create(key, h);
        int idx = h & (t.length - 1);
        n.next = t[idx];
        t[idx] = n;
        size++;
        noteChain(t == t1, n);
        return n;
    }

    /** Removes {@code key}; returns the removed node or null. */
    public Node<V> remove(byte[] key) {
        if (size == 0) {
            return null;
        }
        if (t1 != null) {
            rehashStep();
        }
        int h = Hashing.hash(key);
        Node<V> n = unlink(t0, key, h);
        if (n == null && t1 != null) {
            n = unlink(t1, key, h);
        }
        if (n != null) {
            size--;
            n.next = null;
            shrinkIfNeeded();
        }
        return n;
    }

    /** Removes every node and releases the tables. */
    @SuppressWarnings("unchecked")
    public void clear() {
        t0 = EMPTY;
        t1 = null;
        rehashIdx = -1;
        size = 0;
        chainBound0 = 0;
        chainBound1 = 0;
    }

    /** Calls {@code action} for every node. The action must not add or remove keys. */
    public void forEach(Consumer<Node<V>> action) {
        forEachIn(t0, action);
        if (t1 != null) {
            forEachIn(t1, action);
        }
    }

    private static <V> void forEachIn(Node<V>[] t, Consumer<Node<V>> action) {
        for (Node<V> b : t) {
            for (Node<V> n = b; n != null; n = n.next) {
                action.accept(n);
            }
        }
    }

    /**
     * Emits the nodes of the bucket(s) named by {@code cursor} and returns the next cursor; 0 means the scan
     * is complete. Start with 0. Every node present from the first to the last call is emitted at least once,
     * across any resizes in between (Redis's SCAN guarantee). The action must not add or remove keys.
     */
    public long scan(long cursor, Consumer<Node<V>> action) {
        if (size == 0) {
            return 0;
        }
        long v = cursor;
        if (t1 == null) {
            long m0 = t0.length - 1;
            emitBucket(t0[(int) (v & m0)], action);
            return nextCursor(v, m0);
        }
        Node<V>[] small = t0;
        Node<V>[] large = t1;
        if (small.length > large.length) {
            Node<V>[] tmp = small;
            small = large;
            large = tmp;
        }
        long m0 = small.length - 1;
        long m1 = large.length - 1;
        emitBucket(small[(int) (v & m0)], action);
        do {
            emitBucket(large[(int) (v & m1)], action);
            v = nextCursor(v, m1);
        } while ((v & (m0 ^ m1)) != 0);
        return v;
    }

    private static long nextCursor(long v, long mask) {
        v |= ~mask;
        v = Long.reverse(v);
        v++;
        return Long.reverse(v);
    }

    private static <V> void emitBucket(Node<V> head, Consumer<Node<V>> action) {
        for (Node<V> n = head; n != null; ) {
            Node<V> next = n.next;
            action.accept(n);
            n = next;
        }
    }

    /**
     * Returns a node drawn uniformly among all nodes, or null when empty (see the design note: a bucket and a
     * chain position drawn uniformly, retried until they name a node). Reads only, like {@link #find}.
     */
    public Node<V> randomNode(RandomGenerator rnd) {
        if (size == 0) {
            return null;
        }
        int bound = t1 != null ? Math.max(chainBound0, chainBound1) : chainBound0;
        while (true) {
            Node<V> n;
            if (t1 != null) {
                // t0's buckets below rehashIdx are empty: draw among the others and t1's
                int span = t0.length - rehashIdx + t1.length;
                int idx = rehashIdx + rnd.nextInt(span);
                n = idx < t0.length ? t0[idx] : t1[idx - t0.length];
            } else {
                n = t0[rnd.nextInt(t0.length)];
            }
            for (int pos = bound == 1 ? 0 : rnd.nextInt(bound); n != null && pos > 0; pos--) {
                n = n.next;
            }
            if (n != null) {
                return n;
            }
        }
    }

    /** Raises the chain bound of t1 ({@code inT1}) or t0 to the length of the chain that starts at {@code head}. */
    private void noteChain(boolean inT1, Node<V> head) {
        int bound = inT1 ? chainBound1 : chainBound0;
        int len = 0;
        for (Node<V> n = head; n != null; n = n.next) {
            if (++len > bound) {
                if (inT1) {
                    chainBound1 = len;
                } else {
                    chainBound0 = len;
                }
                bound = len;
            }
        }
    }

    /**
     * Performs up to {@code steps} bucket moves of an ongoing rehash.
     *
     * @return true while a rehash is still in progress
     */
    public boolean rehashSteps(int steps) {
        int emptyVisits = steps * 10;
        while (t1 != null && steps-- > 0) {
            while (rehashIdx < t0.length && t0[rehashIdx] == null) {
                rehashIdx++;
                if (--emptyVisits == 0) {
                    finishIfDone();
                    return t1 != null;
                }
            }
            if (rehashIdx < t0.length) {
                moveBucket(rehashIdx++);
            }
            finishIfDone();
        }
        return t1 != null;
    }

    private void rehashStep() {
        rehashSteps(1);
    }

    private void moveBucket(int idx) {
        Node<V> n = t0[idx];
        int mask = t1.length - 1;
        while (n != null) {
            Node<V> next = n.next;
            int j = n.hash & mask;
            n.next = t1[j];
            t1[j] = n;
            noteChain(true, n);
            n = next;
        }
        t0[idx] = null;
    }

    private void finishIfDone() {
        if (rehashIdx >= t0.length) {
            t0 = t1;
            t1 = null;
            rehashIdx = -1;
            chainBound0 = chainBound1;
            chainBound1 = 0;
            shrinkIfNeeded(); // keys removed during the rehash may call for a smaller table still
        }
    }

    private void expandIfNeeded() {
        if (t0.length == 0) {
            t0 = newTable(MIN_CAPACITY);
        } else if (size >= t0.length) {
            startRehash(tableSizeFor((long) size * 2));
        }
    }

    private void shrinkIfNeeded() {
        if (t1 == null && t0.length > MIN_CAPACITY && (long) size * 8 < t0.length) {
            startRehash(tableSizeFor(Math.max(size, MIN_CAPACITY)));
        }
    }

    private void startRehash(int capacity) {
        if (capacity == t0.length) {
            return;
        }
        t1 = newTable(capacity);
        rehashIdx = 0;
        chainBound1 = 0;
        if (size == 0) {
            t0 = t1;
            t1 = null;
            rehashIdx = -1;
            chainBound0 = 0;
        }
    }

    private static int tableSizeFor(long n) {
        long cap = MIN_CAPACITY;
        while (cap < n && cap < (1 << 30)) {
            cap <<= 1;
        }
        return (int) cap;
    }

    @SuppressWarnings("unchecked")
    private static <V> Node<V>[] newTable(int capacity) {
        return (Node<V>[]) new Node[capacity];
    }

    private static <V> Node<V> lookup(Node<V>[] t, byte[] key, int h) {
        if (t.length == 0) {
            return null;
        }
        for (Node<V> n = t[h & (t.length - 1)]; n != null; n = n.next) {
            if (n.hash == h && Arrays.equals(n.key, key)) {
                return n;
            }
        }
        return null;
    }

    private Node<V> unlink(Node<V>[] t, byte[] key, int h) {
        if (t.length == 0) {
            return null;
        }
        int idx = h & (t.length - 1);
        Node<V> prev = null;
        for (Node<V> n = t[idx]; n != null; prev = n, n = n.next) {
            if (n.hash == h && Arrays.equals(n.key, key)) {
                if (prev == null) {
                    t[idx] = n.next;
                } else {
                    prev.next = n.next;
                }
                return n;
            }
        }
        return null;
    }
}
