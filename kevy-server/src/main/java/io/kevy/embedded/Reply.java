package io.kevy.embedded;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A command's reply as a typed tree, the RESP2 shapes one to one: {@link Simple} ({@code +OK}),
 * {@link Error} ({@code -ERR ...}), {@link Int} ({@code :1}), {@link Bulk} ({@code $3 abc}), {@link Null}
 * ({@code $-1}), {@link NullArray} ({@code *-1}) and {@link Array}. Immutable; byte arrays are copies owned by
 * the caller.
 */
public sealed interface Reply permits Reply.Simple, Reply.Error, Reply.Int, Reply.Bulk, Reply.Null,
        Reply.NullArray, Reply.Array {

    /** A simple string such as {@code OK} or {@code PONG}. */
    record Simple(String value) implements Reply {
        @Override
        public String toString() {
            return value;
        }
    }

    /** An error; {@code message} starts with its code, e.g. {@code "ERR syntax error"}. */
    record Error(String message) implements Reply {
        /** The code: the message up to the first space ({@code ERR}, {@code WRONGTYPE}, ...). */
        public String code() {
            int sp = message.indexOf(' ');
            return sp < 0 ? message : message.substring(0, sp);
        }

        @Override
        public String toString() {
            return "(error) " + message;
        }
    }

    /** An integer. */
    record Int(long value) implements Reply {
        @Override
        public String toString() {
            return "(integer) " + value;
        }
    }

    /** A bulk string. */
    record Bulk(byte[] value) implements Reply {
        /** The bytes decoded as UTF-8. */
        public String utf8() {
            return new String(value, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return '"' + utf8() + '"';
        }
    }

    /** The null bulk string (e.g. GET of a missing key). */
    record Null() implements Reply {
        @Override
        public String toString() {
            return "(nil)";
        }
    }

    /** The null array (e.g. a blocking pop that timed out). */
    record NullArray() implements Reply {
        @Override
        public String toString() {
            return "(nil array)";
        }
    }

    /** An array of replies. */
    record Array(List<Reply> elements) implements Reply {
        public Array {
            elements = List.copyOf(elements);
        }
    }

    /** True for {@link Error}. */
    default boolean isError() {
        return this instanceof Error;
    }

    /** True for {@link Null} and {@link NullArray}. */
    default boolean isNull() {
        return this instanceof Null || this instanceof NullArray;
    }

    /**
     * This reply, or a thrown {@link ReplyException} when it is an {@link Error}.
     *
     * @throws ReplyException when this is an error reply
     */
    default Reply orThrow() {
        if (this instanceof Error e) {
            throw new ReplyException(e);
        }
        return this;
    }

    /**
     * The integer value.
     *
     * @throws ReplyException when this is an error reply
     * @throws IllegalStateException when it is another shape
     */
    default long asLong() {
        if (orThrow() instanceof Int i) {
            return i.value();
        }
        throw new IllegalStateException("not an integer reply: " + this);
    }

    /**
     * The bytes of a bulk string, or null for {@link Null}.
     *
     * @throws ReplyException when this is an error reply
     * @throws IllegalStateException when it is another shape
     */
    default byte[] asBytes() {
        Reply r = orThrow();
        if (r instanceof Bulk b) {
            return b.value();
        }
        if (r instanceof Null) {
            return null;
        }
        throw new IllegalStateException("not a bulk reply: " + this);
    }

    /**
     * A bulk string decoded as UTF-8 or a simple string; null for {@link Null}.
     *
     * @throws ReplyException when this is an error reply
     * @throws IllegalStateException when it is another shape
     */
    default String asString() {
        Reply r = orThrow();
        if (r instanceof Simple s) {
            return s.value();
        }
        byte[] b = asBytes();
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The elements of an array; empty for {@link NullArray}.
     *
     * @throws ReplyException when this is an error reply
     * @throws IllegalStateException when it is another shape
     */
    default List<Reply> elements() {
        Reply r = orThrow();
        if (r instanceof Array a) {
            return a.elements();
        }
        if (r instanceof NullArray) {
            return List.of();
        }
        throw new IllegalStateException("not an array reply: " + this);
    }
}
