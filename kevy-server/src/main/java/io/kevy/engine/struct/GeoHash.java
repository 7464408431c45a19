package io.kevy.engine.struct;

/**
 * Geohashes as Redis 7.0's {@code geohash.c} computes them: a point is a pair of bit strings, one per axis, of
 * {@code step} bits each (1..32), interleaved with the latitude bits in the even positions and the longitude bits
 * in the odd ones. The sorted set of a geo key stores the 26-step (52-bit) hash of the WGS84 ranges
 * ({@link #LON_MIN}..{@link #LON_MAX} by {@link #LAT_MIN}..{@link #LAT_MAX}, the EPSG:900913 limits) as the
 * member's score; GEOHASH re-encodes a point with the standard ranges (latitude -90..90).
 *
 * <p>Everything here is the same double arithmetic, in the same order, as the C code, so the bits, the decoded
 * coordinates and the neighbour boxes are Redis's bit for bit.
 *
 * <p>Stateless; thread-safe.
 */
public final class GeoHash {
    /** The most steps a stored hash has: 26 per axis, 52 bits (Redis's {@code GEO_STEP_MAX}). */
    public static final int STEP_MAX = 26;
    public static final double LAT_MIN = -85.05112878;
    public static final double LAT_MAX = 85.05112878;
    public static final double LON_MIN = -180;
    public static final double LON_MAX = 180;

    private static final long[] B = {0x5555555555555555L, 0x3333333333333333L, 0x0F0F0F0F0F0F0F0FL,
        0x00FF00FF00FF00FFL, 0x0000FFFF0000FFFFL, 0x00000000FFFFFFFFL};
    private static final long EVEN = 0x5555555555555555L;
    private static final long ODD = 0xaaaaaaaaaaaaaaaaL;

    private GeoHash() {
    }

    /** A hash: {@code bits} holding {@code 2 * step} interleaved bits. {@code (0, 0)} is "no box" (Redis's GZERO). */
    public record Bits(long bits, int step) {
        public static final Bits ZERO = new Bits(0, 0);

        public boolean isZero() {
            return bits == 0 && step == 0;
        }
    }

    /** A decoded box: its longitude and latitude ranges, in degrees. */
    public record Area(double lonMin, double lonMax, double latMin, double latMax) {
    }

    /** Spreads the low 32 bits of {@code x} to the even positions and those of {@code y} to the odd ones. */
    static long interleave(long xlo, long ylo) {
        long x = xlo & 0xFFFFFFFFL;
        long y = ylo & 0xFFFFFFFFL;
        for (int i = 4; i >= 0; i--) {
            int s = 1 << i;
            x = (x | (x << s)) & B[i];
            y = (y | (y << s)) & B[i];
        }
        return x | (y << 1);
    }

    /** The inverse of {@link #interleave}: the even bits in the low word, the odd bits in the high word. */
    static long deinterleave(long interleaved) {
        long x = interleaved;
        long y = interleaved >>> 1;
        for (int i = 0; i <= 5; i++) {
            int s = i == 0 ? 0 : 1 << (i - 1);
            x = (x | (x >>> s)) & B[i];
            y = (y | (y >>> s)) & B[i];
        }
        return x | (y << 32);
    }

    /** C's conversion of a non-negative double (below 2^32 here) to {@code uint32_t}: truncation. */
    private static long toUint32(double d) {
        return ((long) d) & 0xFFFFFFFFL;
    }

    /**
     * The hash of {@code (lon, lat)} in the given ranges with {@code step} bits per axis (Redis's
     * {@code geohashEncode}), or null when the point is outside the WGS84 limits or the ranges, or the step is not
     * in 1..32.
     */
    public static Bits encode(double lonMin, double lonMax, double latMin, double latMax, double lon, double lat,
            int step) {
        if (step > 32 || step == 0 || (latMin == 0 && latMax == 0) || (lonMin == 0 && lonMax == 0)) {
            return null;
        }
        if (lon > LON_MAX || lon < LON_MIN || lat > LAT_MAX || lat < LAT_MIN) {
            return null;
        }
        if (lat < latMin || lat > latMax || lon < lonMin || lon > lonMax) {
            return null;
        }
        double latOffset = (lat - latMin) / (latMax - latMin);
        double lonOffset = (lon - lonMin) / (lonMax - lonMin);
        double scale = (double) (1L << step);
        latOffset *= scale;
        lonOffset *= scale;
        return new Bits(interleave(toUint32(latOffset), toUint32(lonOffset)), step);
    }

