package io.kevy.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kevy.server.config.ServerOptions;
import io.kevy.config.Sizes;
import io.kevy.testing.FeedClient;
import io.kevy.testing.NegativeZeroZSets;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.StateDump;
import io.kevy.testing.TestServer;
import io.kevy.testing.gen.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Replication over the change feed with real servers in-process on loopback port 0: a replica equals its primary
 * key by key after random workloads (equal and different shard counts), mirrors the primary's feed cursors when
 * the shard counts are equal, refuses writes with Redis's {@code -READONLY}, refuses to replicate from itself,
 * recovers a closed socket with a partial resync, serves WAIT, and keeps consumers' cursors across a promotion.
 * Seeded workloads print their seed; rerun one with {@code -Dkevy.seed=N}.
 */
class ReplicationIT {
    private static final Duration SYNC = Duration.ofSeconds(30);

    private static TestServer server(int shards) {
        return TestServer.start(c -> c.with(ServerOptions.SHARDS, shards).with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.FEED_BUFFER_SIZE, 64 * Sizes.MB));
    }

    private static void replicate(TestServer replica, TestServer primary) {
        assertThat(replica.raw().call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port())))
                .isEqualTo("+OK\r\n");
    }

    private static void awaitSameState(TestServer primary, TestServer replica) {
        await().atMost(SYNC).untilAsserted(() -> {
            long now = System.currentTimeMillis();
            assertThat(StateDump.live(replica.server().engine(), now))
                    .isEqualTo(StateDump.live(primary.server().engine(), now));
        });
    }

    private static void run(RawClient raw, List<Workload.Command> work) {
        for (Workload.Command c : work) {
            for (byte[][] argv : c.argvs()) {
                raw.send(RawClient.encode(argv));
            }
            for (int i = 0; i < c.argvs().size(); i++) {
                raw.readReply();
            }
        }
    }

    private static List<String> fieldNames(String info) {
        List<String> out = new java.util.ArrayList<>();
        for (String line : info.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("$")) {
                out.add(line.substring(0, colon));
            }
        }
        return out;
    }

    private static long seed() {
        Long fixed = Long.getLong("kevy.seed");
        return fixed != null ? fixed : new Random().nextLong();
    }

    @org.junit.jupiter.api.Test
    void functionLibrariesReachTheReplicaByFullSyncAndByStream() {
        String lib = "#!lua name=lib\nredis.register_function('w', function(keys) return redis.call('set', keys[1], "
                + "'v') end)\nredis.register_function{function_name='r', callback=function(keys) return "
                + "redis.call('get', keys[1]) end, flags={'no-writes'}}";
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            RawClient p = primary.raw();
            RawClient r = replica.raw();
            assertThat(r.call("FUNCTION", "LOAD", "#!lua name=stale\nredis.register_function('s', function() end)"))
                    .isEqualTo("$5\r\nstale\r\n");
            assertThat(p.call("FUNCTION", "LOAD", lib)).isEqualTo("$3\r\nlib\r\n");
            assertThat(p.call("FCALL", "w", "1", "k")).isEqualTo("+OK\r\n");
            replicate(replica, primary);
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("FCALL_RO", "r", "1", "k"))
                    .isEqualTo("$1\r\nv\r\n"));
            assertThat(r.call("FCALL", "s", "0")).as("the full sync replaced the replica's own libraries")
                    .isEqualTo("-ERR Function not found\r\n");
            assertThat(p.call("FUNCTION", "LOAD", "#!lua name=two\nredis.register_function{function_name='t', "
                    + "callback=function() return 2 end, flags={'no-writes'}}")).isEqualTo("$3\r\ntwo\r\n");
            assertThat(p.call("FUNCTION", "DELETE", "lib")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("FUNCTION", "LIST", "WITHCODE"))
                    .isEqualTo(p.call("FUNCTION", "LIST", "WITHCODE")));
            assertThat(r.call("FCALL", "t", "0")).isEqualTo(":2\r\n");
            assertThat(r.call("FUNCTION", "FLUSH")).isEqualTo("-READONLY You can't write against a read only "
                    + "replica.\r\n");
            assertThat(p.call("FUNCTION", "LOAD", lib)).isEqualTo("$3\r\nlib\r\n");
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("FCALL_RO", "r", "1", "k"))
                    .isEqualTo("$1\r\nv\r\n"));
            assertThat(r.call("FCALL", "w", "1", "k")).isEqualTo("-READONLY Can not run script with write flag on "
                    + "readonly replica\r\n");
        }
    }

    @ParameterizedTest(name = "primary {0} shard(s), replica {1}")
    @CsvSource({"1,1", "4,4", "1,4", "4,1"})
    void aReplicaEqualsItsPrimaryKeyByKeyAfterARandomWorkload(int primaryShards, int replicaShards) {
        long seed = seed();
        System.out.printf("ReplicationIT: primary=%d replica=%d seed=%d%n", primaryShards, replicaShards, seed);
        try (TestServer primary = server(primaryShards); TestServer replica = TestServer.start(c -> c
                .with(ServerOptions.SHARDS, replicaShards).with(ServerOptions.FEED_ENABLED, true)
                .with(ServerOptions.AOF, true))) { // the replica's AOF takes the mirrored frames
            List<Workload.Command> work = Workload.generate(seed, 3000);
            RawClient raw = primary.raw();
            run(raw, work.subList(0, 1500)); // before: the full sync carries these
            replicate(replica, primary);
            run(raw, work.subList(1500, 3000)); // after: the stream carries these
            awaitSameState(primary, replica);
            RawClient pl = primary.raw();
            RawClient rl = replica.raw();
            await().atMost(SYNC).untilAsserted(() -> assertThat(rl.call("FUNCTION", "LIST", "WITHCODE"))
                    .as("the workload's FUNCTION libraries").isEqualTo(pl.call("FUNCTION", "LIST", "WITHCODE")));
            Map<String, String> state = StateDump.of(primary.server().engine());
            System.out.printf("  %d keys equal on both%n", state.size());
            assertThat(state).isNotEmpty();
            FeedClient pf = new FeedClient(primary.raw());
            FeedClient rf = new FeedClient(replica.raw());
            if (primaryShards == replicaShards) {
                await().atMost(SYNC).untilAsserted(() -> {
                    for (int s = 0; s < primaryShards; s++) {
                        assertThat(rf.tail(s)).as("shard %d's cursor mirrors the primary's", s)
                                .containsExactly(pf.tail(s));
                    }
                });
                for (int s = 0; s < primaryShards; s++) { // the frames after the full sync, byte for byte
                    long[] tail = pf.tail(s);
                    long from = replica.server().feed().backlog(s).stats().oldestOffset();
                    FeedClient.Batch p = pf.read(s, tail[0], from, "COUNT", "4096");
                    FeedClient.Batch r = rf.read(s, tail[0], from, "COUNT", "4096");
                    assertThat(r.frames().toString()).isEqualTo(p.frames().toString());
                }
            }
            String info = replica.raw().call("INFO", "replication");
            assertThat(info).contains("role:slave\r\n", "master_link_status:up\r\n", "kevy_full_syncs:1\r\n");
            // Redis 7.0.15's field order for a connected replica (redis-server --replicaof, INFO replication)
            assertThat(fieldNames(info)).containsSubsequence("role", "master_host", "master_port",
                    "master_link_status", "master_last_io_seconds_ago", "master_sync_in_progress",
                    "slave_read_repl_offset", "slave_repl_offset", "slave_priority", "slave_read_only",
                    "replica_announced", "connected_slaves", "master_failover_state", "master_replid",
                    "master_replid2", "master_repl_offset", "second_repl_offset", "repl_backlog_active",
                    "repl_backlog_size", "repl_backlog_first_byte_offset", "repl_backlog_histlen");
            assertThat(fieldNames(info)).doesNotContain("master_link_down_since_seconds");
            assertThat(replica.raw().call("SAVE")).isEqualTo("+OK\r\n");
        }
    }

    /**
     * Sorted sets that hold -0 in the skiplist encoding reach the replica with their -0, by the full sync (each
     * set's rebuild frames in the snapshot) and by the stream (rebuild frames of a *STORE, a RESTORE and
     * cross-shard COPY/RENAME; a ZADD of -0 after SORT converted the set, which no frame tells): what a client reads
     * of them on the replica is what it reads on the primary and on a redis-server that ran the same history. A
     * listpack stores -0 as 0, and the replica used to build such sets up from ZADDs in a listpack first, so it
     * read 0 (seed 4631594928933262888 of the random workload above failed that way).
     */
    @ParameterizedTest(name = "primary {0} shard(s), replica {1}")
    @CsvSource({"4,4", "4,1"})
    void negativeZerosOfSkiplistSortedSetsReachTheReplicaByFullSyncAndByStream(int primaryShards, int replicaShards) {
        try (TestServer primary = server(primaryShards); TestServer replica = server(replicaShards);
             RedisOracle redis = RedisOracle.start()) {
            NegativeZeroZSets bySync = new NegativeZeroZSets("sync", primary.server().engine());
            NegativeZeroZSets byStream = new NegativeZeroZSets("stream", primary.server().engine());
            RawClient p = primary.raw();
            RawClient o = redis.raw();
            bySync.run(p);
            bySync.run(o);
            replicate(replica, primary);
            RawClient r = replica.raw();
            await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
            byStream.run(p);
            byStream.run(o);
            awaitSameState(primary, replica);
            for (NegativeZeroZSets h : List.of(bySync, byStream)) {
                Map<String, String> redisReads = h.observe(o);
                assertThat(redisReads.values()).allMatch(v -> v.contains("ZSCORE") && v.contains("$2\r\n-0\r\n"));
                assertThat(h.observe(p)).as("the primary").isEqualTo(redisReads);
                assertThat(h.observe(r)).as("the replica").isEqualTo(redisReads);
            }
            assertThat(r.call("INFO", "replication")).contains("kevy_full_syncs:1\r\n");
        }
    }

    @Test
    void theReplicaofSettingStartsTheServerAsAReplica() {
        try (TestServer primary = server(2)) {
            primary.raw().call("SET", "k", "v");
            try (TestServer replica = TestServer.start(c -> c.with(ServerOptions.SHARDS, 2)
                    .with(ServerOptions.FEED_ENABLED, true)
                    .with(ServerOptions.REPLICAOF, "127.0.0.1 " + primary.port()))) {
                await().atMost(SYNC).untilAsserted(() -> assertThat(replica.raw().call("GET", "k"))
                        .isEqualTo("$1\r\nv\r\n"));
                assertThat(replica.raw().call("CONFIG", "GET", "replicaof"))
                        .isEqualTo("*2\r\n$9\r\nreplicaof\r\n$" + ("127.0.0.1 " + primary.port()).length()
                                + "\r\n127.0.0.1 " + primary.port() + "\r\n");
            }
        }
    }

    @Test
    void masterauthLetsTheReplicaInAndTheAnnouncedAddressIsWhatThePrimaryReports() {
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            RawClient p = primary.raw();
            assertThat(p.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            assertThat(p.call("CONFIG", "SET", "requirepass", "s3cret")).isEqualTo("+OK\r\n");
            RawClient r = replica.raw();
            assertThat(r.call("CONFIG", "SET", "replica-announce-ip", "10.9.8.7", "replica-announce-port", "7777"))
                    .isEqualTo("+OK\r\n");
            replicate(replica, primary);
            // no masterauth: the primary refuses the link, and INFO says why
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("INFO", "replication"))
                    .contains("master_link_status:down\r\n").containsPattern("kevy_master_link_error:[^\r]*NOAUTH"));
            assertThat(r.call("GET", "k")).isEqualTo("$-1\r\n");
            assertThat(r.call("CONFIG", "SET", "masterauth", "s3cret")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("GET", "k")).isEqualTo("$1\r\nv\r\n"));
            await().atMost(SYNC).untilAsserted(() -> assertThat(p.call("INFO", "replication"))
                    .contains("connected_slaves:1\r\nslave0:ip=10.9.8.7,port=7777,state=online,"));
            assertThat(p.call("ROLE")).contains("$8\r\n10.9.8.7\r\n$4\r\n7777\r\n");
            assertThat(r.call("CONFIG", "GET", "masterauth")).isEqualTo("*2\r\n$10\r\nmasterauth\r\n$6\r\ns3cret\r\n");
            assertThat(r.call("CONFIG", "SET", "replica-priority", "0")).isEqualTo("+OK\r\n"); // Sentinel: never
            assertThat(r.call("INFO", "replication")).contains("\r\nslave_priority:0\r\n");
        }
    }

    @Test
    void writesToAReadOnlyReplicaAreRefusedChangeNothingAndEmitNothing() {
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            replicate(replica, primary);
            RawClient raw = replica.raw();
            await().atMost(SYNC).until(() -> raw.call("INFO", "replication").contains("master_link_status:up"));
            FeedClient feed = new FeedClient(replica.raw());
            long[] before = {feed.tail(0)[1], feed.tail(1)[1]};
            assertThat(raw.call("SET", "k", "v")).isEqualTo("-READONLY You can't write against a read only replica."
                    + "\r\n");
            assertThat(raw.call("DEL", "k")).startsWith("-READONLY");
            // a script's writes meet the same refusal (Redis's scriptVerifyWriteCommandAllow); its reads run
            assertThat(raw.call("EVAL", "return redis.call('SET', KEYS[1], 'v')", "1", "k")).startsWith("-READONLY");
            assertThat(raw.call("EVAL", "return redis.pcall('SET', KEYS[1], 'v')['err']", "1", "k"))
                    .startsWith("$").contains("READONLY");
            assertThat(raw.call("EVAL", "return redis.call('GET', KEYS[1])", "1", "k")).isEqualTo("$-1\r\n");
            assertThat(raw.call("GET", "k")).isEqualTo("$-1\r\n");
            assertThat(new long[] {feed.tail(0)[1], feed.tail(1)[1]}).containsExactly(before);
            assertThat(raw.call("WAIT", "1", "0")).isEqualTo("-ERR WAIT cannot be used with replica instances. "
                    + "Please also note that since Redis 4.0 if a replica is configured to be writable (which is not "
                    + "the default) writes to replicas are just local and are not propagated.\r\n");
            assertThat(raw.call("CONFIG", "SET", "replica-read-only", "no")).isEqualTo("+OK\r\n");
            assertThat(raw.call("SET", "local", "1")).isEqualTo("+OK\r\n");
        }
    }

    @Test
    void aReplicaOfItselfIsRefusedClearly() {
        try (TestServer s = server(1)) {
            RawClient raw = s.raw();
            assertThat(raw.call("REPLICAOF", "127.0.0.1", Integer.toString(s.port())))
                    .isEqualTo("-ERR REPLICAOF would make this server a replica of itself\r\n");
            assertThat(raw.call("REPLICAOF", "localhost", Integer.toString(s.port()))).startsWith("-ERR REPLICAOF");
            assertThat(raw.call("ROLE")).startsWith("*3\r\n$6\r\nmaster\r\n");
            assertThat(raw.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            assertThat(raw.call("REPLICAOF", "127.0.0.1", "x")).isEqualTo("-ERR Invalid master port\r\n");
            assertThat(raw.call("REPLICAOF", "127.0.0.1", "65536")).isEqualTo("-ERR Invalid master port\r\n");
            assertThat(raw.call("REPLICAOF", "no", "one")).isEqualTo("+OK\r\n");
            assertThat(raw.call("REPLICAOF", "a")).isEqualTo(
                    "-ERR wrong number of arguments for 'replicaof' command\r\n");
        }
    }

    @Test
    void aClosedSocketIsRecoveredByAPartialResyncFromTheBacklog() {
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            RawClient p = primary.raw();
            p.call("SET", "a", "1");
            replicate(replica, primary);
            awaitSameState(primary, replica);
            // up: every shard's follower connection is open (they connect before the link says up)
            await().atMost(SYNC).until(() -> replica.raw().call("INFO", "replication")
                    .contains("master_link_status:up"));
            // cut every replication connection, one per shard (Sentinel's TYPE normal leaves them, as Redis's)
            assertThat(p.call("CLIENT", "KILL", "TYPE", "normal")).isEqualTo(":0\r\n");
            assertThat(p.call("CLIENT", "KILL", "TYPE", "replica")).isEqualTo(":2\r\n");
            for (int i = 0; i < 200; i++) {
                p.call("RPUSH", "list", Integer.toString(i));
            }
            awaitSameState(primary, replica);
            String info = replica.raw().call("INFO", "replication");
            assertThat(info).contains("kevy_full_syncs:1\r\n");
            assertThat(info).doesNotContain("kevy_partial_syncs:0\r\n");
        }
    }

    /**
     * A replica's links are replicas on the primary (CLIENT LIST flags=S, TYPE replica/slave, not normal, so
     * Sentinel's CLIENT KILL TYPE normal leaves them) and master clients on the replica (flags=M at the primary's
     * address), as with two real redis-servers; the replica reports its primary's replication id, and a promotion
     * moves it to master_replid2 as Redis's shiftReplicationId.
     */
    @Test
    void replicaLinksAreReplicasOnThePrimaryAndMasterClientsOnTheReplica() {
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            RawClient p = primary.raw();
            RawClient r = replica.raw(); // each side's only normal client
            assertThat(r.call("REPLICAOF", "127.0.0.1", Integer.toString(primary.port()))).isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
            assertThat(clients(p.call("CLIENT", "LIST", "TYPE", "replica"))).hasSize(2) // one link per shard
                    .allSatisfy(l -> assertThat(l).contains(" flags=S "));
            assertThat(clients(p.call("CLIENT", "LIST", "TYPE", "slave"))).hasSize(2);
            assertThat(p.call("CLIENT", "LIST", "TYPE", "normal")).doesNotContain(" flags=S ");
            assertThat(p.call("CLIENT", "LIST")).contains(" flags=S ");
            assertThat(p.call("INFO", "clients")).contains("\r\nblocked_clients:0\r\n");
            String masters = r.call("CLIENT", "LIST", "TYPE", "master");
            assertThat(clients(masters)).hasSize(2).allSatisfy(l -> assertThat(l).contains(" flags=M ",
                    " addr=127.0.0.1:" + primary.port() + " ", " user=(superuser) "));
            assertThat(r.call("CLIENT", "LIST", "TYPE", "normal")).doesNotContain(" flags=M ");
            String id = infoField(p.call("INFO", "replication"), "master_replid");
            assertThat(infoField(r.call("INFO", "replication"), "master_replid")).isEqualTo(id);

            // Sentinel's kill on either side leaves the link; killing the link's own type makes it reconnect
            assertThat(r.call("CLIENT", "KILL", "TYPE", "normal")).isEqualTo(":0\r\n");
            assertThat(p.call("CLIENT", "KILL", "TYPE", "normal")).isEqualTo(":0\r\n");
            assertThat(r.call("CLIENT", "KILL", "TYPE", "master")).isEqualTo(":2\r\n");
            assertThat(p.call("SET", "after-master-kill", "1")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("GET", "after-master-kill"))
                    .isEqualTo("$1\r\n1\r\n"));
            // the handshake's own connection closes once the followers are up: then one link per shard is left
            await().atMost(SYNC).until(() -> clients(p.call("CLIENT", "LIST", "TYPE", "replica")).size() == 2);
            assertThat(p.call("CLIENT", "KILL", "TYPE", "slave")).isEqualTo(":2\r\n");
            assertThat(p.call("SET", "after-slave-kill", "1")).isEqualTo("+OK\r\n");
            await().atMost(SYNC).untilAsserted(() -> assertThat(r.call("GET", "after-slave-kill"))
                    .isEqualTo("$1\r\n1\r\n"));
            assertThat(r.call("INFO", "replication")).contains("kevy_full_syncs:1\r\n");

            // promoted: a new id, the primary's kept up to here; no master client is left
            await().atMost(SYNC).until(() -> r.call("INFO", "replication").contains("master_link_status:up"));
            assertThat(r.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
            String info = r.call("INFO", "replication");
            assertThat(infoField(info, "master_replid")).isNotEqualTo(id).hasSize(40);
            assertThat(infoField(info, "master_replid2")).isEqualTo(id);
            assertThat(Long.parseLong(infoField(info, "second_repl_offset")))
                    .isEqualTo(Long.parseLong(infoField(info, "master_repl_offset")) + 1);
            assertThat(clients(r.call("CLIENT", "LIST", "TYPE", "master"))).isEmpty();
        }
    }

    /** The lines of a CLIENT LIST reply (a bulk string of lines). */
    private static List<String> clients(String reply) {
        return java.util.Arrays.stream(reply.split("\n")).filter(l -> l.contains("id=")).toList();
    }

    private static String infoField(String info, String name) {
        for (String line : info.split("\r\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + " in " + info);
    }

    @Test
    void waitCountsTheReplicasThatAppliedEveryWrite() {
        try (TestServer primary = server(2); TestServer r1 = server(2); TestServer r2 = server(1)) {
            replicate(r1, primary);
            replicate(r2, primary);
            RawClient p = primary.raw();
            await().atMost(SYNC).until(() -> p.call("INFO", "replication").contains("connected_slaves:2"));
            for (int i = 0; i < 100; i++) {
                p.call("SET", "k" + i, Integer.toString(i));
            }
            assertThat(p.call("WAIT", "2", "10000")).isEqualTo(":2\r\n");
            long t0 = System.nanoTime();
            assertThat(p.call("WAIT", "3", "300")).isEqualTo(":2\r\n");
            assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(250);
            assertThat(r1.raw().call("GET", "k99")).isEqualTo("$2\r\n99\r\n");
            assertThat(r2.raw().call("GET", "k99")).isEqualTo("$2\r\n99\r\n");
            assertThat(p.call("WAIT", "x", "0")).isEqualTo("-ERR value is not an integer or out of range\r\n");
            assertThat(p.call("WAIT", "1", "-1")).isEqualTo("-ERR timeout is negative\r\n");
            String info = p.call("INFO", "replication");
            assertThat(info).contains("role:master\r\nconnected_slaves:2\r\nslave0:ip=127.0.0.1,port=");
            assertThat(info).containsPattern("slave1:ip=127\\.0\\.0\\.1,port=\\d+,state=online,offset=\\d+,lag=\\d+");
            assertThat(p.call("ROLE")).startsWith("*3\r\n$6\r\nmaster\r\n:").contains("*2\r\n*3\r\n$9\r\n127.0.0.1");
            String role = r1.raw().call("ROLE");
            assertThat(role).startsWith("*5\r\n$5\r\nslave\r\n$9\r\n127.0.0.1\r\n:" + primary.port()
                    + "\r\n$9\r\nconnected\r\n:");
        }
    }

    @Test
    void aConsumersCursorContinuesOnThePromotedReplicaUpToWhereTheOldGenerationEnded() {
        try (TestServer primary = server(2); TestServer replica = server(2)) {
            replicate(replica, primary);
            await().atMost(SYNC).until(() -> replica.raw().call("INFO", "replication")
                    .contains("master_link_status:up"));
            RawClient p = primary.raw();
            FeedClient pf = new FeedClient(primary.raw());
            long[] start = pf.tail(0);
            String key = StateDump.keyOnShard(primary.server().engine(), "k", 0);
            for (int i = 0; i < 10; i++) {
                p.call("SET", key, Integer.toString(i));
            }
            assertThat(p.call("WAIT", "1", "10000")).isEqualTo(":1\r\n");
            long[] end = pf.tail(0);
            primary.server().abort(); // the primary dies

            RawClient r = replica.raw();
            assertThat(r.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
            FeedClient rf = new FeedClient(replica.raw());
            long[] now = rf.tail(0);
            assertThat(now[0]).as("a new generation").isNotEqualTo(end[0]);
            assertThat(now[1]).as("offsets go on").isEqualTo(end[1]);
            // a consumer in the middle of the old generation reads on, with no resync
            FeedClient.Batch b = rf.read(0, start[0], start[1] + 4);
            assertThat(b.generation()).isEqualTo(now[0]);
            assertThat(b.frames()).hasSize(6);
            assertThat(b.next()).isEqualTo(end[1]);
            // at the end of the old generation: caught up, then the new primary's writes follow
            assertThat(r.call("SET", key, "new")).isEqualTo("+OK\r\n");
            FeedClient.Batch after = rf.read(0, end[0], end[1]);
            assertThat(after.frames()).hasSize(1);
            assertThat(after.frames().get(0).verb()).isEqualTo("SET");
            // past where the old generation ended on this server: those frames were lost with the old primary
            assertThat(rf.raw().call("FEED.READ", "0", Long.toString(end[0]), Long.toString(end[1] + 1)))
                    .startsWith("-FEEDRESYNC " + now[0] + " ");
        }
    }

    @Test
    void aPrimaryThatDiesMidFullSyncLeavesTheReplicasOldData() throws Exception {
        try (TestServer replica = server(2); java.net.ServerSocket fake = new java.net.ServerSocket(0, 50,
                java.net.InetAddress.getLoopbackAddress())) {
            RawClient raw = replica.raw();
            for (int i = 0; i < 50; i++) {
                raw.call("SET", "old" + i, "v" + i);
            }
            Map<String, String> before = StateDump.of(replica.server().engine());
            java.util.concurrent.atomic.AtomicInteger cut = new java.util.concurrent.atomic.AtomicInteger();
            Thread primary = new Thread(() -> servePrimaryThatDiesInSnapshot(fake, cut));
            primary.setDaemon(true);
            primary.start();
            assertThat(raw.call("REPLICAOF", "127.0.0.1", Integer.toString(fake.getLocalPort())))
                    .isEqualTo("+OK\r\n");
            await().atMost(SYNC).until(() -> cut.get() >= 2); // two syncs cut in the middle of the snapshot
            assertThat(StateDump.of(replica.server().engine())).isEqualTo(before);
            assertThat(raw.call("GET", "old7")).isEqualTo("$2\r\nv7\r\n");
            String info = raw.call("INFO", "replication");
            assertThat(info).contains("master_link_status:down\r\n");
            // while down, Redis 7.0 adds master_link_down_since_seconds after slave_repl_offset (Sentinel reads it)
            assertThat(info).containsPattern("slave_repl_offset:\\d+\r\nmaster_link_down_since_seconds:\\d+\r\n"
                    + "slave_priority:100\r\n");
            assertThat(raw.call("REPLICAOF", "NO", "ONE")).isEqualTo("+OK\r\n");
        }
    }

    /**
     * A fake primary: answers the handshake, FEED.SHARDS (2), a FEEDRESYNC to the resume check, REPL.SNAPSHOT
     * with a 1000-byte snapshot, and to the first REPL.CHUNK its first 8 bytes, then closes the connection (the
     * primary dies in the middle of the transfer); counts the cuts.
     */
    private static void servePrimaryThatDiesInSnapshot(java.net.ServerSocket fake,
                                                       java.util.concurrent.atomic.AtomicInteger cut) {
        while (!fake.isClosed()) {
            try (java.net.Socket s = fake.accept()) {
                java.io.DataInputStream in = new java.io.DataInputStream(new java.io.BufferedInputStream(
                        s.getInputStream()));
                java.io.OutputStream out = s.getOutputStream();
                while (true) {
                    List<String> cmd = readCommand(in);
                    if (cmd == null) {
                        break;
                    }
                    String verb = cmd.get(0).toUpperCase(java.util.Locale.ROOT);
                    String reply = switch (verb) {
                        case "FEED.SHARDS" -> ":2\r\n";
                        case "FEED.READ" -> "-FEEDRESYNC 1 0\r\n";
                        case "REPL.SNAPSHOT" -> "*4\r\n:1\r\n:0\r\n:1000\r\n$2\r\nid\r\n";
                        case "REPL.CHUNK" -> "$1000\r\nKEVYSNAP";
                        default -> "+OK\r\n";
                    };
                    out.write(reply.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.flush();
                    if (verb.equals("REPL.CHUNK")) {
                        cut.incrementAndGet();
                        break; // the primary dies here
                    }
                }
            } catch (java.io.IOException e) {
                // the replica or the test closed it: accept the next connection
            }
        }
    }

    private static List<String> readCommand(java.io.DataInputStream in) throws java.io.IOException {
        String head = line(in);
        if (head == null) {
            return null;
        }
        int n = Integer.parseInt(head.substring(1));
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            int len = Integer.parseInt(line(in).substring(1));
            byte[] b = in.readNBytes(len + 2);
            out.add(new String(b, 0, len, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        return out;
    }

    private static String line(java.io.DataInputStream in) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\r') {
                in.read();
                return sb.toString();
            }
            sb.append((char) c);
        }
        return null;
    }
}
