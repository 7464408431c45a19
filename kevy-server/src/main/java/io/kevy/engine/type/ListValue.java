package io.kevy.engine.type;

import io.kevy.resp.Verbs;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * A list of immutable {@code byte[]} elements: a ring buffer, so pushes and pops at both ends are amortised
 * O(1), access by index is O(1), and an insertion or removal in the middle moves the shorter side.
 * OBJECT ENCODING reports {@code quicklist}, as Redis 7.0 does for every list.
 *
 * <p>Indexes are zero-based from the head; callers resolve Redis's negative indexes first. Methods that take
 * an index require it to be in range (checked by assertions only).
 *
 * <p>Not thread-safe: used under the owning shard's lock.
 */
public final class ListValue implements RedisValue {
    /*
     * Design note. Elements live in elems[(head + i) & (elems.length - 1)] for i in [0, size); the capacity
     * is a power of two (at least MIN_CAPACITY). Slots outside the live range are always null, so removed
     * elements are not retained. The buffer doubles when full and, once less than a quarter full, shrinks to twice the next power of two
     * at or below the size (so alternating push/pop at a boundary cannot thrash).
     */
    private static final int MIN_CAPACITY = 8;

    private byte[][] elems = new byte[MIN_CAPACITY][];
    private int head;
    private int size;

    @Override
    public ValueType type() {
        return ValueType.LIST;
    }

    @Override
    public String encoding() {
        return "quicklist";
    }

    @Override
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Element {@code i} (0 = head). */
    public byte[] get(int i) {
        assert i >= 0 && i < size : i;
        return elems[slot(i)];
    }

    /** Replaces element {@code i}; returns the previous one. */
    public byte[] set(int i, byte[] value) {
        assert i >= 0 && i < size : i;
        int s = slot(i);
        byte[] prev = elems[s];
        elems[s] = value;
        return prev;
    }

    /** Adds {@code value} at the head (LPUSH). */
    public void pushLeft(byte[] value) {
        growIfFull();
        head = (head - 1) & mask();
        elems[head] = value;
        size++;
    }

    /** Adds {@code value} at the tail (RPUSH). */
    public void pushRight(byte[] value) {
        growIfFull();
        elems[slot(size)] = value;
        size++;
    }

    /** Adds {@code value} at the head or the tail. */
    public void push(byte[] value, boolean left) {
        if (left) {
            pushLeft(value);
        } else {
            pushRight(value);
        }
    }

    /** Removes and returns the head element; the list must not be empty. */
    public byte[] popLeft() {
        assert size > 0;
        byte[] v = elems[head];
        elems[head] = null;
        head = (head + 1) & mask();
        size--;
        shrinkIfSparse();
        return v;
    }

    /** Removes and returns the tail element; the list must not be empty. */
    public byte[] popRight() {
        assert size > 0;
        int s = slot(size - 1);
        byte[] v = elems[s];
        elems[s] = null;
        size--;
        shrinkIfSparse();
        return v;
    }

    /** Removes and returns the head or the tail element; the list must not be empty. */
    public byte[] pop(boolean left) {
        return left ? popLeft() : popRight();
    }

    /** Inserts {@code value} so that it becomes element {@code i} ({@code 0 <= i <= size}). */
    public void insert(int i, byte[] value) {
        assert i >= 0 && i <= size : i;
        if (i == 0) {
            pushLeft(value);
            return;
        }
        if (i == size) {
            pushRight(value);
            return;
        }
        growIfFull();
        if (i < size / 2) {
            head = (head - 1) & mask();
            for (int j = 0; j < i; j++) {
                elems[slot(j)] = elems[slot(j + 1)];
            }
        } else {
            for (int j = size; j > i; j--) {
                elems[slot(j)] = elems[slot(j - 1)];
            }
        }
        elems[slot(i)] = value;
        size++;
    }

    /** Removes element {@code i} and returns it. */
    public byte[] remove(int i) {
        assert i >= 0 && i < size : i;
        byte[] v = elems[slot(i)];
        if (i < size / 2) {
            for (int j = i; j > 0; j--) {
                elems[slot(j)] = elems[slot(j - 1)];
            }
            elems[head] = null;
            head = (head + 1) & mask();
        } else {
            for (int j = i; j < size - 1; j++) {
                elems[slot(j)] = elems[slot(j + 1)];
            }
            elems[slot(size - 1)] = null;
        }
        size--;
        shrinkIfSparse();
        return v;
    }