    /** {@link #encode} in the WGS84 ranges (Redis's {@code geohashEncodeWGS84}). */
    public static Bits encodeWgs84(double lon, double lat, int step) {
        return encode(LON_MIN, LON_MAX, LAT_MIN, LAT_MAX, lon, lat, step);
    }

    /** The box of {@code hash} in the given ranges (Redis's {@code geohashDecode}), or null for a zero hash. */
    public static Area decode(double lonMin, double lonMax, double latMin, double latMax, Bits hash) {
        if (hash.isZero()) {
            return null;
        }
        int step = hash.step();
        long sep = deinterleave(hash.bits());
        double latScale = latMax - latMin;
        double lonScale = lonMax - lonMin;
        long ilato = sep & 0xFFFFFFFFL;
        long ilono = sep >>> 32;
        double div = (double) (1L << step);
        return new Area(
                lonMin + (ilono * 1.0 / div) * lonScale,
                lonMin + (((ilono + 1) & 0xFFFFFFFFL) * 1.0 / div) * lonScale,
                latMin + (ilato * 1.0 / div) * latScale,
                latMin + (((ilato + 1) & 0xFFFFFFFFL) * 1.0 / div) * latScale);
    }

    /** {@link #decode} in the WGS84 ranges. */
    public static Area decodeWgs84(Bits hash) {
        return decode(LON_MIN, LON_MAX, LAT_MIN, LAT_MAX, hash);
    }

    /**
     * The point a sorted-set score stands for: the centre of its 52-bit box, clamped to the WGS84 limits (Redis's
     * {@code decodeGeohash}); {@code {longitude, latitude}}. Any score decodes: it is converted to 64 bits as C's
     * {@code (uint64_t)} cast does on x86-64 ({@link #scoreBits}).
     */
    public static double[] decodeScore(double score) {
        Area a = decodeWgs84(new Bits(scoreBits(score), STEP_MAX));
        double lon = (a.lonMin() + a.lonMax()) / 2;
        lon = Math.max(LON_MIN, Math.min(LON_MAX, lon));
        double lat = (a.latMin() + a.latMax()) / 2;
        lat = Math.max(LAT_MIN, Math.min(LAT_MAX, lat));
        return new double[] {lon, lat};
    }

    /**
     * C's {@code (uint64_t) score} as gcc compiles it for x86-64: values below 2^63 go through the signed
     * conversion (a negative score gives its two's complement; one below -2^63, or NaN, the "integer indefinite"
     * {@code 0x8000000000000000}), larger ones have 2^63 subtracted first and the top bit set back.
     */
    public static long scoreBits(double score) {
        final double two63 = 9.223372036854775808E18;
        if (!(score >= two63)) {
            return signedIndefinite(score);
        }
        return signedIndefinite(score - two63) ^ Long.MIN_VALUE;
    }

    /** x86-64's {@code cvttsd2si}: truncation, or {@code 0x8000000000000000} when out of range or NaN. */
    public static long signedIndefinite(double d) {
        if (Double.isNaN(d) || d >= 9.223372036854775808E18 || d < -9.223372036854775808E18) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }

    /** The 52-bit score of a hash: its bits shifted to the top of 52 (Redis's {@code geohashAlign52Bits}). */
    public static long align52(Bits hash) {
        return hash.bits() << (52 - hash.step() * 2);
    }

    private static long moveX(long bits, int step, int d) {
        long x = bits & ODD;
        long y = bits & EVEN;
        long zz = EVEN >>> (64 - step * 2);
        if (d > 0) {
            x = x + (zz + 1);
        } else {
            x = x | zz;
            x = x - (zz + 1);
        }
        x &= ODD >>> (64 - step * 2);
        return x | y;
    }

    private static long moveY(long bits, int step, int d) {
        long x = bits & ODD;
        long y = bits & EVEN;
        long zz = ODD >>> (64 - step * 2);
        if (d > 0) {
            y = y + (zz + 1);
        } else {
            y = y | zz;
            y = y - (zz + 1);
        }
        y &= EVEN >>> (64 - step * 2);
        return x | y;
    }

    /** The box {@code dx} boxes east (negative: west) and {@code dy} boxes north (negative: south) of {@code h}. */
    public static Bits neighbour(Bits h, int dx, int dy) {
        long bits = h.bits();
        if (dx != 0) {
            bits = moveX(bits, h.step(), dx);
        }
        if (dy != 0) {
            bits = moveY(bits, h.step(), dy);
        }
        return new Bits(bits, h.step());
    }
}
