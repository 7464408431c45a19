package io.kevy.engine.type;

/**
 * The cardinality estimate Redis 7.0 computes from a register histogram ({@code hllCount}): Otmar Ertl's
 * improved estimator ("New cardinality estimation algorithms for HyperLogLog sketches", arXiv:1702.01284),
 * in the same double arithmetic and order, rounded half away from zero as {@code llroundl}.
 *
 * <p>Thread-safe (static, stateless).
 */
final class HllEstimator {
    /** 0.5 / ln(2), Redis's HLL_ALPHA_INF. */
    private static final double ALPHA_INF = 0.721347520444481703680;
    /** Bits of the hash that count leading zeros (64 - 14). */
    private static final int Q = 50;

    private HllEstimator() {
    }

    /** The estimate from {@code histo[v]} = the number of registers of value {@code v} (64 entries). */
    static long estimate(int[] histo) {
        double m = HyperLogLog.REGISTERS;
        double z = m * tau((m - histo[Q + 1]) / m);
        for (int j = Q; j >= 1; --j) {
            z += histo[j];
            z *= 0.5;
        }
        z += m * sigma(histo[0] / m);
        return Math.round(ALPHA_INF * m * m / z);
    }

    private static double sigma(double x) {
        if (x == 1.) {
            return Double.POSITIVE_INFINITY;
        }
        double zPrime;
        double y = 1;
        double z = x;
        do {
            x *= x;
            zPrime = z;
            z += x * y;
            y += y;
        } while (zPrime != z);
        return z;
    }

    private static double tau(double x) {
        if (x == 0. || x == 1.) {
            return 0.;
        }
        double zPrime;
        double y = 1.0;
        double z = 1 - x;
        do {
            x = Math.sqrt(x);
            zPrime = z;
            y *= 0.5;
            double d = 1 - x;
            z -= d * d * y;
        } while (zPrime != z);
        return z / 3;
    }
}
