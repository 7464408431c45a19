package io.kevy.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The default length of every benchmark here: one fork, 2 warm-up and 3 measured iterations of 1 s, so the
 * whole suite runs in minutes on a shared machine. Longer runs override it on the command line, e.g.
 * {@code java -jar bench/target/benchmarks.jar -f 3 -wi 5 -i 10 -r 2s}.
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
public abstract class ShortRun {
}
