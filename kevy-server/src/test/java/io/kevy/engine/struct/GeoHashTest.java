package io.kevy.engine.struct;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The geohash helper on its own: known scores (the values Redis stores for its documentation's Sicily example),
 * interleaving round trips, neighbours, the search boxes of huge radii; the byte-exact comparison with Redis is
 * {@code GeoCommandsIT}.
 */
class GeoHashTest {
    @Test
    void scoresAreRedisForKnownPoints() {
        assertThat(GeoHash.align52(GeoHash.encodeWgs84(13.361389, 38.115556, 26))).isEqualTo(3479099956230698L);
        assertThat(GeoHash.align52(GeoHash.encodeWgs84(15.087269, 37.502669, 26))).isEqualTo(3479447370796909L);
        assertThat(GeoHash.encodeWgs84(180.0000001, 0, 26)).isNull();
        assertThat(GeoHash.encodeWgs84(0, 85.05112879, 26)).isNull();
        assertThat(GeoHash.encodeWgs84(0, 0, 0)).isNull();
        assertThat(GeoHash.encodeWgs84(0, 0, 33)).isNull();
    }

    @Test
    void decodingAScoreGivesThePointBackWithinItsBox() {
        long seed = new Random().nextLong();
        System.out.println("GeoHashTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            double lon = -180 + 360 * rnd.nextDouble();
            double lat = GeoHash.LAT_MIN + (GeoHash.LAT_MAX - GeoHash.LAT_MIN) * rnd.nextDouble();
            GeoHash.Bits h = GeoHash.encodeWgs84(lon, lat, 26);
            assertThat(GeoHash.deinterleave(GeoHash.interleave(h.bits(), h.bits() >>> 32)))
                    .as("seed %d", seed).isEqualTo((h.bits() & 0xFFFFFFFFL) | ((h.bits() >>> 32) << 32));
            double[] xy = GeoHash.decodeScore((double) GeoHash.align52(h));
            assertThat(Math.abs(xy[0] - lon)).as("seed %d lon %s", seed, lon).isLessThan(360.0 / (1 << 26));
            assertThat(Math.abs(xy[1] - lat)).as("seed %d lat %s", seed, lat).isLessThan(171.0 / (1 << 26));
        }
    }

    @Test
    void neighboursAreTheAdjacentBoxes() {
        GeoHash.Bits h = GeoHash.encodeWgs84(10, 20, 10);
        GeoHash.Area a = GeoHash.decodeWgs84(h);
        GeoHash.Area east = GeoHash.decodeWgs84(GeoHash.neighbour(h, 1, 0));
        GeoHash.Area north = GeoHash.decodeWgs84(GeoHash.neighbour(h, 0, 1));
        GeoHash.Area sw = GeoHash.decodeWgs84(GeoHash.neighbour(h, -1, -1));
        assertThat(east.lonMin()).isEqualTo(a.lonMax());
        assertThat(east.latMin()).isEqualTo(a.latMin());
        assertThat(north.latMin()).isEqualTo(a.latMax());
        assertThat(north.lonMin()).isEqualTo(a.lonMin());
        assertThat(sw.lonMax()).isEqualTo(a.lonMin());
        assertThat(sw.latMax()).isEqualTo(a.latMin());
        // at the antimeridian the east neighbour wraps to the west edge
        GeoHash.Bits edge = GeoHash.encodeWgs84(179.99, 0, 5);
        assertThat(GeoHash.decodeWgs84(GeoHash.neighbour(edge, 1, 0)).lonMin()).isEqualTo(-180);
    }

    /** {@link GeoShape#asin} against a 50-digit reference (Newton on a BigDecimal Taylor sine). */
    @Test
    void asinIsCorrectlyRounded() {
        long seed = new Random().nextLong();
        System.out.println("GeoHashTest asin seed=" + seed);
        Random rnd = new Random(seed);
        for (int i = 0; i < 2000; i++) {
            double y = i < 1000 ? rnd.nextDouble() : 1 - Math.pow(10, -1 - 12 * rnd.nextDouble());
            assertThat(GeoShape.asin(y)).as("seed %d asin(%s)", seed, y).isEqualTo(referenceAsin(y));
        }
        assertThat(GeoShape.asin(0)).isZero();
        assertThat(GeoShape.asin(1)).isEqualTo(Math.PI / 2);
    }

    private static final java.math.MathContext MC = new java.math.MathContext(50);

    private static java.math.BigDecimal series(java.math.BigDecimal x, boolean sine) {
        java.math.BigDecimal t = sine ? x : java.math.BigDecimal.ONE;
        java.math.BigDecimal sum = t;
        java.math.BigDecimal x2 = x.multiply(x, MC);
        for (long k = 1; k < 60; k++) {
            long d = sine ? (2 * k) * (2 * k + 1) : (2 * k - 1) * (2 * k);
            t = t.multiply(x2, MC).divide(java.math.BigDecimal.valueOf(d), MC).negate();
            sum = sum.add(t, MC);
        }
        return sum;
    }

    private static double referenceAsin(double y) {
        java.math.BigDecimal target = new java.math.BigDecimal(y);
        java.math.BigDecimal r = new java.math.BigDecimal(StrictMath.asin(y));
        for (int i = 0; i < 4; i++) {
            r = r.add(target.subtract(series(r, true), MC).divide(series(r, false), MC), MC);
        }
        return r.doubleValue();
    }

    @Test
    void hugeRadiiSearchFromOneStepBoxesAndRadiusZeroFromTheFinest() {
        List<GeoHash.Bits> huge = GeoShape.circle(0, 0, 40_000, 1000).searchBoxes();
        assertThat(huge.get(0).step()).isEqualTo(1);
        assertThat(GeoShape.circle(0, 0, 0, 1).searchBoxes().get(0).step()).isEqualTo(26);
        assertThat(GeoShape.estimateSteps(0, 0)).isEqualTo(26);
        assertThat(GeoShape.estimateSteps(1e300, 89)).isEqualTo(1);
        assertThat(GeoShape.distance(13.361389, 38.115556, 13.361389, 38.115556)).isZero();
        assertThat(GeoShape.circle(0, 0, 1, 1).distanceIfInside(0, 1)).isNaN();
        assertThat(GeoShape.box(0, 0, 300, 300, 1000).distanceIfInside(1, 1)).isGreaterThan(0);
        assertThat(GeoShape.box(0, 0, 100, 300, 1000).distanceIfInside(1, 0)).isNaN();
    }
}
