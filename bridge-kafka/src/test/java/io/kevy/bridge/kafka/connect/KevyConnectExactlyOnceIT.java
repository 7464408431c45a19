package io.kevy.bridge.kafka.connect;

import org.junit.jupiter.api.Test;

/**
 * {@link KevyConnectDistributedIT}'s scenario on workers with {@code exactly.once.source.support=enabled} and
 * the connector's {@code exactly.once.support=required}: a read_committed consumer sees every one of the 50k
 * changes exactly once, in each key's order, through a worker stop and a pause.
 */
class KevyConnectExactlyOnceIT {
    @Test
    void aReadCommittedConsumerSeesEveryChangeOnceThroughAWorkerStopAndAPause() throws Exception {
        KevyConnectDistributedIT.run(true);
    }
}
