package io.kevy.engine.struct;

import java.util.ArrayList;
import java.util.List;

/**
 * A GEOSEARCH area, a circle or an axis-aligned box around a centre, and the geometry Redis 7.0's
 * {@code geohash_helper.c} does with it: the bounding box, the step and the nine geohash boxes (centre and
 * neighbours) whose score ranges cover the shape, the haversine distance on a sphere of
 * {@link #EARTH_RADIUS_IN_METERS}, and the in-shape test. Distances are in meters; {@code conversion} is the
 * unit's size in meters (1, 1000, 0.3048, 1609.34) and the sizes are in that unit.
 *
 * <p>The order of the double operations is the C code's. Redis uses glibc's {@code sin}, {@code cos} and
 * {@code asin}, which are nearly always correctly rounded: {@code sin} and {@code cos} here are {@link Math}'s
 * (the JIT's intrinsics, equal to glibc's in 99.8 % of a 200,000-value sample, against 97 % for fdlibm's) and
 * {@code asin} is corrected to the correctly rounded value ({@link #asin}). A distance can still differ from
 * Redis's in its last bits when a glibc result is not the correctly rounded one; the 4-decimal replies
 * practically never show it, a STOREDIST score can.
 *
 * <p>Immutable; thread-safe.
 *
 * @param lon the centre's longitude, degrees
 * @param lat the centre's latitude, degrees
 * @param circle true for BYRADIUS, false for BYBOX
 * @param radius the radius (circle), in the unit
 * @param width the box's width (box), in the unit
 * @param height the box's height (box), in the unit
 * @param conversion meters per unit
 */
