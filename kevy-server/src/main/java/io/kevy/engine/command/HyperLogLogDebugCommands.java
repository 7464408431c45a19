package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.type.HyperLogLog;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * The HyperLogLog debugging commands of Redis 7.0: {@code PFDEBUG GETREG | DECODE | ENCODING | TODENSE key} and
 * {@code PFSELFTEST}, with Redis's replies and error texts.
 *
 * <p>GETREG and TODENSE of a sparse value turn it dense, a change Redis propagates: they emit
 * {@code SET k <dense bytes> KEEPTTL}. The self-test checks this implementation's register packing and the
 * estimate's error with 10 million elements, as Redis's does (a few seconds on one core).
 */
final class HyperLogLogDebugCommands {
    private static final ErrorReply NO_KEY = ErrorReply.err("The specified key does not exist");
    private static final ErrorReply NOT_SPARSE = ErrorReply.err("HLL encoding is not sparse");
    private static final int TEST_CYCLES = 1000;

    private HyperLogLogDebugCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("pfdebug", 3).flags(WRITE, DENYOOM, ADMIN).keys(2, 2, 1).keyFlags("RW", "access")
                .group(HyperLogLogCommands.GROUP).since("2.8.9")
                .summary("Internal commands for debugging HyperLogLog values").complexity("N/A")
                .handler(HyperLogLogDebugCommands::pfdebug));
        t.add(command("pfselftest", 1).flags(ADMIN).group(HyperLogLogCommands.GROUP).since("2.8.9")
                .summary("An internal command for testing HyperLogLog values").complexity("N/A")
                .handler(HyperLogLogDebugCommands::pfselftest));
    }

    /** PFDEBUG: the key is looked up and checked before the subcommand is, as in Redis. */
    private static void pfdebug(Call c) {
        byte[] key = c.arg(2);
        Dict.Node<Object> n = c.node(key);
        if (n == null) {
            throw Call.fail(NO_KEY);
        }
        HyperLogLog h = HyperLogLog.of(HyperLogLogCommands.asHll(n));
        Keyspace.encodingHint(n, StringValues.HINT_RAW);
        byte[] sub = c.arg(1);
        if (Bytes.equalsIgnoreCase(sub, "getreg")) {
            if (!h.isDense()) {
                toDense(c, key, h);
            }
            c.reply().array(HyperLogLog.REGISTERS);
            for (int j = 0; j < HyperLogLog.REGISTERS; j++) {
                c.reply().integer(h.register(j));
            }
        } else if (Bytes.equalsIgnoreCase(sub, "decode")) {
            if (h.isDense()) {
                throw Call.fail(NOT_SPARSE);
            }
            c.reply().bulk(h.decode().getBytes(StandardCharsets.US_ASCII));
        } else if (Bytes.equalsIgnoreCase(sub, "encoding")) {
            c.reply().simple(h.isDense() ? "dense" : "sparse");
        } else if (Bytes.equalsIgnoreCase(sub, "todense")) {
            boolean conv = !h.isDense();
            if (conv) {
                toDense(c, key, h);
            }
            c.reply().integer(conv ? 1 : 0);
        } else {
            throw Call.fail(ErrorReply.err("Unknown PFDEBUG subcommand '" + new String(sub,
                    StandardCharsets.ISO_8859_1) + "'"));
        }
    }

    private static void toDense(Call c, byte[] key, HyperLogLog h) {
        if (!h.toDense()) {
            throw Call.fail(HyperLogLogCommands.INVALIDOBJ);
        }
        HyperLogLogCommands.store(c, key, h);
    }

    /**
     * PFSELFTEST: random register values written and read back {@value #TEST_CYCLES} times, then 10 million
     * elements added to a dense and a sparse HyperLogLog, whose estimates must agree and stay within six
     * standard errors at every power of ten.
     */
    private static void pfselftest(Call c) {
        Random rnd = new Random();
        HyperLogLog dense = HyperLogLog.emptyDense();
        int[] expected = new int[HyperLogLog.REGISTERS];
        for (int j = 0; j < TEST_CYCLES; j++) {
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                expected[i] = rnd.nextInt(64);
                dense.putRegister(i, expected[i]);
            }
            for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
                int v = dense.register(i);
                if (v != expected[i]) {
                    throw Call.fail(ErrorReply.err("TESTFAILED Register " + i + " should be " + expected[i]
                            + " but is " + v));
                }
            }
        }
        dense = HyperLogLog.emptyDense();
        HyperLogLog sparse = HyperLogLog.empty();
        long sparseMax = c.engine().encodings().hllSparseMaxBytes();
        double relerr = 1.04 / Math.sqrt(HyperLogLog.REGISTERS);
        long checkpoint = 1;
        long seed = rnd.nextLong();
        byte[] ele = new byte[8];
        for (long j = 1; j <= 10_000_000; j++) {
            long e = j ^ seed;
            for (int b = 0; b < 8; b++) {
                ele[b] = (byte) (e >>> (8 * b));
            }
            dense.add(ele, sparseMax);
            sparse.add(ele, sparseMax);
            if (j != checkpoint) {
                continue;
            }
            if (j < sparseMax / 2 && sparse.isDense()) {
                throw Call.fail(ErrorReply.err("TESTFAILED sparse encoding not used"));
            }
            long card = dense.count();
            if (card != sparse.count()) {
                throw Call.fail(ErrorReply.err("TESTFAILED dense/sparse disagree"));
            }
            long abserr = Math.abs(checkpoint - card);
            long maxerr = j == 10 ? 1 : (long) Math.ceil(relerr * 6 * checkpoint);
            if (abserr > maxerr) {
                throw Call.fail(ErrorReply.err("TESTFAILED Too big error. card:" + checkpoint + " abserr:"
                        + abserr));
            }
            checkpoint *= 10;
        }
        c.reply().ok();
    }
}
