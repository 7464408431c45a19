package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PowerLoss} on child-process servers: a few cycles per policy in the default build; the nightly form
 * ({@code -Pnightly}, 20 cycles per policy, or {@code -Dkevy.powerloss.cycles=N}) prints the same figures.
 */
class PowerLossIT {
    @TempDir
    Path work;

    @ParameterizedTest(name = "appendfsync {0}")
    @ValueSource(strings = {"always", "everysec"})
    void aPowerLossLosesNothingAcknowledgedUnderAlwaysAndAtMostTheWindowUnderEverysec(String policy)
            throws Exception {
        int cycles = Integer.getInteger("kevy.powerloss.cycles", 3);
        long seed = Long.getLong("kevy.seed", System.nanoTime());
        System.out.println("PowerLossIT seed=" + seed + " cycles=" + cycles);
        DiskGate.Result r = new PowerLoss(work, seed).run(policy, cycles);
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }
}
