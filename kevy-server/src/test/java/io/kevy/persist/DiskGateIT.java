package io.kevy.persist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks of {@code bench/diskgate.sh}, with fewer kill -9 repetitions, on child-process servers. */
class DiskGateIT {
    @TempDir
    Path work;

    private DiskGate gate() {
        long seed = System.nanoTime();
        System.out.println("DiskGateIT seed=" + seed);
        return new DiskGate(work, seed);
    }

    @Test
    void restoreDrillGivesTheSameStateByteForByte() throws Exception {
        DiskGate.Result r = gate().restoreDrill();
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }

    @Test
    void killNineWithAppendfsyncAlwaysLosesNoAcknowledgedWrite() throws Exception {
        DiskGate.Result r = gate().killNineAlways(3);
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }

    @Test
    void cleanRestartUnderLoadKeepsTheStreamForALaggingReader() throws Exception {
        DiskGate.Result r = gate().cleanRestartUnderLoad();
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }

    @Test
    void tornAofTailIsTruncated() throws Exception {
        DiskGate.Result r = gate().tornTail();
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }

    @Test
    void killNineDuringAofRewritesLosesNoAcknowledgedWrite() throws Exception {
        DiskGate.Result r = gate().killDuringRewrite(4);
        System.out.println(r);
        assertThat(r.pass()).as(r.toString()).isTrue();
    }
}
