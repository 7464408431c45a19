package io.kevy.embedded;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * A {@link ReplySink} that builds a {@link Reply} tree. Bulk strings are copied: stored values and frames
 * share their arrays with the engine, and the caller may mutate what it gets.
 *
 * <p>Not thread-safe: one per command.
 */
final class ReplyTree implements ReplySink {
    private final Deque<Pending> open = new ArrayDeque<>();
    private Reply root;

    private static final class Pending {
        final int expected;
        final List<Reply> elements;

        Pending(int expected) {
            this.expected = expected;
            this.elements = new ArrayList<>(Math.min(expected, 1024));
        }
    }

    /** The complete reply, or null when none (or only part of one) was written. */
    Reply result() {
        return open.isEmpty() ? root : null;
    }

    private void add(Reply r) {
        Reply cur = r;
        while (true) {
            Pending p = open.peek();
            if (p == null) {
                if (root != null) {
                    throw new IllegalStateException("a second reply was written: " + cur);
                }
                root = cur;
                return;
            }
            p.elements.add(cur);
            if (p.elements.size() < p.expected) {
                return;
            }
            open.pop();
            cur = new Reply.Array(p.elements);
        }
    }

    @Override
    public void ok() {
        add(new Reply.Simple("OK"));
    }

    @Override
    public void simple(String s) {
        add(new Reply.Simple(s));
    }

    @Override
    public void error(ErrorReply error) {
        add(new Reply.Error(error.message()));
    }

    @Override
    public void integer(long v) {
        add(new Reply.Int(v));
    }

    @Override
    public void bulk(byte[] b) {
        add(new Reply.Bulk(b.clone()));
    }

    @Override
    public void bulk(byte[] b, int off, int len) {
        add(new Reply.Bulk(Arrays.copyOfRange(b, off, off + len)));
    }

    @Override
    public void bulk(String s) {
        add(new Reply.Bulk(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void nullBulk() {
        add(new Reply.Null());
    }

    @Override
    public void nullArray() {
        add(new Reply.NullArray());
    }

    @Override
    public void array(int n) {
        if (n == 0) {
            add(new Reply.Array(List.of()));
        } else {
            open.push(new Pending(n));
        }
    }
}
