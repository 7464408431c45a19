package io.kevy.feed.client;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The lettuce output of the commands {@link RemoteFeedSource#callAll} pipelines: any reply as plain objects,
 * {@code Long}, {@code Double}, {@code Boolean}, {@code byte[]} (bulk and simple strings), {@code List<Object>}
 * (arrays, RESP3 sets, and maps flattened key, value, ...), null (nil), the whole reply wrapped in a one-element
 * list unless it is an array (as lettuce's {@code NestedMultiOutput} answers). Unlike that output, an error
 * <em>inside</em> an array ({@code EXEC}'s reply: a queued command that failed when it ran) is an element, a
 * {@link ErrorElement}, so the other commands' replies keep their places; an error reply at the top fails the
 * command as usual. Used by one command on one event loop; not thread-safe.
 */
final class ReplyOutput extends CommandOutput<byte[], byte[], List<Object>> {
    /** An error reply inside an array, e.g. {@code WRONGTYPE ...} in EXEC's reply. */
    record ErrorElement(String message) {
    }

    private final Deque<List<Object>> open = new ArrayDeque<>();
    private boolean array;

    ReplyOutput() {
        super(ByteArrayCodec.INSTANCE, new ArrayList<>(1));
    }

    /** True when the reply was an array (the result is then the array itself). */
    boolean array() {
        return array;
    }

    private void add(Object value) {
        (open.isEmpty() ? output : open.peek()).add(value);
    }

    @Override
    public void set(ByteBuffer bytes) {
        if (bytes == null) {
            add(null);
            return;
        }
        byte[] b = new byte[bytes.remaining()];
        bytes.get(b);
        add(b);
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        set(bytes);
    }

    @Override
    public void set(long integer) {
        add(integer);
    }

    @Override
    public void set(double number) {
        add(number);
    }

    @Override
    public void set(boolean value) {
        add(value);
    }

    @Override
    public void setError(ByteBuffer error) {
        if (open.isEmpty()) {
            super.setError(error);
        } else {
            add(new ErrorElement(StandardCharsets.UTF_8.decode(error).toString()));
        }
    }

    @Override
    public void multi(int count) {
        List<Object> a = new ArrayList<>(Math.max(0, Math.min(count, 1024)));
        if (open.isEmpty() && !array && output.isEmpty()) {
            output = a;
            array = true;
        } else {
            add(a);
        }
        open.push(a);
    }

    @Override
    public void complete(int depth) {
        while (open.size() > depth) {
            open.pop();
        }
    }
}