    /** Removes the first {@code n} elements ({@code 0 <= n <= size}). */
    public void removeFirst(int n) {
        assert n >= 0 && n <= size : n;
        for (int j = 0; j < n; j++) {
            elems[slot(j)] = null;
        }
        head = (head + n) & mask();
        size -= n;
        shrinkIfSparse();
    }

    /** Removes the last {@code n} elements ({@code 0 <= n <= size}). */
    public void removeLast(int n) {
        assert n >= 0 && n <= size : n;
        for (int j = size - n; j < size; j++) {
            elems[slot(j)] = null;
        }
        size -= n;
        shrinkIfSparse();
    }

    /**
     * Removes elements equal to {@code value}, as LREM does: {@code count > 0} the first {@code count} from the
     * head, {@code count < 0} the first {@code -count} from the tail, {@code 0} all of them. One pass, O(n).
     *
     * @return the number removed
     */
    public int removeMatching(byte[] value, long count) {
        long limit = count == 0 ? Long.MAX_VALUE : count > 0 ? count : -count;
        int removed = 0;
        if (count >= 0) {
            int w = 0;
            for (int r = 0; r < size; r++) {
                byte[] e = elems[slot(r)];
                if (removed < limit && Arrays.equals(e, value)) {
                    removed++;
                } else {
                    elems[slot(w++)] = e;
                }
            }
            for (int j = w; j < size; j++) {
                elems[slot(j)] = null;
            }
        } else {
            int w = size - 1;
            for (int r = size - 1; r >= 0; r--) {
                byte[] e = elems[slot(r)];
                if (removed < limit && Arrays.equals(e, value)) {
                    removed++;
                } else {
                    elems[slot(w--)] = e;
                }
            }
            for (int j = 0; j <= w; j++) {
                elems[slot(j)] = null;
            }
            head = (head + removed) & mask();
        }
        size -= removed;
        shrinkIfSparse();
        return removed;
    }

    /** Index of the first element equal to {@code value} from the head, or -1. */
    public int indexOf(byte[] value) {
        for (int i = 0; i < size; i++) {
            if (Arrays.equals(elems[slot(i)], value)) {
                return i;
            }
        }
        return -1;
    }

    /** Calls {@code action} for each element, head to tail. */
    public void forEach(Consumer<byte[]> action) {
        for (int i = 0; i < size; i++) {
            action.accept(elems[slot(i)]);
        }
    }

    @Override
    public ListValue copy() {
        ListValue l = new ListValue();
        l.elems = new byte[elems.length][];
        for (int i = 0; i < size; i++) {
            l.elems[i] = elems[slot(i)];
        }
        l.size = size;
        return l;
    }

    /** {@code RPUSH key e ...} in order, at most {@link #REBUILD_CHUNK} elements per frame. */
    @Override
    public void rebuild(byte[] key, Consumer<byte[][]> frames) {
        for (int from = 0; from < size; from += REBUILD_CHUNK) {
            int n = Math.min(REBUILD_CHUNK, size - from);
            byte[][] f = new byte[n + 2][];
            f[0] = Verbs.RPUSH;
            f[1] = key;
            for (int j = 0; j < n; j++) {
                f[j + 2] = elems[slot(from + j)];
            }
            frames.accept(f);
        }
    }

    @Override
    public long memoryUsage() {
        long bytes = 48 + 16L + 8L * elems.length;
        for (int i = 0; i < size; i++) {
            bytes += 16 + elems[slot(i)].length;
        }
        return bytes;
    }

    private int mask() {
        return elems.length - 1;
    }

    private int slot(int i) {
        return (head + i) & (elems.length - 1);
    }

    private void growIfFull() {
        if (size == elems.length) {
            resize(elems.length * 2);
        }
    }

    private void shrinkIfSparse() {
        if (elems.length > MIN_CAPACITY && size < elems.length / 4) {
            resize(Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, size)) * 2));
        }
    }

    private void resize(int capacity) {
        byte[][] n = new byte[capacity][];
        for (int i = 0; i < size; i++) {
            n[i] = elems[slot(i)];
        }
        elems = n;
        head = 0;
    }
}
