package io.kevy.engine.struct;

/**
 * A {@link Dict} node that keeps a {@code byte[]} value of up to {@value #MAX_INLINE} bytes inside the node, in
 * two {@code long} fields, instead of pointing at it: Redis embeds short strings in their object header
 * ({@code embstr}) for the same reasons. The keyspace and the hashtable encoding of hashes use it
 * ({@code new Dict<>(InlineStringNode::new)}).
 *
 * <ul>
 *   <li><b>No reference store per write.</b> A long-lived node that is handed a new {@code byte[]} on every SET
 *       dirties a G1 card that a concurrent refinement thread must then scan; with random keys that was about
 *       a fifth of the server's CPU for pipelined SETs of small values (perf, docs/benchmarks.md), and HSET
 *       into a large hash pays the same. Storing the
 *       bytes in primitive fields, and null in the value field, involves no card at all.</li>
 *   <li><b>One object and one cache miss fewer</b> per small string: a GET reads the bytes from the node it
 *       has just found, and the node (56 bytes) is smaller than a node (40) plus a 3-byte array (24). A longer
 *       value costs 16 bytes more than with a plain node.</li>
 * </ul>
 *
 * <p>{@link #value()} returns a new {@code byte[]} for an inline string on every call; stored strings are
 * immutable, so callers cannot tell the difference except by identity, which no caller relies on. Other
 * values (longer strings, collections) are held by reference as in a plain node.
 *
 * <p>Not thread-safe, as its {@link Dict}.
 *
 * @param <V> the table's value type: {@code byte[]} or a supertype of it
 */
public final class InlineStringNode<V> extends Dict.Node<V> {
    /** The longest string kept inline, bytes. */
    static final int MAX_INLINE = 15;

    /** Bytes 0..7 of an inline string, byte i in bits 8i..8i+7. */
    private long low;
    /** Bytes 8..14 of an inline string in the low 56 bits; the top 8 bits are its length + 1, or 0 when none. */
    private long high;

    public InlineStringNode(byte[] key, int hash) {
        super(key, hash);
    }

    @Override
    @SuppressWarnings("unchecked")
    public V value() {
        long h = high;
        if (h == 0) {
            return super.value();
        }
        int len = (int) (h >>> 56) - 1;
        byte[] b = new byte[len];
        long l = low;
        int n = Math.min(len, 8);
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (l >>> (i << 3));
        }
        for (int i = 8; i < len; i++) {
            b[i] = (byte) (h >>> ((i - 8) << 3));
        }
        return (V) b;
    }

    @Override
    public void value(V value) {
        if (value instanceof byte[] b && b.length <= MAX_INLINE) {
            long l = 0;
            long h = (long) (b.length + 1) << 56;
            int n = Math.min(b.length, 8);
            for (int i = 0; i < n; i++) {
                l |= (b[i] & 0xFFL) << (i << 3);
            }
            for (int i = 8; i < b.length; i++) {
                h |= (b[i] & 0xFFL) << ((i - 8) << 3);
            }
            low = l;
            high = h;
            if (super.value() != null) {
                super.value(null);
            }
        } else {
            low = 0;
            high = 0;
            super.value(value);
        }
    }

    /** True when the value is a string held inline (tests). */
    boolean inline() {
        return high != 0;
    }
}
