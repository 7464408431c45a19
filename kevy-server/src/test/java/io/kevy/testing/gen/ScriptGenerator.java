package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Lua scripts: EVAL of a random script of 1 to 6 {@code redis.call}s (SET, INCR, DEL, HSET, LPUSH, SADD, ZADD,
 * EXPIRE, APPEND, INCRBYFLOAT, RPOP, GET) on declared keys ({@code KEYS[i]}) and on keys it names itself, with
 * arguments from {@code ARGV} and literals; some scripts fail midway (a WRONGTYPE call, {@code error()}) after
 * writes that stay, some use {@code pcall} and go on, some loop; and FCALL of the same bodies registered as
 * library functions by a {@code FUNCTION LOAD REPLACE} sent just before.
 */
final class ScriptGenerator implements CommandGenerator {
    private static final String[] AREAS = {"s", "h", "l", "set", "z", "t"};

    @Override
    public String family() {
        return "scripting";
    }

    @Override
    public List<Op> ops() {
        return List.of(new Op("eval", ScriptGenerator::eval), new Op("eval", ScriptGenerator::eval),
                Op.block("fcall", ScriptGenerator::fcall));
    }

    private static byte[][] eval(Random r, Ctx c) {
        int numkeys = 1 + r.nextInt(3);
        List<String> a = new ArrayList<>(List.of("EVAL", body(r, c, numkeys, "KEYS", "ARGV"),
                Integer.toString(numkeys)));
        a.addAll(keysAndArgs(r, c, numkeys));
        return argv(a.toArray(new String[0]));
    }

    /**
     * A library of one of three names (reloaded with REPLACE) whose one function runs a random script body on
     * its {@code keys} and {@code args} tables, then an FCALL of it: the library's FUNCTION frame and the
     * function's write effects both go into the feed.
     */
    private static List<byte[][]> fcall(Random r, Ctx c) {
        int numkeys = 1 + r.nextInt(3);
        String lib = "lib" + r.nextInt(3);
        String code = "#!lua name=" + lib + "\nredis.register_function('" + lib + "_f', function(keys, args)\n"
                + body(r, c, numkeys, "keys", "args") + "\nend)";
        List<String> call = new ArrayList<>(List.of("FCALL", lib + "_f", Integer.toString(numkeys)));
        call.addAll(keysAndArgs(r, c, numkeys));
        return List.of(argv("FUNCTION", "LOAD", "REPLACE", code), argv(call.toArray(new String[0])));
    }

    private static List<String> keysAndArgs(Random r, Ctx c, int numkeys) {
        List<String> a = new ArrayList<>();
        for (int i = 0; i < numkeys; i++) {
            a.add(c.key(r, AREAS[r.nextInt(AREAS.length)]));
        }
        a.add("v" + r.nextInt(100));
        a.add(Integer.toString(r.nextInt(50)));
        return a;
    }

    /** A script body over the key table {@code keys} and the argument table {@code args}. */
    private static String body(Random r, Ctx c, int numkeys, String keys, String args) {
        StringBuilder body = new StringBuilder("local n = 0\n");
        int calls = 1 + r.nextInt(6);
        for (int i = 0; i < calls; i++) {
            String key = r.nextInt(3) == 0 ? lua(c.key(r, AREAS[r.nextInt(AREAS.length)]))
                    : keys + "[" + (1 + r.nextInt(numkeys)) + "]";
            body.append(call(r, key).replace("ARGV[", args + "[")).append('\n');
        }
        switch (r.nextInt(6)) {
            case 0 -> body.append("error('stop here')\n");
            case 1 -> body.append("for i = 1, 3 do redis.call('incr', " + keys + "[1] .. ':loop') end\n");
            default -> { }
        }
        body.append("return n");
        return body.toString();
    }

    private static String call(Random r, String key) {
        String how = r.nextInt(4) == 0 ? "redis.pcall" : "redis.call";
        return switch (r.nextInt(12)) {
            case 0 -> how + "('set', " + key + ", ARGV[1])";
            case 1 -> how + "('incr', " + key + ")";
            case 2 -> how + "('del', " + key + ")";
            case 3 -> how + "('hset', " + key + ", 'f' .. ARGV[2], ARGV[1])";
            case 4 -> how + "('lpush', " + key + ", ARGV[1], 'x')";
            case 5 -> how + "('sadd', " + key + ", ARGV[2])";
            case 6 -> how + "('zadd', " + key + ", ARGV[2], ARGV[1])";
            case 7 -> how + "('expire', " + key + ", 100 + tonumber(ARGV[2]))";
            case 8 -> how + "('append', " + key + ", ARGV[1])";
            case 9 -> how + "('incrbyfloat', " + key + ", 1.5)";
            case 10 -> how + "('rpop', " + key + ")";
            default -> "if redis.call('get', " + key + ") then n = n + 1 end";
        };
    }

    /** A Lua string literal of {@code key} (keys may hold any byte). */
    private static String lua(String key) {
        StringBuilder sb = new StringBuilder("'");
        for (char ch : key.toCharArray()) {
            if (ch < 32 || ch > 126 || ch == '\'' || ch == '\\') {
                sb.append('\\').append((int) ch);
            } else {
                sb.append(ch);
            }
        }
        return sb.append('\'').toString();
    }
}
