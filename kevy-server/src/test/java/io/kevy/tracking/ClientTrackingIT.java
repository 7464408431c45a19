package io.kevy.tracking;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CLIENT TRACKING against a real Redis 7.0, byte for byte: the option errors and replies (TRACKING, CACHING,
 * GETREDIR, TRACKINGINFO, CLIENT LIST's flags and redir, INFO's counts) and the RESP2 redirect invalidations
 * a subscriber to {@code __redis__:invalidate} receives, in default, BCAST, PREFIX, NOLOOP, OPTIN and OPTOUT
 * modes, after expiry and FLUSHALL, and when {@code tracking-table-max-keys} evicts. One shard, so a multi-key
 * write is one frame as it is one Redis event (kevy sends one BCAST message per shard a write touches).
 *
 * <p>Client ids differ between the servers, so each scenario runs on a {@link Side} per server and the replies
 * are compared with the ids written as {@code <redir>}. "Nothing was delivered" is asserted by a marker write
 * whose invalidation must be the next message.
 */
class ClientTrackingIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(1).freshConnectionsEachTest();

    /** One server's three connections: the tracking client, the redirect subscriber and a writer. */
    static final class Side implements AutoCloseable {
        final RawClient client;
        final RawClient redir;
        final RawClient writer;
        final String redirId;

        Side(RawClient client, RawClient redir, RawClient writer) {
            this.client = client;
            this.redir = redir;
            this.writer = writer;
            this.redirId = redir.call("CLIENT", "ID").replaceAll("[:\r\n]", "");
            assertThat(redir.call("SUBSCRIBE", "__redis__:invalidate"))
                    .isEqualTo("*3\r\n$9\r\nsubscribe\r\n$20\r\n__redis__:invalidate\r\n:1\r\n");
        }

        /** {@code args} with {@code <redir>} replaced by the redirect client's id. */
        String[] ids(String... args) {
            String[] out = args.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] = out[i].replace("<redir>", redirId);
            }
            return out;
        }

        /** A reply with the redirect client's id written as {@code <redir>}. */
        String norm(String reply) {
            return reply.replace(":" + redirId + "\r\n", ":<redir>\r\n").replace("redir=" + redirId + " ",
                    "redir=<redir> ");
        }

        @Override
        public void close() {
            client.close();
            redir.close();
            writer.close();
        }
    }

    private Side kevy;
    private Side redis;

    @BeforeEach
    void open() {
        kevy = new Side(oracle.kevy().raw(), oracle.kevy().raw(), oracle.kevy().raw());
        redis = new Side(oracle.redis().raw(), oracle.redis().raw(), oracle.redis().raw());
        both(s -> s.writer.call("CONFIG", "SET", "tracking-table-max-keys", "1000000"));
    }

    @AfterEach
    void close() {
        kevy.close();
        redis.close();
    }

    /** Runs {@code action} on both sides and asserts equal (id-normalised) results; returns kevy's. */
    private String both(Function<Side, String> action) {
        String k = kevy.norm(action.apply(kevy));
        String r = redis.norm(action.apply(redis));
        assertThat(k).isEqualTo(r);
        return k;
    }

    private String client(String... args) {
        return both(s -> s.client.call(s.ids(args)));
    }

    private String writer(String... args) {
        return both(s -> s.writer.call(s.ids(args)));
    }

    /** The next invalidation message on both redirect connections (equal). */
    private String message() {
        return both(s -> s.redir.readReply());
    }

    /** Publishes {@code marker} on the channel and asserts it is the next message: nothing came before it. */
    private void nothingDeliveredBefore(String marker) {
        writer("PUBLISH", "__redis__:invalidate", marker);
        assertThat(message()).isEqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$"
                + marker.length() + "\r\n" + marker + "\r\n");
    }

    static String invalidation(String... keys) {
        StringBuilder sb = new StringBuilder("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n*")
                .append(keys.length).append("\r\n");
        for (String k : keys) {
            sb.append('$').append(k.length()).append("\r\n").append(k).append("\r\n");
        }
        return sb.toString();
    }

    @Test
    void optionErrorsAreRedis() {
        for (String line : List.of("CLIENT TRACKING", "CLIENT TRACKING maybe", "CLIENT TRACKING ON FOO",
                "CLIENT TRACKING ON REDIRECT", "CLIENT TRACKING ON REDIRECT abc", "CLIENT TRACKING ON REDIRECT 0",
                "CLIENT TRACKING ON REDIRECT 987654", "CLIENT TRACKING ON REDIRECT -1", "CLIENT TRACKING ON PREFIX a",
                "CLIENT TRACKING ON PREFIX", "CLIENT TRACKING ON BCAST OPTIN", "CLIENT TRACKING ON BCAST OPTOUT",
                "CLIENT TRACKING ON OPTIN OPTOUT", "CLIENT TRACKING ON BCAST PREFIX a PREFIX ab",
                "CLIENT TRACKING ON BCAST PREFIX ab PREFIX a", "CLIENT TRACKING ON BCAST PREFIX a PREFIX a",
                "CLIENT TRACKING OFF FOO", "CLIENT TRACKING OFF BCAST", "CLIENT CACHING", "CLIENT CACHING YES",
                "CLIENT CACHING NO", "CLIENT CACHING maybe", "CLIENT GETREDIR x", "CLIENT TRACKINGINFO x",
                "CLIENT GETREDIR", "CLIENT TRACKINGINFO")) {
            oracle.sameLine(line);
        }
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "REDIRECT", "<redir>");
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "PREFIX", "x");
    }

    @Test
    void modeSwitchesAndCachingAreCheckedAsRedis() {
        oracle.sameLine("CLIENT TRACKING ON OPTIN");
        oracle.sameLine("CLIENT TRACKING ON OPTOUT");
        oracle.sameLine("CLIENT TRACKING ON BCAST");
        oracle.sameLine("CLIENT CACHING NO");
        oracle.sameLine("CLIENT CACHING maybe");
        oracle.sameLine("CLIENT CACHING YES");
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("CLIENT TRACKING ON OPTIN NOLOOP"); // same OPTIN: accepted, CACHING kept
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("CLIENT CACHING YES");
        oracle.sameLine("PING");
        oracle.sameLine("CLIENT TRACKINGINFO"); // CACHING lasts for one command
        oracle.sameLine("CLIENT TRACKING OFF");
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("CLIENT TRACKING ON OPTOUT");
        oracle.sameLine("CLIENT CACHING YES");
        oracle.sameLine("CLIENT CACHING NO");
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("CLIENT GETREDIR");
        oracle.sameLine("CLIENT TRACKING OFF");
        oracle.sameLine("CLIENT TRACKING ON BCAST PREFIX b PREFIX a");
        oracle.sameLine("CLIENT TRACKING ON BCAST PREFIX ab");
        oracle.sameLine("CLIENT TRACKING ON BCAST PREFIX c");
        oracle.sameLine("CLIENT TRACKING ON BCAST PREFIX c");
        oracle.sameLine("CLIENT TRACKING ON");
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("CLIENT TRACKING OFF");
        oracle.sameLine("CLIENT TRACKING ON BCAST");
        oracle.sameLine("CLIENT TRACKING ON BCAST PREFIX a");
        oracle.sameLine("CLIENT TRACKINGINFO");
        oracle.sameLine("RESET");
        oracle.sameLine("CLIENT TRACKINGINFO");
    }

    @Test
    void redirectInfoListAndInfoFieldsAreRedis() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "NOLOOP");
        client("CLIENT", "GETREDIR");
        client("CLIENT", "TRACKINGINFO");
        both(s -> field(s.client.call("CLIENT", "INFO"), "flags") + " " + s.norm(
                "redir=" + field(s.client.call("CLIENT", "INFO"), "redir") + " "));
        client("MGET", "a", "b", "c");
        client("GET", "a");
        writer("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "p:", "PREFIX", "q:");
        both(s -> field(s.writer.call("CLIENT", "INFO"), "flags") + " " + field(s.writer.call("CLIENT", "INFO"),
                "redir"));
        both(s -> infoFields(s.client.call("INFO", "clients")) + infoFields(s.client.call("INFO", "stats")));
        // the redirect client goes away: the next invalidation finds it gone, and the redirect is broken
        kevy.redir.close();
        redis.redir.close();
        awaitGone(kevy);
        awaitGone(redis);
        writer("SET", "a", "2");
        client("CLIENT", "TRACKINGINFO");
        both(s -> field(s.client.call("CLIENT", "INFO"), "flags"));
        writer("CLIENT", "TRACKING", "OFF");
        client("CLIENT", "TRACKING", "OFF");
        both(s -> infoFields(s.client.call("INFO", "clients")) + infoFields(s.client.call("INFO", "stats")));
    }

    private static void awaitGone(Side s) {
        long deadline = System.currentTimeMillis() + 5000;
        while (s.writer.call("CLIENT", "LIST", "ID", s.redirId).contains("id=")) {
            assertThat(System.currentTimeMillis()).as("redirect client %s still listed", s.redirId)
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static String field(String clientInfo, String name) {
        Matcher m = Pattern.compile("(?:^|[ $0-9\r\n])" + name + "=(\\S*)").matcher(clientInfo);
        assertThat(m.find()).as("%s in %s", name, clientInfo).isTrue();
        return m.group(1);
    }

    private static String infoFields(String info) {
        StringBuilder sb = new StringBuilder();
        for (String line : info.split("\r\n")) {
            if (line.startsWith("tracking_")) {
                sb.append(line).append('\n');
            }
        }
        return sb.toString();
    }

    @Test
    void defaultModeInvalidatesWhatTheClientRead() {
        writer("MSET", "a", "1", "b", "2", "c", "3");
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>");
        client("GET", "a");
        client("MGET", "b", "c", "nosuch");
        client("STRLEN", "c");
        writer("SET", "a", "x");
        assertThat(message()).isEqualTo(invalidation("a"));
        writer("MSET", "b", "y", "c", "z");
        message();
        message();
        writer("SET", "nosuch", "now");
        assertThat(message()).isEqualTo(invalidation("nosuch"));
        writer("SET", "a", "again"); // forgotten after its invalidation until read again
        nothingDeliveredBefore("m1");
        client("GET", "a");
        client("SET", "a", "own"); // not NOLOOP: its own write invalidates too
        assertThat(message()).isEqualTo(invalidation("a"));
        client("HSET", "h", "f", "v"); // writes are not remembered
        writer("DEL", "h");
        nothingDeliveredBefore("m2");
        client("GET", "e");
        writer("SET", "e", "v", "PX", "100");
        assertThat(message()).isEqualTo(invalidation("e"));
        client("GET", "e");
        long deadline = System.currentTimeMillis() + 5000;
        while (!kevy.writer.call("EXISTS", "e").equals(":0\r\n") || !redis.writer.call("EXISTS", "e")
                .equals(":0\r\n")) {
            assertThat(System.currentTimeMillis()).as("e expired").isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(message()).as("expiry invalidates").isEqualTo(invalidation("e"));
        client("GET", "a");
        writer("FLUSHALL");
        assertThat(message()).as("FLUSHALL: a null invalidation")
                .isEqualTo("*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n$-1\r\n");
        writer("SET", "a", "after flush"); // the table is empty after a flush
        nothingDeliveredBefore("m3");
    }

    @Test
    void noloopSkipsTheClientsOwnWrites() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "NOLOOP");
        client("GET", "a");
        client("SET", "a", "mine");
        nothingDeliveredBefore("m1");
        client("GET", "a");
        writer("SET", "a", "theirs");
        assertThat(message()).isEqualTo(invalidation("a"));
    }

    @Test
    void bcastSendsEveryWriteToAMatchingPrefix() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "BCAST", "PREFIX", "user:", "PREFIX", "cfg");
        writer("SET", "user:1", "a");
        assertThat(message()).isEqualTo(invalidation("user:1"));
        writer("MSET", "user:3", "a", "other", "b", "user:2", "c", "cfg", "d");
        assertThat(message()).isEqualTo(invalidation("cfg"));
        assertThat(message()).isEqualTo(invalidation("user:2", "user:3"));
        writer("SET", "other", "x");
        client("GET", "user:9"); // BCAST does not remember reads
        writer("SET", "other2", "x");
        client("SET", "user:own", "x"); // not NOLOOP: its own writes too
        assertThat(message()).isEqualTo(invalidation("user:own"));
        writer("DEL", "user:1", "user:2", "nosuch");
        message();
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "BCAST", "NOLOOP", "PREFIX", "cfg"); // overlaps
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "BCAST", "NOLOOP");
        client("CLIENT", "TRACKINGINFO");
        client("SET", "cfg", "mine");
        writer("SET", "cfgx", "theirs");
        assertThat(message()).isEqualTo(invalidation("cfgx"));
        both(s -> infoFields(s.writer.call("INFO", "stats")));
    }

    @Test
    void bcastWithoutPrefixSeesEveryKey() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "BCAST");
        writer("SET", "k", "1");
        assertThat(message()).isEqualTo(invalidation("k"));
        writer("INCR", "n");
        assertThat(message()).isEqualTo(invalidation("n"));
        client("CLIENT", "TRACKINGINFO");
    }

    @Test
    void optinTracksOnlyAfterCachingYes() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "OPTIN");
        client("GET", "a");
        writer("SET", "a", "1");
        nothingDeliveredBefore("m1");
        client("CLIENT", "CACHING", "YES");
        client("GET", "b");
        client("GET", "c"); // CACHING YES covered the previous command only
        writer("MSET", "b", "1", "c", "1");
        assertThat(message()).isEqualTo(invalidation("b"));
        nothingDeliveredBefore("m2");
        client("CLIENT", "CACHING", "YES");
        client("MULTI");
        client("GET", "d");
        client("GET", "e");
        client("EXEC"); // ... or the next transaction
        writer("SET", "e", "1");
        assertThat(message()).isEqualTo(invalidation("e"));
        writer("SET", "d", "1");
        assertThat(message()).isEqualTo(invalidation("d"));
    }

    @Test
    void optoutTracksUnlessCachingNo() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "OPTOUT");
        client("CLIENT", "CACHING", "NO");
        client("GET", "a");
        client("GET", "b");
        writer("SET", "a", "1");
        writer("SET", "b", "1");
        assertThat(message()).isEqualTo(invalidation("b"));
        nothingDeliveredBefore("m1");
    }

    @Test
    void maxKeysEvictsWithAnInvalidation() {
        writer("CONFIG", "SET", "tracking-table-max-keys", "1");
        writer("CONFIG", "GET", "tracking-table-max-keys");
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>");
        client("GET", "a");
        client("GET", "b");
        client("PING"); // Redis evicts before the next command; kevy when the read grows the table
        // Redis picks a random key to evict, kevy the oldest: compare the shape, and kevy's choice
        String k = kevy.redir.readReply();
        String r = redis.redir.readReply();
        assertThat(List.of(invalidation("a"), invalidation("b"))).contains(r);
        assertThat(k).isEqualTo(invalidation("a"));
        both(s -> infoFields(s.writer.call("INFO", "stats")).lines().filter(l -> l.contains("_keys") || l
                .contains("_items")).toList().toString());
        kevy.writer.call("SET", "b", "1"); // the key left in the table on each
        redis.writer.call("SET", r.equals(invalidation("a")) ? "b" : "a", "1");
        assertThat(kevy.redir.readReply()).isEqualTo(invalidation("b"));
        assertThat(redis.redir.readReply()).isNotEqualTo(r);
        writer("CONFIG", "SET", "tracking-table-max-keys", "0"); // no limit
        client("MGET", "x", "y", "z");
        both(s -> infoFields(s.writer.call("INFO", "stats")));
    }

    /** Hostile input: many prefixes are checked for collisions without a quadratic cost, and named as Redis does. */
    @Test
    void manyPrefixesAreCheckedQuickly() {
        int n = 20_000;
        String[] args = new String[3 + 2 * n];
        args[0] = "CLIENT";
        args[1] = "TRACKING";
        args[2] = "ON";
        args[3] = "BCAST";
        for (int i = 0; i < n - 1; i++) {
            args[4 + 2 * i] = "PREFIX";
            args[5 + 2 * i] = String.format("p%05d:", i);
        }
        args[args.length - 1] = "NOLOOP";
        // the yardstick: a request of as many arguments that does nothing with them (kevy reads a request of
        // 40,000 arguments in seconds on this host; the tracking check must add no more than that again)
        String[] echo = new String[args.length];
        Arrays.fill(echo, "x");
        echo[0] = "DEL";
        long e0 = System.nanoTime();
        kevy.writer.call(echo);
        long requestMs = (System.nanoTime() - e0) / 1_000_000;
        long t0 = System.nanoTime(); // kevy only: Redis's own check is quadratic (about 10 s here)
        assertThat(kevy.client.call(args)).isEqualTo("+OK\r\n");
        long trackingMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("CLIENT TRACKING ON BCAST with %d prefixes: %d ms (a DEL of as many arguments: %d ms)%n",
                n - 1, trackingMs, requestMs);
        assertThat(trackingMs).as("ms for %d prefixes", n).isLessThan(2 * requestMs + 1_000);
        assertThat(infoFields(kevy.writer.call("INFO", "stats"))).contains("tracking_total_prefixes:" + (n - 1));
        kevy.client.call("CLIENT", "TRACKING", "OFF");
        oracle.same(Arrays.copyOf(args, 4 + 2 * 2000)); // 2,000 prefixes: the same on both
        both(s -> infoFields(s.writer.call("INFO", "stats")));
        oracle.same("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "q", "PREFIX", "p00042:x", "PREFIX", "r");
        oracle.same("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "q", "PREFIX", "r", "PREFIX", "qq");
        oracle.same("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "a\u0000b", "PREFIX", "a");
        oracle.same("CLIENT", "TRACKING", "OFF");
        both(s -> infoFields(s.writer.call("INFO", "stats")));
    }

    /**
     * RESP3 pushes byte for byte, on the client's own connection and to a redirect client of either protocol, and a
     * flush's null across protocols: Redis writes the null of the tracking client's protocol whatever the receiver
     * speaks ({@code _} in a message to a RESP2 subscriber of a RESP3 client, {@code $-1} in a push to a RESP3
     * redirect client of a RESP2 one). A RESP3 client whose redirect client went away gets
     * {@code tracking-redir-broken} in place of each invalidation (two keys and a flush: three pushes).
     */
    @Test
    void resp3PushesAndAFlushsNullAcrossProtocolsAreRedis() {
        List<String> k = pushesAcrossProtocols(() -> RawClient.connect(oracle.kevy().port()), kevy.writer);
        List<String> r = pushesAcrossProtocols(oracle.redis()::raw, redis.writer);
        assertThat(k).isEqualTo(r);
        assertThat(k).contains(">2\r\n$10\r\ninvalidate\r\n_\r\n", ">2\r\n$10\r\ninvalidate\r\n$-1\r\n",
                "*3\r\n$7\r\nmessage\r\n$20\r\n__redis__:invalidate\r\n_\r\n");
        assertThat(k.subList(k.size() - 4, k.size() - 1))
                .containsOnly(">2\r\n$21\r\ntracking-redir-broken\r\n:<id>\r\n");
    }

    private static List<String> pushesAcrossProtocols(Supplier<RawClient> connect, RawClient writer) {
        List<String> out = new ArrayList<>();
        try (RawClient c3 = connect.get(); RawClient sub2 = connect.get(); RawClient c2 = connect.get();
                RawClient r3 = connect.get()) {
            c3.call("HELLO", "3");
            r3.call("HELLO", "3");
            // a RESP3 client on its own connection
            out.add(c3.call("CLIENT", "TRACKING", "ON"));
            out.add(c3.call("GET", "k"));
            out.add(writer.call("SET", "k", "1"));
            out.add(c3.readReply());
            out.add(writer.call("FLUSHALL"));
            out.add(c3.readReply());
            // the RESP3 client redirected to a RESP2 subscriber
            String sub2Id = sub2.call("CLIENT", "ID").replaceAll("[:\r\n]", "");
            out.add(sub2.call("SUBSCRIBE", "__redis__:invalidate"));
            out.add(c3.call("CLIENT", "TRACKING", "ON", "REDIRECT", sub2Id));
            out.add(c3.call("GET", "k"));
            out.add(writer.call("SET", "k", "2"));
            out.add(sub2.readReply());
            out.add(writer.call("FLUSHALL"));
            out.add(sub2.readReply());
            out.add(c3.call("CLIENT", "TRACKING", "OFF"));
            // a RESP2 client redirected to a RESP3 client (not subscribed: it gets pushes)
            String r3Id = r3.call("CLIENT", "ID").replaceAll("[:\r\n]", "");
            out.add(c2.call("CLIENT", "TRACKING", "ON", "REDIRECT", r3Id));
            out.add(c2.call("GET", "k"));
            out.add(writer.call("SET", "k", "3"));
            out.add(r3.readReply());
            out.add(writer.call("FLUSHALL"));
            out.add(r3.readReply());
            out.add(c2.call("CLIENT", "TRACKING", "OFF"));
            out.add(r3.call("PING"));
            // the redirect client goes away: a RESP3 tracking client is told in place of every invalidation
            RawClient gone = connect.get();
            String goneId = gone.call("CLIENT", "ID").replaceAll("[:\r\n]", "");
            out.add(c3.call("CLIENT", "TRACKING", "ON", "REDIRECT", goneId));
            out.add(c3.call("MGET", "a", "b"));
            gone.close();
            long deadline = System.currentTimeMillis() + 5000;
            while (writer.call("CLIENT", "LIST", "ID", goneId).contains("id=")) {
                assertThat(System.currentTimeMillis()).as("client %s gone", goneId).isLessThan(deadline);
                Thread.onSpinWait();
            }
            out.add(writer.call("SET", "a", "1"));
            out.add(writer.call("SET", "b", "1"));
            out.add(writer.call("FLUSHALL"));
            for (int i = 0; i < 3; i++) {
                out.add(c3.readReply().replace(":" + goneId + "\r\n", ":<id>\r\n"));
            }
            out.add(c3.call("PING"));
        }
        return out;
    }

    /**
     * A RESP3 client tracking on its own connection gets the invalidation its own command caused right after that
     * command's reply and before the next one's (Redis 7.0 holds the current client's invalidations until
     * {@code afterCommand}): in a pipeline, from a script (kevy runs it on the script thread and writes its reply
     * from there), from a script inside MULTI/EXEC (after the whole EXEC reply, so the stale value the transaction
     * read is not cached after its invalidation), from FCALL and from its own FLUSHALL. A BCAST message follows
     * the replies of the commands read with it (Redis sends those at the end of the event-loop cycle). Each step is
     * one write and compared byte for byte, up to a closing PING.
     */
    @Test
    void ownInvalidationsFollowTheReplyOfTheCommandThatCausedThem() {
        try (RawClient k = RawClient.connect(oracle.kevy().port()); RawClient r = oracle.redis().raw()) {
            List<String> kevyStream = ownInvalidations(k);
            List<String> redisStream = ownInvalidations(r);
            for (int i = 0; i < Math.min(kevyStream.size(), redisStream.size()); i++) {
                assertThat(kevyStream.get(i)).as("step %d", i).isEqualTo(redisStream.get(i));
            }
            assertThat(kevyStream).isEqualTo(redisStream);
            String push = ">2\r\n$10\r\ninvalidate\r\n*1\r\n$1\r\nk\r\n";
            assertThat(kevyStream.get(1)).isEqualTo("_\r\n+OK\r\n" + push + "$1\r\nv\r\n$2\r\np1\r\n");
            assertThat(kevyStream.get(2)).isEqualTo(":1\r\n" + push + "$2\r\np2\r\n");
            assertThat(kevyStream.get(3)).endsWith("*2\r\n$1\r\nw\r\n:1\r\n" + push + "$2\r\np3\r\n");
        }
    }

    private static List<String> ownInvalidations(RawClient c) {
        List<String> out = new ArrayList<>();
        c.call("HELLO", "3");
        out.add(c.call("CLIENT", "TRACKING", "ON"));
        String setScript = "redis.call('set', KEYS[1], ARGV[1]) return 1";
        out.add(pipeline(c, "p1", new String[] {"GET", "k"}, new String[] {"SET", "k", "v"},
                new String[] {"GET", "k"}));
        out.add(pipeline(c, "p2", new String[] {"EVAL", setScript, "1", "k", "w"}));
        out.add(pipeline(c, "p3", new String[] {"MULTI"}, new String[] {"GET", "k"},
                new String[] {"EVAL", setScript, "1", "k", "x"}, new String[] {"EXEC"}));
        out.add(c.call("FUNCTION", "LOAD", "REPLACE", "#!lua name=owninval\n"
                + "redis.register_function('setk', function(keys, args) return redis.call('set', keys[1], args[1]) end)"));
        out.add(pipeline(c, "p4", new String[] {"GET", "k"}, new String[] {"FCALL", "setk", "1", "k", "y"},
                new String[] {"GET", "k"}, new String[] {"FLUSHALL"}));
        out.add(c.call("FUNCTION", "DELETE", "owninval"));
        out.add(pipeline(c, "p5", new String[] {"GET", "k"}, new String[] {"SET", "k", "z"}));
        out.add(c.call("CLIENT", "TRACKING", "OFF"));
        out.add(c.call("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", "b"));
        out.add(pipeline(c, "p6", new String[] {"SET", "b1", "x"}, new String[] {"GET", "b1"}));
        out.add(pipeline(c, "p7", new String[] {"EVAL", setScript, "1", "b2", "x"}));
        out.add(c.call("PING"));
        return out;
    }

    /**
     * Sends {@code commands} and {@code PING <marker>} in one write and returns everything the server wrote up to
     * the marker, as one string.
     */
    private static String pipeline(RawClient c, String marker, String[]... commands) {
        java.io.ByteArrayOutputStream o = new java.io.ByteArrayOutputStream();
        for (String[] cmd : commands) {
            o.writeBytes(encode(cmd));
        }
        o.writeBytes(encode("PING", marker));
        c.send(o.toByteArray());
        String end = "$" + marker.length() + "\r\n" + marker + "\r\n";
        StringBuilder sb = new StringBuilder();
        String reply;
        do {
            reply = c.readReply();
            sb.append(reply);
        } while (!reply.equals(end));
        return sb.toString();
    }

    private static byte[] encode(String... args) {
        byte[][] b = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            b[i] = args[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        return RawClient.encode(b);
    }

    /** A script's reads are remembered for the client that ran it (Redis: the script caller); EVAL_RO's keys not. */
    @Test
    void scriptReadsAreTrackedForTheirCaller() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>");
        client("EVAL", "return redis.call('get', KEYS[1])", "1", "s1");
        client("EVAL_RO", "return 1", "1", "s2"); // declares s2, reads nothing
        writer("SET", "s2", "x");
        writer("SET", "s1", "x");
        assertThat(message()).isEqualTo(invalidation("s1"));
        nothingDeliveredBefore("m1");
    }

    /** Disconnecting drops the client's tracking and its BCAST prefixes (Redis's freeClient). */
    @Test
    void disconnectDropsTracking() {
        client("CLIENT", "TRACKING", "ON", "REDIRECT", "<redir>", "BCAST", "PREFIX", "a", "PREFIX", "b");
        both(s -> infoFields(s.writer.call("INFO", "clients")) + infoFields(s.writer.call("INFO", "stats")));
        String kevyId = kevy.client.call("CLIENT", "ID");
        String redisId = redis.client.call("CLIENT", "ID");
        kevy.client.close();
        redis.client.close();
        long deadline = System.currentTimeMillis() + 5000;
        while (kevy.writer.call("CLIENT", "LIST", "ID", kevyId.replaceAll("[:\r\n]", "")).contains("id=")
                || redis.writer.call("CLIENT", "LIST", "ID", redisId.replaceAll("[:\r\n]", "")).contains("id=")) {
            assertThat(System.currentTimeMillis()).as("client gone").isLessThan(deadline);
            Thread.onSpinWait();
        }
        both(s -> infoFields(s.writer.call("INFO", "clients")) + infoFields(s.writer.call("INFO", "stats")));
        writer("SET", "a1", "x");
        nothingDeliveredBefore("m1");
    }
}
