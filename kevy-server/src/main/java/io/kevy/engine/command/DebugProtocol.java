package io.kevy.engine.command;

import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.ReplySink;

/**
 * DEBUG PROTOCOL string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false: one reply of each
 * RESP3 type, as Redis 7.0's {@code debugCommand} writes them (its test suite's protocol check), so every type of
 * {@link ReplySink} can be compared with Redis on both protocols. Stateless.
 */
final class DebugProtocol {
    private static final ErrorReply WRONG_TYPE = ErrorReply.err("Wrong protocol type name. Please use one of the "
            + "following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false");
    private static final ErrorReply NO_RESP2_PUSH = ErrorReply.err("RESP2 is not supported by this command");

    private DebugProtocol() {
    }

    static void reply(Call c, byte[] name) {
        ReplySink r = c.reply();
        switch (Bytes.lowerAscii(name)) {
            case "string" -> r.bulk("Hello World");
            case "integer" -> r.integer(12345);
            case "double" -> r.doubleValue(3.141);
            case "bignum" -> r.bigNumber(Bytes.utf8("1234567999999999999999999999999999999"));
            case "null" -> r.nullBulk();
            case "array" -> {
                r.array(3);
                integers(r);
            }
            case "set" -> {
                r.set(3);
                integers(r);
            }
            case "map" -> {
                r.map(3);
                for (int j = 0; j < 3; j++) {
                    r.integer(j);
                    r.bool(j == 1);
                }
            }
            case "attrib" -> {
                if (r.protocol() == 3) {
                    r.attribute(1);
                    r.bulk("key-popularity");
                    r.array(2);
                    r.bulk("key:123");
                    r.integer(90);
                }
                r.bulk("Some real reply following the attribute");
            }
            case "push" -> {
                if (r.protocol() != 3) {
                    throw Call.fail(NO_RESP2_PUSH);
                }
                r.push(2);
                r.bulk("server-cpu-usage");
                r.integer(42);
                r.bulk("Some real reply following the push reply");
            }
            case "true" -> r.bool(true);
            case "false" -> r.bool(false);
            case "verbatim" -> r.verbatim(Bytes.utf8("This is a verbatim\nstring"), "txt");
            default -> throw Call.fail(WRONG_TYPE);
        }
    }

    private static void integers(ReplySink r) {
        for (int j = 0; j < 3; j++) {
            r.integer(j);
        }
    }
}
