package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.TestServer;
import io.lettuce.core.Consumer;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A real client library's consumer-group workload (lettuce's stream API): a producer adds 2000 jobs while two
 * consumers read them through one group with BLOCK; the first is killed (its connection closed) after taking some
 * jobs without acknowledging the last batch; the second takes those over with XAUTOCLAIM. Every job is
 * acknowledged exactly by someone, none is lost, and the group ends with an empty PEL.
 */
class StreamConsumerGroupLettuceIT {
    private static final int JOBS = 2000;

    @Test
    void aKilledConsumersPendingEntriesAreClaimedByAnotherAndNoneIsLost() throws Exception {
        try (TestServer server = TestServer.start()) {
            RedisCommands<String, String> admin = server.lettuce();
            admin.xgroupCreate(XReadArgs.StreamOffset.from("jobs", "0"), "workers", XGroupCreateArgs.Builder
                    .mkstream());
            Set<String> produced = ConcurrentHashMap.newKeySet();
            Set<String> acked = ConcurrentHashMap.newKeySet();
            CountDownLatch producerDone = new CountDownLatch(1);
            Thread producer = new Thread(() -> {
                try (StatefulRedisConnection<String, String> c = server.client().connect()) {
                    for (int i = 0; i < JOBS; i++) {
                        produced.add(c.sync().xadd("jobs", "job", Integer.toString(i)));
                    }
                } finally {
                    producerDone.countDown();
                }
            });
            producer.start();

            // consumer A: acknowledges 3 batches, then takes a 4th and dies without acknowledging it
            StatefulRedisConnection<String, String> a = server.client().connect();
            List<String> lost = List.of();
            for (int batch = 0; batch < 4; batch++) {
                List<StreamMessage<String, String>> got = a.sync().xreadgroup(Consumer.from("workers", "a"),
                        XReadArgs.Builder.count(25).block(2000), XReadArgs.StreamOffset.lastConsumed("jobs"));
                assertThat(got).as("consumer a's batch %d", batch).isNotEmpty();
                if (batch < 3) {
                    for (StreamMessage<String, String> m : got) {
                        assertThat(a.sync().xack("jobs", "workers", m.getId())).isEqualTo(1);
                        acked.add(m.getId());
                    }
                } else {
                    lost = got.stream().map(StreamMessage::getId).toList();
                }
            }
            a.close(); // killed: its pending entries stay in the PEL
            assertThat(admin.xpending("jobs", "workers").getCount()).isEqualTo(lost.size());

            // consumer B: claims what a left, then reads the rest
            RedisCommands<String, String> b = server.client().connect().sync();
            ClaimedMessages<String, String> claimed = b.xautoclaim("jobs", XAutoClaimArgs.Builder
                    .xautoclaim(Consumer.from("workers", "b"), Duration.ZERO, "0-0").count(100));
            assertThat(claimed.getMessages()).extracting(StreamMessage::getId)
                    .containsExactlyElementsOf(lost);
            for (StreamMessage<String, String> m : claimed.getMessages()) {
                assertThat(m.getBody()).containsKey("job");
                assertThat(b.xack("jobs", "workers", m.getId())).isEqualTo(1);
                acked.add(m.getId());
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2); // a lost job fails, not hangs
            while (true) {
                assertThat(System.nanoTime() - deadline).as("jobs acknowledged by the deadline: %d of %d",
                        acked.size(), produced.size()).isNegative();
                List<StreamMessage<String, String>> got = b.xreadgroup(Consumer.from("workers", "b"),
                        XReadArgs.Builder.count(100).block(200), XReadArgs.StreamOffset.lastConsumed("jobs"));
                for (StreamMessage<String, String> m : got) {
                    assertThat(b.xack("jobs", "workers", m.getId())).isEqualTo(1);
                    assertThat(acked.add(m.getId())).as("delivered twice: %s", m.getId()).isTrue();
                }
                if (got.isEmpty() && producerDone.await(0, TimeUnit.MILLISECONDS)
                        && acked.size() >= produced.size()) {
                    break;
                }
            }
            producer.join();
            assertThat(produced).hasSize(JOBS);
            assertThat(acked).as("every job acknowledged, none lost").isEqualTo(produced);
            assertThat(admin.xpending("jobs", "workers").getCount()).isZero();
            assertThat(admin.xlen("jobs")).isEqualTo(JOBS);
        }
    }
}
