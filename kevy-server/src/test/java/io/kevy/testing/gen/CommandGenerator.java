package io.kevy.testing.gen;

import io.kevy.engine.command.CommandTable;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Random write commands of one command family, for the seeded tests of the completeness invariant (feed
 * contract §7). A family lists its {@link Op}s; the harness keeps those whose command is in the command table,
 * so a generator can be written before its family lands. Add a family to {@link Generators#ALL}.
 */
public interface CommandGenerator {
    /** The family's name, for the report (e.g. {@code "strings"}). */
    String family();

    /** Every operation this family may generate. */
    List<Op> ops();

    /**
     * One kind of command, or of a block of commands one client sends in a row (a MULTI ... EXEC transaction):
     * exactly one of {@code build} and {@code block} is set.
     *
     * @param command  the command name as in the table (lower case), used to check availability
     * @param build    makes one random instance of a single command, verb first
     * @param block    makes one random instance of a block: the argvs to send in a row, verbs first
     * @param modelled whether {@code build} reads and updates a model of the workload's state
     *                 ({@link Ctx#state}), which assumes that every command made before it ran
     */
    record Op(String command, Build build, Block block, boolean modelled) {
        public Op {
            if ((build == null) == (block == null)) {
                throw new IllegalArgumentException("an op has either a build or a block");
            }
        }

        /** A single-command operation. */
        public Op(String command, Build build) {
            this(command, build, null, false);
        }

        /** A block operation. */
        public static Op block(String command, Block block) {
            return new Op(command, null, block, false);
        }

        /**
         * A single-command operation made from the workload's model ({@link Ctx#state}); a transaction that may
         * not apply (DISCARD, EXECABORT, a dirty WATCH) leaves such operations out, so the model stays true.
         */
        public static Op modelled(String command, Build build) {
            return new Op(command, build, null, true);
        }

        /** True when the command exists in {@code table}. */
        public boolean available(CommandTable table) {
            return table.lookup(command) != null;
        }

        /** One random instance: the commands to send in a row (one for a single-command operation). */
        public List<byte[][]> make(Random rnd, Ctx ctx) {
            return block != null ? block.make(rnd, ctx) : List.<byte[][]>of(build.make(rnd, ctx));
        }
    }

    /** Builds one command's argv. */
    @FunctionalInterface
    interface Build {
        byte[][] make(Random rnd, Ctx ctx);
    }

    /** Builds the argvs of a block of commands one client sends in a row. */
    @FunctionalInterface
    interface Block {
        List<byte[][]> make(Random rnd, Ctx ctx);
    }

    /** What a builder may use: key pools and the time base for absolute times. */
    interface Ctx {
        /** A key of the named area ({@code "s"} strings, {@code "h"} hashes, ...), sometimes any key. */
        String key(Random rnd, String area);

        /** Now, in ms since the epoch (absolute times are made from it). */
        long nowMs();

        /**
         * The workload's own instance of a generator's model, made by {@code make} on first use: one per workload
         * (not per generator, which is shared), so a seed makes the same commands every time.
         */
        <T> T state(Class<T> type, Supplier<T> make);
    }

    /** argv from strings (ISO-8859-1, so every char is one byte). */
    static byte[][] argv(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(StandardCharsets.ISO_8859_1);
        }
        return b;
    }
}