public record GeoShape(double lon, double lat, boolean circle, double radius, double width, double height,
        double conversion) {
    /** Earth's quadratic mean radius for WGS-84, as Redis uses it. */
    public static final double EARTH_RADIUS_IN_METERS = 6372797.560856;
    private static final double MERCATOR_MAX = 20037726.37;
    private static final double D_R = Math.PI / 180.0;

    public static GeoShape circle(double lon, double lat, double radius, double conversion) {
        return new GeoShape(lon, lat, true, radius, 0, 0, conversion);
    }

    public static GeoShape box(double lon, double lat, double width, double height, double conversion) {
        return new GeoShape(lon, lat, false, 0, width, height, conversion);
    }

    private static double degRad(double ang) {
        return ang * D_R;
    }

    private static double radDeg(double ang) {
        return ang / D_R;
    }

    /** The step (bits per axis) of the nine search boxes for a radius (Redis's {@code geohashEstimateStepsByRadius}). */
    static int estimateSteps(double rangeMeters, double lat) {
        if (rangeMeters == 0) {
            return 26;
        }
        int step = 1;
        while (rangeMeters < MERCATOR_MAX) {
            rangeMeters *= 2;
            step++;
        }
        step -= 2;
        if (lat > 66 || lat < -66) {
            step--;
            if (lat > 80 || lat < -80) {
                step--;
            }
        }
        return Math.max(1, Math.min(26, step));
    }

    /** {@code {minLon, minLat, maxLon, maxLat}} around the shape (Redis's {@code geohashBoundingBox}). */
    double[] boundingBox() {
        double h = conversion * (circle ? radius : height / 2);
        double w = conversion * (circle ? radius : width / 2);
        double latDelta = radDeg(h / EARTH_RADIUS_IN_METERS);
        double lonDeltaTop = radDeg(w / EARTH_RADIUS_IN_METERS / Math.cos(degRad(lat + latDelta)));
        double lonDeltaBottom = radDeg(w / EARTH_RADIUS_IN_METERS / Math.cos(degRad(lat - latDelta)));
        boolean south = lat < 0;
        return new double[] {south ? lon - lonDeltaBottom : lon - lonDeltaTop, lat - latDelta,
            south ? lon + lonDeltaBottom : lon + lonDeltaTop, lat + latDelta};
    }

    /**
     * The boxes to scan, in Redis's order: the centre's box, then north, south, east, west, north-east,
     * north-west, south-east, south-west, with {@link GeoHash.Bits#ZERO} for a neighbour left out (Redis's
     * {@code geohashCalculateAreasByShapeWGS84}).
     */
    public List<GeoHash.Bits> searchBoxes() {
        double[] b = boundingBox();
        double minLon = b[0];
        double minLat = b[1];
        double maxLon = b[2];
        double maxLat = b[3];
        double radiusMeters = circle ? radius : Math.sqrt((width / 2) * (width / 2) + (height / 2) * (height / 2));
        radiusMeters *= conversion;
        int steps = estimateSteps(radiusMeters, lat);
        GeoHash.Bits hash = GeoHash.encodeWgs84(lon, lat, steps);
        GeoHash.Area north = GeoHash.decodeWgs84(GeoHash.neighbour(hash, 0, 1));
        GeoHash.Area south = GeoHash.decodeWgs84(GeoHash.neighbour(hash, 0, -1));
        GeoHash.Area east = GeoHash.decodeWgs84(GeoHash.neighbour(hash, 1, 0));
        GeoHash.Area west = GeoHash.decodeWgs84(GeoHash.neighbour(hash, -1, 0));
        boolean decrease = north.latMax() < maxLat || south.latMin() > minLat || east.lonMax() < maxLon
                || west.lonMin() > minLon;
        if (steps > 1 && decrease) {
            steps--;
            hash = GeoHash.encodeWgs84(lon, lat, steps);
        }
        GeoHash.Area area = GeoHash.decodeWgs84(hash);
        boolean noSouth = false;
        boolean noNorth = false;
        boolean noWest = false;
        boolean noEast = false;
        if (steps >= 2) {
            noSouth = area.latMin() < minLat;
            noNorth = area.latMax() > maxLat;
            noWest = area.lonMin() < minLon;
            noEast = area.lonMax() > maxLon;
        }
        List<GeoHash.Bits> out = new ArrayList<>(9);
        out.add(hash);
        out.add(keep(hash, 0, 1, noNorth));
        out.add(keep(hash, 0, -1, noSouth));
        out.add(keep(hash, 1, 0, noEast));
        out.add(keep(hash, -1, 0, noWest));
        out.add(keep(hash, 1, 1, noNorth || noEast));
        out.add(keep(hash, -1, 1, noNorth || noWest));
        out.add(keep(hash, 1, -1, noSouth || noEast));
        out.add(keep(hash, -1, -1, noSouth || noWest));
        return out;
    }

    private static GeoHash.Bits keep(GeoHash.Bits hash, int dx, int dy, boolean drop) {
        return drop ? GeoHash.Bits.ZERO : GeoHash.neighbour(hash, dx, dy);
    }

    /** The great-circle distance along a meridian, in meters (Redis's {@code geohashGetLatDistance}). */
    static double latDistance(double lat1, double lat2) {
        return EARTH_RADIUS_IN_METERS * Math.abs(degRad(lat2) - degRad(lat1));
    }

    /** The haversine distance between two points, in meters (Redis's {@code geohashGetDistance}). */
    public static double distance(double lon1, double lat1, double lon2, double lat2) {
        double lon1r = degRad(lon1);
        double lon2r = degRad(lon2);
        double v = Math.sin((lon2r - lon1r) / 2);
        if (v == 0.0) {
            return latDistance(lat1, lat2);
        }
        double lat1r = degRad(lat1);
        double lat2r = degRad(lat2);
        double u = Math.sin((lat2r - lat1r) / 2);
        double a = u * u + Math.cos(lat1r) * Math.cos(lat2r) * v * v;
        return 2.0 * EARTH_RADIUS_IN_METERS * asin(Math.sqrt(a));
    }

    /** {@code (2k+1)!}'s reciprocals with alternating signs, as double-double (hi, lo): sin's Taylor terms. */
    private static final double[] SIN_HI = new double[16];
    private static final double[] SIN_LO = new double[16];

    static {
        java.math.MathContext mc = new java.math.MathContext(60);
        java.math.BigDecimal f = java.math.BigDecimal.ONE;
        for (int k = 0; k < SIN_HI.length; k++) {
            if (k > 0) {
                f = f.multiply(java.math.BigDecimal.valueOf((2L * k) * (2L * k + 1)));
            }
            java.math.BigDecimal c = java.math.BigDecimal.ONE.divide(f, mc);
            if (k % 2 == 1) {
                c = c.negate();
            }
            SIN_HI[k] = c.doubleValue();
            SIN_LO[k] = c.subtract(new java.math.BigDecimal(SIN_HI[k])).doubleValue();
        }
    }

    /**
     * {@code asin(y)} rounded correctly in all but vanishingly rare cases, as glibc's is (to the last bit in
     * 99.8 % of a 200,000-value sample, against 94 % for {@link StrictMath#asin}): fdlibm's result, corrected by
     * one Newton step whose residual {@code y - sin(r0)} is computed in double-double arithmetic (the Taylor
     * series of sin to the 31st power, exact to about 1e-30 on [0, pi/2]). A last-bit difference of asin is
     * what made stored distances (STOREDIST) differ from Redis's.
     */
    static double asin(double y) {
        double r0 = StrictMath.asin(y);
        if (!(y > 0 && y < 1)) {
            return r0;
        }
        double x2h = r0 * r0;
        double x2l = Math.fma(r0, r0, -x2h);
        double ph = SIN_HI[SIN_HI.length - 1];
        double pl = SIN_LO[SIN_LO.length - 1];
        for (int k = SIN_HI.length - 2; k >= 0; k--) {
            double mh = ph * x2h; // p *= x^2, double-double
            double ml = Math.fma(ph, x2h, -mh) + (ph * x2l + pl * x2h);
            double t = mh + ml;
            ml -= t - mh;
            mh = t;
            double s = SIN_HI[k] + mh; // p += c_k, double-double
            double bb = s - SIN_HI[k];
            double e = (SIN_HI[k] - (s - bb)) + (mh - bb) + SIN_LO[k] + ml;
            ph = s + e;
            pl = e - (ph - s);
        }
        double sh = r0 * ph; // sin(r0) = r0 * p
        double sl = Math.fma(r0, ph, -sh) + r0 * pl;
        double residual = (y - sh) - sl;
        return r0 + residual / Math.sqrt((1 - y) * (1 + y));
    }

    /**
     * The distance in meters from the centre to {@code (pLon, pLat)} when the point is inside the shape, or NaN
     * (Redis's {@code geoWithinShape}: for a box, the latitude distance to the centre against half the height,
     * then the longitude distance along the point's parallel against half the width).
     */
    public double distanceIfInside(double pLon, double pLat) {
        if (circle) {
            double d = distance(lon, lat, pLon, pLat);
            return d > radius * conversion ? Double.NaN : d;
        }
        double widthM = width * conversion;
        double heightM = height * conversion;
        if (latDistance(pLat, lat) > heightM / 2) {
            return Double.NaN;
        }
        if (distance(pLon, pLat, lon, pLat) > widthM / 2) {
            return Double.NaN;
        }
        return distance(lon, lat, pLon, pLat);
    }
}
