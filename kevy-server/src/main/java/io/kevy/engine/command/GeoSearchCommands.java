package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import static io.kevy.engine.command.GeoCommands.GROUP;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.GeoHash;
import io.kevy.engine.struct.GeoShape;
import io.kevy.engine.struct.SkipList;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The geo searches, Redis 7.0's {@code georadiusGeneric}: GEOSEARCH, GEOSEARCHSTORE, GEORADIUS,
 * GEORADIUS_RO, GEORADIUSBYMEMBER and GEORADIUSBYMEMBER_RO.
 *
 * <p>A search scans the score ranges of up to nine geohash boxes around the centre ({@link GeoShape#searchBoxes},
 * in Redis's order, a box equal to the one scanned before it skipped), keeps the members inside the circle or box
 * with their distance, then sorts by distance when ASC, DESC or COUNT (without ANY) asks. COUNT ... ANY stops
 * scanning once that many were found. Without sorting, the order is the scan's, as in Redis.
 *
 * <p>Errors in Redis's order: WRONGTYPE for the source, then (GEORADIUS*) the centre and the radius, then the
 * options from left to right (a FROMMEMBER whose member is missing, a bad FROMLONLAT, BYRADIUS or BYBOX fail
 * where they stand), then the conflicts: STORE with WITH* options, a missing FROM* or BY*, ANY without COUNT.
 * A missing source replies an empty array, or 0 and deletes the destination for a STORE form.
 *
 * <p>Frames (feed contract §7): a STORE form emits what the sorted-set *STORE commands emit for their
 * destination ({@link ZSetArgs#store}): {@code DEL dst} and the {@code ZADD dst ...} rebuild of a non-empty
 * result (scores: the geohashes, or the distances in the unit with STOREDIST), {@code DEL dst} alone when an
 * empty result removed an existing key, nothing otherwise.
 */
final class GeoSearchCommands {
    private static final int COORDS = 1;
    private static final int MEMBER = 2;
    private static final int NOSTORE = 4;
    private static final int SEARCH = 8;
    private static final int SEARCHSTORE = 16;

    private static final ErrorReply COUNT_POSITIVE = ErrorReply.err("COUNT must be > 0");
    private static final ErrorReply ANY_NEEDS_COUNT = ErrorReply.err("the ANY argument requires COUNT argument");
    private static final ErrorReply RADIUS_NOT_FLOAT = ErrorReply.err("need numeric radius");
    private static final ErrorReply RADIUS_NEGATIVE = ErrorReply.err("radius cannot be negative");
    private static final ErrorReply WIDTH_NOT_FLOAT = ErrorReply.err("need numeric width");
    private static final ErrorReply HEIGHT_NOT_FLOAT = ErrorReply.err("need numeric height");
    private static final ErrorReply BOX_NEGATIVE = ErrorReply.err("height or width cannot be negative");
    private static final String COMPLEXITY_SEARCH = "O(N+log(M)) where N is the number of elements in the "
            + "grid-aligned bounding box area around the shape provided as the filter and M is the number of items "
            + "inside the shape";
    private static final String COMPLEXITY_RADIUS = "O(N+log(M)) where N is the number of elements inside the "
            + "bounding box of the circular area delimited by center and radius and M is the number of items inside "
            + "the index.";

    /** A point found inside the shape. */
    private record Point(byte[] member, double score, double lon, double lat, double dist) {
    }

    private GeoSearchCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("geosearch", -7).flags(READONLY).keys(1, 1, 1).group(GROUP).since("6.2.0")
                .summary("Query a sorted set representing a geospatial index to fetch members inside an area of a "
                        + "box or a circle.")
                .complexity(COMPLEXITY_SEARCH).handler(c -> search(c, 1, SEARCH)));
        t.add(command("geosearchstore", -8).flags(WRITE, DENYOOM).keys(1, 2, 1).keyFlags("OW", "update")
                .sourceKeyFlags("RO", "access").group(GROUP).since("6.2.0")
                .summary("Query a sorted set representing a geospatial index to fetch members inside an area of a "
                        + "box or a circle, and store the result in another key.")
                .complexity(COMPLEXITY_SEARCH).handler(c -> search(c, 2, SEARCH | SEARCHSTORE)));
        t.add(command("georadius", -6).flags(WRITE, DENYOOM).keys(1, 1, 1, argv -> radiusKeys(argv, 6))
                .keyFlags("RO", "access").keywordKeys(6, "STORE", "STOREDIST").group(GROUP).since("3.2.0")
                .summary("Query a sorted set representing a geospatial index to fetch members matching a given "
                        + "maximum distance from a point")
                .complexity(COMPLEXITY_RADIUS).handler(c -> search(c, 1, COORDS)));
        t.add(command("georadius_ro", -6).flags(READONLY).keys(1, 1, 1).group(GROUP).since("3.2.10")
                .summary("A read-only variant for GEORADIUS").complexity(COMPLEXITY_RADIUS)
                .handler(c -> search(c, 1, COORDS | NOSTORE)));
        t.add(command("georadiusbymember", -5).flags(WRITE, DENYOOM).keys(1, 1, 1, argv -> radiusKeys(argv, 5))
                .keyFlags("RO", "access").keywordKeys(5, "STORE", "STOREDIST").group(GROUP)
                .since("3.2.0")
                .summary("Query a sorted set representing a geospatial index to fetch members matching a given "
                        + "maximum distance from a member")
                .complexity(COMPLEXITY_RADIUS)
                .handler(c -> search(c, 1, MEMBER)));
        t.add(command("georadiusbymember_ro", -5).flags(READONLY).keys(1, 1, 1).group(GROUP).since("3.2.10")
                .summary("A read-only variant for GEORADIUSBYMEMBER")
                .complexity(COMPLEXITY_RADIUS)
                .handler(c -> search(c, 1, MEMBER | NOSTORE)));
    }

    /**
     * GEORADIUS and GEORADIUSBYMEMBER's keys as Redis 7.0's key specs find them: the source, the key after the
     * first STORE and the key after the first STOREDIST from argument {@code from} on; then, so that the lock
     * covers the destination the command uses (the last one given), the keys after any later STORE/STOREDIST.
     * Never null.
     */
    private static int[] radiusKeys(byte[][] argv, int from) {
        if (argv.length < 2) {
            return new int[0];
        }
        List<Integer> pos = new ArrayList<>(List.of(1));
        for (String keyword : List.of("store", "storedist")) {
            for (int i = from; i + 1 < argv.length; i++) {
                if (Bytes.equalsIgnoreCase(argv[i], keyword)) {
                    pos.add(i + 1);
                    break;
                }
            }
        }
        for (int i = from; i + 1 < argv.length; i++) {
            if ((Bytes.equalsIgnoreCase(argv[i], "store") || Bytes.equalsIgnoreCase(argv[i], "storedist"))
                    && !pos.contains(i + 1)) {
                pos.add(i + 1);
            }
        }
        return pos.stream().mapToInt(Integer::intValue).toArray();
    }

    private static double radius(Call c, int i) {
        double r = ZSetArgs.score(c.arg(i), RADIUS_NOT_FLOAT);
        if (r < 0) {
            throw Call.fail(RADIUS_NEGATIVE);
        }
        return r;
    }

    /** The centre of a FROMMEMBER / GEORADIUSBYMEMBER search: the member's point, or UNDECODABLE_MEMBER. */
    private static double[] memberPoint(ZSetValue z, byte[] member) {
        double score = z.score(member);
        if (Double.isNaN(score)) {
            throw Call.fail(GeoCommands.UNDECODABLE_MEMBER);
        }
        return GeoHash.decodeScore(score);
    }

    private static void search(Call c, int srcIdx, int flags) {
        byte[] storeKey = null;
        boolean storeDist = false;
        ZSetValue z = c.read(c.arg(srcIdx), ZSetValue.class);
        double[] xy = {0, 0};
        boolean circle = false;
        double radius = 0;
        double width = 0;
        double height = 0;
        double conversion = 0;
        int base;
        if ((flags & COORDS) != 0) {
            base = 6;
            circle = true;
            xy = GeoCommands.lonLat(c, 2);
            radius = radius(c, 4);
            conversion = GeoCommands.unit(c.arg(5));
        } else if ((flags & MEMBER) != 0) {
            base = 5;
            if (z != null) {
                circle = true;
                xy = memberPoint(z, c.arg(2));
                radius = radius(c, 3);
                conversion = GeoCommands.unit(c.arg(4));
            }
        } else {
            base = 2;
            if ((flags & SEARCHSTORE) != 0) {
                base = 3;
                storeKey = c.arg(1);
            }
        }
        boolean withDist = false;
        boolean withHash = false;
        boolean withCoords = false;
        boolean fromMember = false;
        boolean fromLoc = false;
        boolean byRadius = false;
        boolean byBox = false;
        int sort = 0; // 0 none, 1 asc, 2 desc
        boolean any = false;
        long count = 0;
        boolean search = (flags & SEARCH) != 0;
        boolean storeAllowed = (flags & NOSTORE) == 0 && !search;
        int remaining = c.argc() - base;
        for (int i = 0; i < remaining; i++) {
            int at = base + i;
            if (c.argIs(at, "withdist")) {
                withDist = true;
            } else if (c.argIs(at, "withhash")) {
                withHash = true;
            } else if (c.argIs(at, "withcoord")) {
                withCoords = true;
            } else if (c.argIs(at, "any")) {
                any = true;
            } else if (c.argIs(at, "asc")) {
                sort = 1;
            } else if (c.argIs(at, "desc")) {
                sort = 2;
            } else if (c.argIs(at, "count") && i + 1 < remaining) {
                count = c.longArg(at + 1);
                if (count <= 0) {
                    throw Call.fail(COUNT_POSITIVE);
                }
                i++;
            } else if (c.argIs(at, "store") && i + 1 < remaining && storeAllowed) {
                storeKey = c.arg(at + 1);
                storeDist = false;
                i++;
            } else if (c.argIs(at, "storedist") && i + 1 < remaining && storeAllowed) {
                storeKey = c.arg(at + 1);
                storeDist = true;
                i++;
            } else if (c.argIs(at, "storedist") && search && (flags & SEARCHSTORE) != 0) {
                storeDist = true;
            } else if (c.argIs(at, "frommember") && i + 1 < remaining && search && !fromLoc) {
                if (z != null) {
                    xy = memberPoint(z, c.arg(at + 1));
                }
                fromMember = true;
                i++;
            } else if (c.argIs(at, "fromlonlat") && i + 2 < remaining && search && !fromMember) {
                xy = GeoCommands.lonLat(c, at + 1);
                fromLoc = true;
                i += 2;
            } else if (c.argIs(at, "byradius") && i + 2 < remaining && search && !byBox) {
                radius = radius(c, at + 1);
                conversion = GeoCommands.unit(c.arg(at + 2));
                circle = true;
                byRadius = true;
                i += 2;
            } else if (c.argIs(at, "bybox") && i + 3 < remaining && search && !byRadius) {
                width = ZSetArgs.score(c.arg(at + 1), WIDTH_NOT_FLOAT);
                height = ZSetArgs.score(c.arg(at + 2), HEIGHT_NOT_FLOAT);
                if (height < 0 || width < 0) {
                    throw Call.fail(BOX_NEGATIVE);
                }
                conversion = GeoCommands.unit(c.arg(at + 3));
                circle = false;
                byBox = true;
                i += 3;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        if (storeKey != null && (withDist || withHash || withCoords)) {
            throw Call.fail(ErrorReply.err(((flags & SEARCHSTORE) != 0 ? "GEOSEARCHSTORE" : "STORE option in GEORADIUS")
                    + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options"));
        }
        String name = new String(c.arg(0), java.nio.charset.StandardCharsets.ISO_8859_1);
        if (search && !(fromMember || fromLoc)) {
            throw Call.fail(ErrorReply.err("exactly one of FROMMEMBER or FROMLONLAT can be specified for " + name));
        }
        if (search && !(byRadius || byBox)) {
            throw Call.fail(ErrorReply.err("exactly one of BYRADIUS and BYBOX can be specified for " + name));
        }
        if (any && count == 0) {
            throw Call.fail(ANY_NEEDS_COUNT);
        }
        if (z == null) {
            if (storeKey != null) {
                ZSetArgs.store(c, storeKey, new ZSetValue(c.engine().encodings()));
            } else {
                c.reply().array(0);
            }
            return;
        }
        if (count != 0 && sort == 0 && !any) {
            sort = 1;
        }
        GeoShape shape = circle ? GeoShape.circle(xy[0], xy[1], radius, conversion)
                : GeoShape.box(xy[0], xy[1], width, height, conversion);
        List<Point> found = scan(z, shape, any ? count : 0);
        if (found.isEmpty() && storeKey == null) {
            c.reply().array(0);
            return;
        }
        int returned = (int) (count == 0 || found.size() < count ? found.size() : count);
        if (sort != 0) {
            Comparator<Point> byDist = Comparator.comparingDouble(Point::dist);
            found.sort(sort == 1 ? byDist : byDist.reversed());
        }
        if (storeKey == null) {
            reply(c.reply(), found, returned, conversion, withDist, withHash, withCoords);
        } else {
            ZSetValue result = new ZSetValue(true, c.engine().encodings());
            for (int i = 0; i < returned; i++) {
                Point p = found.get(i);
                result.insert(p.member(), storeDist ? p.dist() / conversion : p.score());
            }
            result.convertToListpackIfFits();
            ZSetArgs.store(c, storeKey, result);
        }
    }

    private static void reply(ReplySink r, List<Point> found, int returned, double conversion, boolean withDist,
            boolean withHash, boolean withCoords) {
        int options = (withDist ? 1 : 0) + (withCoords ? 1 : 0) + (withHash ? 1 : 0);
        r.array(returned);
        for (int i = 0; i < returned; i++) {
            Point p = found.get(i);
            if (options > 0) {
                r.array(options + 1);
            }
            r.bulk(p.member());
            if (withDist) {
                GeoCommands.replyDistance(r, p.dist() / conversion);
            }
            if (withHash) {
                r.integer(GeoHash.signedIndefinite(p.score()));
            }
            if (withCoords) {
                GeoCommands.replyCoordinates(r, new double[] {p.lon(), p.lat()});
            }
        }
    }

    /**
     * The members inside {@code shape}, box by box in Redis's order (Redis's {@code membersOfAllNeighbors}); with
     * {@code limit > 0} (ANY) the scan stops once that many were found.
     */
    private static List<Point> scan(ZSetValue z, GeoShape shape, long limit) {
        List<Point> out = new ArrayList<>();
        List<GeoHash.Bits> boxes = shape.searchBoxes();
        int last = 0;
        for (int i = 0; i < boxes.size(); i++) {
            GeoHash.Bits box = boxes.get(i);
            if (box.isZero()) {
                continue;
            }
            // huge radii: adjacent neighbours can be the same box; as in Redis, only a box after the centre's
            // one (index > 0) is compared with
            if (last > 0 && box.equals(boxes.get(last))) {
                continue;
            }
            if (!out.isEmpty() && limit > 0 && out.size() >= limit) {
                break;
            }
            inBox(z, box, shape, out, limit);
            last = i;
        }
        return out;
    }

    /** Appends the members of one box's score range {@code [min, max)} that are inside the shape. */
    private static void inBox(ZSetValue z, GeoHash.Bits box, GeoShape shape, List<Point> out, long limit) {
        double min = (double) GeoHash.align52(box);
        double max = (double) GeoHash.align52(new GeoHash.Bits(box.bits() + 1, box.step()));
        SkipList.ScoreRange range = new SkipList.ScoreRange(min, false, max, true);
        for (SkipList.Node n = z.list().firstInRange(range); n != null; n = n.next()) {
            if (!range.lteMax(n.score())) {
                break;
            }
            double[] xy = GeoHash.decodeScore(n.score());
            double dist = shape.distanceIfInside(xy[0], xy[1]);
            if (!Double.isNaN(dist)) {
                out.add(new Point(n.member(), n.score(), xy[0], xy[1], dist));
            }
            if (!out.isEmpty() && limit > 0 && out.size() >= limit) {
                break;
            }
        }
    }
}
