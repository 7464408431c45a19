package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.GeoHash;
import io.kevy.engine.struct.GeoShape;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.ZSetValue;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;

/**
 * Geo commands, Redis 7.0's {@code geo.c}: a geo index is a sorted set whose scores are the members' 52-bit
 * geohashes ({@link GeoHash}). This file registers the family and holds GEOADD, GEODIST, GEOHASH and GEOPOS;
 * the searches (GEOSEARCH, GEOSEARCHSTORE, GEORADIUS and GEORADIUSBYMEMBER with their {@code _RO} forms) are in
 * {@link GeoSearchCommands}. Argument readers shared by both (a longitude/latitude pair, a unit) are here.
 *
 * <p>Replies as Redis's: distances with exactly 4 decimals ({@code fixedpoint_d2string}), coordinates as
 * {@code %.17Lf} without trailing zeros ({@code addReplyHumanLongDouble}), GEOHASH as the 11-character standard
 * geohash (latitude range -90..90, the last character always {@code 0}).
 *
 * <p>Frames (feed contract §7): GEOADD is ZADD with the computed scores, so it emits what ZADD emits:
 * {@code ZADD k <score> <m> ...} for the members added or moved (Redis propagates the rewritten ZADD). The
 * STORE forms of the searches emit what the sorted-set *STORE commands emit ({@link ZSetArgs#store}).
 */
final class GeoCommands {
    static final String GROUP = "geo";
    static final ErrorReply UNDECODABLE_MEMBER = ErrorReply.err("could not decode requested zset member");
    static final ErrorReply BAD_UNIT = ErrorReply.err("unsupported unit provided. please use M, KM, FT, MI");

