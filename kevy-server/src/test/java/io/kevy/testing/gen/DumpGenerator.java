package io.kevy.testing.gen;

import static io.kevy.testing.gen.Generators.ttlSeconds;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.dump.DumpEncoder;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.ListValue;
import io.kevy.engine.type.SetValue;
import io.kevy.engine.type.ZSetValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * RESTORE of random values of every type, small and large (each payload made as DUMP makes it, by
 * {@link DumpEncoder}), with REPLACE, a relative or absolute TTL (sometimes already past), IDLETIME or FREQ, and
 * sometimes a corrupt payload, which must change nothing and emit nothing.
 */
final class DumpGenerator implements CommandGenerator {
    private static final String[] AREAS = {"s", "l", "set", "z", "h"};

    @Override
    public String family() {
        return "dump";
    }

    @Override
    public List<Op> ops() {
        return List.of(new Op("restore", DumpGenerator::restore), new Op("restore", DumpGenerator::restore));
    }

    private static byte[][] restore(Random r, Ctx c) {
        int type = r.nextInt(AREAS.length);
        String key = c.key(r, AREAS[type]);
        byte[] payload = DumpEncoder.dump(value(r, type), EncodingLimits.DEFAULTS, r.nextBoolean());
        if (r.nextInt(10) == 0) {
            payload[r.nextInt(payload.length)] ^= (byte) (1 + r.nextInt(255));
        }
        List<byte[]> a = new ArrayList<>();
        a.add(bytes("RESTORE"));
        a.add(bytes(key));
        boolean abs = false;
        String ttl = switch (r.nextInt(4)) {
            case 0 -> Long.toString(ttlSeconds(r) * 1000);
            case 1 -> {
                abs = true;
                yield Long.toString(c.nowMs() + (r.nextInt(5) == 0 ? -10_000 : ttlSeconds(r) * 1000));
            }
            default -> "0";
        };
        a.add(bytes(ttl));
        a.add(payload);
        if (r.nextInt(3) != 0) {
            a.add(bytes("REPLACE"));
        }
        if (abs) {
            a.add(bytes("ABSTTL"));
        }
        switch (r.nextInt(4)) {
            case 0 -> {
                a.add(bytes("IDLETIME"));
                a.add(bytes(Integer.toString(r.nextInt(1000))));
            }
            case 1 -> {
                a.add(bytes("FREQ"));
                a.add(bytes(Integer.toString(r.nextInt(256))));
            }
            default -> { }
        }
        return a.toArray(new byte[0][]);
    }

    private static Object value(Random r, int type) {
        int n = r.nextInt(4) == 0 ? 200 + r.nextInt(1500) : 1 + r.nextInt(10);
        switch (type) {
            case 0:
                return r.nextBoolean() ? bytes(Generators.value(r)) : bytes("x".repeat(r.nextInt(200)));
            case 1: {
                ListValue l = new ListValue();
                for (int i = 0; i < n; i++) {
                    l.pushRight(bytes(Generators.value(r)));
                }
                return l;
            }
            case 2: {
                SetValue s = new SetValue();
                boolean ints = r.nextBoolean();
                for (int i = 0; i < n; i++) {
                    s.add(bytes(ints ? Integer.toString(r.nextInt(100_000) - 50_000) : "m" + r.nextInt(5000)));
                }
                return s;
            }
            case 3: {
                ZSetValue z = new ZSetValue();
                for (int i = 0; i < n; i++) {
                    byte[] m = bytes("m" + r.nextInt(5000));
                    if (!z.contains(m)) {
                        z.insert(m, r.nextInt(8) == 0 ? Double.POSITIVE_INFINITY : r.nextInt(2000) / 8.0 - 100);
                    }
                }
                return z;
            }
            default: {
                HashValue h = new HashValue();
                for (int i = 0; i < n; i++) {
                    h.put(bytes("f" + r.nextInt(5000)), bytes(Generators.value(r)));
                }
                return h;
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
