package io.kevy.testing.gen;

import static io.kevy.testing.gen.CommandGenerator.argv;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Geo: GEOADD (with NX, XX, CH, sometimes an invalid pair that fails the whole command) on the sorted-set keys,
 * GEOSEARCHSTORE (radius or box, COUNT, STOREDIST) and GEORADIUS ... STORE / GEORADIUSBYMEMBER ... STOREDIST,
 * whose destinations are sorted-set keys too (often another shard's).
 */
final class GeoGenerator implements CommandGenerator {
    @Override
    public String family() {
        return "geo";
    }

    @Override
    public List<Op> ops() {
        return List.of(
                new Op("geoadd", GeoGenerator::geoadd),
                new Op("geosearchstore", GeoGenerator::geosearchstore),
                new Op("georadius", (r, c) -> argv("GEORADIUS", c.key(r, "z"), lon(r), lat(r), size(r), "km",
                        "COUNT", Integer.toString(1 + r.nextInt(8)), "STORE", c.key(r, "z"))),
                new Op("georadiusbymember", (r, c) -> argv("GEORADIUSBYMEMBER", c.key(r, "z"), "g" + r.nextInt(30),
                        size(r), "mi", "STOREDIST", c.key(r, "z"))));
    }

    private static String lon(Random r) {
        return String.format(Locale.ROOT, "%.5f", -180 + 360 * r.nextDouble());
    }

    private static String lat(Random r) {
        return String.format(Locale.ROOT, "%.5f", -85 + 170 * r.nextDouble());
    }

    private static String size(Random r) {
        return Integer.toString(r.nextInt(4) == 0 ? 0 : r.nextInt(3) == 0 ? 50_000 : r.nextInt(5000));
    }

    private static byte[][] geoadd(Random r, Ctx c) {
        List<String> a = new ArrayList<>(List.of("GEOADD", c.key(r, "z")));
        switch (r.nextInt(5)) {
            case 0 -> a.add("NX");
            case 1 -> a.add("XX");
            case 2 -> a.add("CH");
            default -> { }
        }
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
            a.add(lon(r));
            a.add(r.nextInt(30) == 0 ? "89" : lat(r)); // 89: an invalid latitude fails the command
            a.add("g" + r.nextInt(30));
        }
        return argv(a.toArray(new String[0]));
    }

    private static byte[][] geosearchstore(Random r, Ctx c) {
        List<String> a = new ArrayList<>(List.of("GEOSEARCHSTORE", c.key(r, "z"), c.key(r, "z")));
        if (r.nextBoolean()) {
            a.addAll(List.of("FROMMEMBER", "g" + r.nextInt(30)));
        } else {
            a.addAll(List.of("FROMLONLAT", lon(r), lat(r)));
        }
        if (r.nextBoolean()) {
            a.addAll(List.of("BYRADIUS", size(r), "km"));
        } else {
            a.addAll(List.of("BYBOX", size(r), size(r), "km"));
        }
        if (r.nextBoolean()) {
            a.addAll(List.of("COUNT", Integer.toString(1 + r.nextInt(10))));
        }
        if (r.nextBoolean()) {
            a.add("STOREDIST");
        }
        return argv(a.toArray(new String[0]));
    }
}
