package io.kevy.testing;

import java.util.Map;

/**
 * Pearson's chi-square goodness-of-fit test against the uniform distribution, for tests of random picks
 * (HRANDFIELD, ZRANDMEMBER, SRANDMEMBER, SPOP, RANDOMKEY, {@link io.kevy.engine.struct.Dict#randomNode}).
 *
 * <p>The bound is the upper {@code p = 1e-6} quantile of the chi-square distribution, from the Wilson-Hilferty
 * approximation (within a fraction of a percent for the 20+ degrees of freedom these tests use): a uniform
 * picker fails a test about once in a million runs, while a biased one fails every time (40 picks per field of
 * a 1000-field hashtable: Redis 7.0.15's dictGetFairRandomKey scores about 3,500 on 999 degrees of freedom,
 * kevy's pick before issue 28 about 9,500, against a bound of 1,226).
 */
public final class ChiSquare {
    /** The standard normal quantile of 1 - 1e-6. */
    private static final double Z_1E6 = 4.753424308822899;

    private ChiSquare() {
    }

    /** The statistic of {@code counts} (one per category, every category listed) against equal expectations. */
    public static double statistic(long[] counts) {
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        double expected = (double) total / counts.length;
        double chi2 = 0;
        for (long c : counts) {
            double d = c - expected;
            chi2 += d * d / expected;
        }
        return chi2;
    }

    /** The statistic of the counts of {@code categories} categories, absent ones counting 0. */
    public static double statistic(Map<String, Long> counts, int categories) {
        if (counts.size() > categories) {
            throw new IllegalArgumentException(counts.size() + " categories seen, " + categories + " expected");
        }
        long[] all = new long[categories];
        int i = 0;
        for (long c : counts.values()) {
            all[i++] = c;
        }
        return statistic(all);
    }

    /** The value a uniform sample exceeds with probability 1e-6, for {@code df} degrees of freedom. */
    public static double bound(int df) {
        double a = 2.0 / (9.0 * df);
        double t = 1 - a + Z_1E6 * Math.sqrt(a);
        return df * t * t * t;
    }
}