    private GeoCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("geoadd", -5).flags(WRITE, DENYOOM).keys(1, 1, 1).group(GROUP).since("3.2.0")
                .summary("Add one or more geospatial items in the geospatial index represented using a sorted set")
                .complexity("O(log(N)) for each item added, where N is the number of elements in the sorted set.")
                .handler(GeoCommands::geoadd));
        t.add(command("geodist", -4).flags(READONLY).keys(1, 1, 1).group(GROUP).since("3.2.0")
                .summary("Returns the distance between two members of a geospatial index").complexity("O(log(N))")
                .handler(GeoCommands::geodist));
        t.add(command("geohash", -2).flags(READONLY).keys(1, 1, 1).group(GROUP).since("3.2.0")
                .summary("Returns members of a geospatial index as standard geohash strings")
                .complexity("O(log(N)) for each member requested, where N is the number of elements in the sorted "
                        + "set.")
                .handler(GeoCommands::geohash));
        t.add(command("geopos", -2).flags(READONLY).keys(1, 1, 1).group(GROUP).since("3.2.0")
                .summary("Returns longitude and latitude of members of a geospatial index")
                .complexity("O(N) where N is the number of members requested.").handler(GeoCommands::geopos));
        GeoSearchCommands.register(t);
    }

    /**
     * The longitude and latitude at {@code argv[i]} and {@code argv[i + 1]} (Redis's {@code extractLongLatOrReply}):
     * {@link Errors#NOT_FLOAT} when one is not a float, "invalid longitude,latitude pair" (both printed with
     * {@code %f}) when outside the WGS84 limits.
     */
    static double[] lonLat(Call c, int i) {
        double lon = ZSetArgs.score(c.arg(i));
        double lat = ZSetArgs.score(c.arg(i + 1));
        if (lon < GeoHash.LON_MIN || lon > GeoHash.LON_MAX || lat < GeoHash.LAT_MIN || lat > GeoHash.LAT_MAX) {
            throw Call.fail(ErrorReply.err("invalid longitude,latitude pair " + RedisNumbers.printfF(lon, 6) + ","
                    + RedisNumbers.printfF(lat, 6)));
        }
        return new double[] {lon, lat};
    }

    /** Meters per unit for {@code m}, {@code km}, {@code ft}, {@code mi} (any case); {@link #BAD_UNIT} otherwise. */
    static double unit(byte[] u) {
        String s = new String(u, StandardCharsets.ISO_8859_1);
        if (s.equalsIgnoreCase("m")) {
            return 1;
        } else if (s.equalsIgnoreCase("km")) {
            return 1000;
        } else if (s.equalsIgnoreCase("ft")) {
            return 0.3048;
        } else if (s.equalsIgnoreCase("mi")) {
            return 1609.34;
        }
        throw Call.fail(BAD_UNIT);
    }

    /** A distance reply: a bulk string with exactly 4 decimals (Redis's {@code addReplyDoubleDistance}). */
    static void replyDistance(ReplySink r, double d) {
        r.bulk(RedisNumbers.formatFixed(d, 4));
    }

    /**
     * A {@code [longitude, latitude]} reply (Redis's {@code addReplyHumanLongDouble} twice: bulk strings on RESP2,
     * doubles on RESP3).
     */
    static void replyCoordinates(ReplySink r, double[] xy) {
        r.array(2);
        r.doubleText(io.kevy.engine.text.Bytes.utf8(RedisNumbers.formatHuman(xy[0])));
        r.doubleText(io.kevy.engine.text.Bytes.utf8(RedisNumbers.formatHuman(xy[1])));
    }

    /** The 52-bit score of a point as GEOADD stores it. */
    static double score(double lon, double lat) {
        return (double) GeoHash.align52(GeoHash.encodeWgs84(lon, lat, GeoHash.STEP_MAX));
    }

    /** GEOADD key [NX|XX] [CH] lon lat member ...: ZADD of the members' geohash scores. */
    private static void geoadd(Call c) {
        int flags = 0;
        int lonIdx = 2;
        for (; lonIdx < c.argc(); lonIdx++) {
            if (c.argIs(lonIdx, "nx")) {
                flags |= ZSetCommands.NX;
            } else if (c.argIs(lonIdx, "xx")) {
                flags |= ZSetCommands.XX;
            } else if (c.argIs(lonIdx, "ch")) {
                flags |= ZSetCommands.CH;
            } else {
                break;
            }
        }
        int rest = c.argc() - lonIdx;
        boolean nxAndXx = (flags & ZSetCommands.NX) != 0 && (flags & ZSetCommands.XX) != 0;
        if (rest % 3 != 0 || nxAndXx || rest == 0) { // no element: ZADD's own syntax error
            throw Call.fail(Errors.SYNTAX);
        }
        int elements = rest / 3;
        double[] scores = new double[elements];
        byte[][] members = new byte[elements][];
        for (int j = 0; j < elements; j++) {
            double[] xy = lonLat(c, lonIdx + j * 3);
            scores[j] = score(xy[0], xy[1]);
            members[j] = c.arg(lonIdx + j * 3 + 2);
        }
        ZSetCommands.add(c, flags, scores, members);
    }

    /** GEODIST key member1 member2 [unit]: the distance, or a null bulk when a member or the key is missing. */
    private static void geodist(Call c) {
        double toMeter = 1;
        if (c.argc() == 5) {
            toMeter = unit(c.arg(4));
        } else if (c.argc() > 5) {
            throw Call.fail(Errors.SYNTAX);
        }
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        double s1 = z == null ? Double.NaN : z.score(c.arg(2));
        double s2 = z == null ? Double.NaN : z.score(c.arg(3));
        if (Double.isNaN(s1) || Double.isNaN(s2)) {
            c.reply().nullBulk();
            return;
        }
        double[] a = GeoHash.decodeScore(s1);
        double[] b = GeoHash.decodeScore(s2);
        replyDistance(c.reply(), GeoShape.distance(a[0], a[1], b[0], b[1]) / toMeter);
    }

    private static final byte[] ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);

    /** GEOHASH key member ...: each member's 11-character geohash, or a null bulk. */
    private static void geohash(Call c) {
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        c.reply().array(c.argc() - 2);
        for (int j = 2; j < c.argc(); j++) {
            double score = z == null ? Double.NaN : z.score(c.arg(j));
            if (Double.isNaN(score)) {
                c.reply().nullBulk();
                continue;
            }
            double[] xy = GeoHash.decodeScore(score);
            GeoHash.Bits hash = GeoHash.encode(-180, 180, -90, 90, xy[0], xy[1], 26);
            byte[] buf = new byte[11];
            for (int i = 0; i < 11; i++) {
                int idx = i == 10 ? 0 : (int) ((hash.bits() >>> (52 - (i + 1) * 5)) & 0x1f);
                buf[i] = ALPHABET[idx];
            }
            c.reply().bulk(buf);
        }
    }

    /** GEOPOS key member ...: each member's {@code [longitude, latitude]}, or a null array. */
    private static void geopos(Call c) {
        ZSetValue z = c.read(c.arg(1), ZSetValue.class);
        c.reply().array(c.argc() - 2);
        for (int j = 2; j < c.argc(); j++) {
            double score = z == null ? Double.NaN : z.score(c.arg(j));
            if (Double.isNaN(score)) {
                c.reply().nullArray();
            } else {
                replyCoordinates(c.reply(), GeoHash.decodeScore(score));
            }
        }
    }
}
