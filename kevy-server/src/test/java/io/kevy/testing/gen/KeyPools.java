package io.kevy.testing.gen;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Keys by area: strings, hashes, lists, sets, sorted sets, keys sharing a hash tag, HyperLogLogs, streams; "any" picks
 * from all, except the {@code xg} streams, which only {@link StreamGenerator}'s modelled operations touch (so that
 * its {@link StreamModel} stays true). Also holds the workload's models ({@link #state}).
 */
final class KeyPools implements CommandGenerator.Ctx {
    private final Map<String, List<String>> areas = new TreeMap<>();
    private final List<String> all = new ArrayList<>();
    private final Map<Class<?>, Object> states = new HashMap<>();

    KeyPools() {
        area("s", "s:", 12);
        area("h", "h:", 6);
        area("l", "l:", 5);
        area("set", "set:", 5);
        area("z", "z:", 5);
        area("t", "{t}", 3);
        area("hll", "hll:", 4);
        area("x", "x:", 4);
        area("xs", "xs:", 2);
        area("xg", "xg:", StreamModel.KEYS);
        all.removeAll(areas.get("xg"));
        all.add(new String(new byte[] {'b', 0, (byte) 0xff, '\r', '\n'}, StandardCharsets.ISO_8859_1));
    }

    private void area(String name, String prefix, int n) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(prefix + i);
        }
        areas.put(name, l);
        all.addAll(l);
    }

    @Override
    public String key(Random rnd, String area) {
        List<String> l = areas.get(area);
        if (l == null || rnd.nextInt(20) < 3) {
            l = all;
        }
        return l.get(rnd.nextInt(l.size()));
    }

    @Override
    public long nowMs() {
        return System.currentTimeMillis();
    }

    @Override
    public <T> T state(Class<T> type, Supplier<T> make) {
        return type.cast(states.computeIfAbsent(type, t -> make.get()));
    }
}
