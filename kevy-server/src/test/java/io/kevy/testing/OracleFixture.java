package io.kevy.testing;

import io.kevy.engine.Engine;
import io.kevy.engine.command.CommandTable;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The class-wide fixture of the tests that compare kevy with a real Redis 7.0: one in-process kevy
 * ({@link TestServer}), one {@code redis-server} ({@link RedisOracle}) and a {@link ReplyDiff} between raw
 * connections to them, started before the first test of the class and closed after the last. Unless told
 * otherwise, every test starts from {@code FLUSHALL} on both (compared), with the frames recorded so far dropped.
 *
 * <p>A JUnit 5 extension registered on a static field, so the settings sit next to the tests:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final OracleFixture oracle = OracleFixture.create().shards(4).recordFrames();
 *
 * @Test
 * void getMatchesRedis() {
 *     oracle.same("SET", "k", "v");
 *     oracle.sameLine("GET k");    // a command line: split on spaces
 *     oracle.kevy().lettuce().get("k");
 * }
 * }</pre>
 *
 * <p>Both connections speak RESP2 unless {@link #protocol(int)} says 3 (each then sends {@code HELLO 3} first and
 * the replies are compared in RESP3); the system property {@code kevy.oracle.protocol=3} switches every oracle
 * test that did not choose, so the whole corpus can be run on RESP3
 * ({@code -Dit.test='*IT' -Dkevy.oracle.protocol=3}); a whole {@code verify} does so through kevy-server's
 * {@code oracle-resp3} profile, whose list of classes a new oracle test class joins.
 *
 * <p>The settings methods are for the field initialiser only. Not thread safe: one test class, one thread (the
 * JUnit default). When {@code redis-server} is not installed the class is skipped, as {@link RedisOracle#start}
 * does.
 */
public final class OracleFixture implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback {
    private UnaryOperator<ServerConfig> config = c -> c;
    private String[] redisArgs = new String[0];
    private boolean flushEachTest = true;
    private boolean freshConnectionsEachTest;
    private boolean recordFrames;
    private int protocol = Integer.getInteger("kevy.oracle.protocol", 2);

    private TestServer kevy;
    private RedisOracle redis;
    private ReplyDiff diff;
    private FrameRecorder frames;
    private RedisClient redisClient;
    private RedisCommands<String, String> redisLettuce;

    private OracleFixture() {
    }

    /** A fixture with {@link TestServer#start()}'s defaults (2 shards) and a plain redis-server. */
    public static OracleFixture create() {
        return new OracleFixture();
    }

    /** Adjusts kevy's config (applied after {@link TestServer}'s defaults). */
    public OracleFixture server(UnaryOperator<ServerConfig> customizer) {
        UnaryOperator<ServerConfig> before = config;
        config = c -> customizer.apply(before.apply(c));
        return this;
    }

    /** kevy with {@code n} shards. */
    public OracleFixture shards(int n) {
        return server(c -> c.with(ServerOptions.SHARDS, n));
    }

    /** Extra redis-server command-line settings, e.g. {@code "--enable-debug-command", "yes"}. */
    public OracleFixture redisArgs(String... args) {
        redisArgs = args.clone();
        return this;
    }

    /** Compares the replies in RESP {@code version} (2 or 3): both connections send {@code HELLO <version>} first. */
    public OracleFixture protocol(int version) {
        protocol = version;
        return this;
    }

    /** The RESP version the compared connections speak. */
    public int protocol() {
        return protocol;
    }

    /** Records kevy's effect frames from the start ({@link #frames()}); each test starts with none. */
    public OracleFixture recordFrames() {
        recordFrames = true;
        return this;
    }

    /** Tests share the data: no FLUSHALL before each test (for read-only or self-contained tests). */
    public OracleFixture noFlush() {
        flushEachTest = false;
        return this;
    }

    /**
     * A new {@link ReplyDiff} on new connections before each test's FLUSHALL, for state a real Redis keeps per
     * connection or process that kevy does not reproduce (see SortCommandsIT).
     */
    public OracleFixture freshConnectionsEachTest() {
        freshConnectionsEachTest = true;
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        try {
            kevy = TestServer.start(config);
            redis = RedisOracle.start(redisArgs);
            diff = newDiff();
            if (recordFrames) {
                frames = FrameRecorder.attach(kevy.server().engine());
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (freshConnectionsEachTest) {
            reconnect();
        }
        if (flushEachTest) {
            diff.same("FLUSHALL");
            if (frames != null) {
                frames.take();
            }
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    private void close() {
        if (redisClient != null) {
            redisClient.shutdown();
            redisClient = null;
            redisLettuce = null;
        }
        if (diff != null) {
            diff.close();
            diff = null;
        }
        if (redis != null) {
            redis.close();
            redis = null;
        }
        if (kevy != null) {
            kevy.close();
            kevy = null;
        }
        frames = null;
    }

    /** The kevy server (its lettuce and raw clients, its engine). */
    public TestServer kevy() {
        return kevy;
    }

    /** The real Redis. */
    public RedisOracle redis() {
        return redis;
    }

    /** The reply comparison between one raw connection to each. */
    public ReplyDiff diff() {
        return diff;
    }

    /** kevy's engine, for in-process reads ({@link StateDump}). */
    public Engine engine() {
        return kevy.server().engine();
    }

    /** kevy's command table. */
    public CommandTable commands() {
        return kevy.server().dispatcher().commands();
    }

    /** The frames kevy emitted since the test began (with {@link #recordFrames()} only). */
    public FrameRecorder frames() {
        if (frames == null) {
            throw new IllegalStateException("the fixture does not record frames: call recordFrames()");
        }
        return frames;
    }

    /** A lettuce connection (string codec) to the real Redis, opened on first use and closed with the fixture. */
    public RedisCommands<String, String> redisLettuce() {
        if (redisLettuce == null) {
            redisClient = RedisClient.create("redis://127.0.0.1:" + redis.port());
            redisLettuce = redisClient.connect().sync();
        }
        return redisLettuce;
    }

    /** Replaces {@link #diff()} with one on new connections to both servers (closing the old connections). */
    public void reconnect() {
        diff.close();
        diff = newDiff();
    }

    private ReplyDiff newDiff() {
        ReplyDiff d = new ReplyDiff(kevy.raw(), redis.raw());
        if (protocol != 2) {
            // not compared: the connection ids differ (Resp3OracleIT.helloAnswersAsRedis compares the rest)
            d.kevy().call("HELLO", Integer.toString(protocol));
            d.redis().call("HELLO", Integer.toString(protocol));
        }
        return d;
    }

    /** {@link ReplyDiff#same}: runs {@code args} on both and asserts equal replies; returns the reply. */
    public String same(String... args) {
        return diff.same(args);
    }

    /** {@link #same(String...)} of a space-separated command line (no argument may contain a space). */
    public String sameLine(String line) {
        return diff.same(line.split(" "));
    }

    /** {@link ReplyDiff#sameBytes}: a command whose arguments are bytes (one char = one byte), on both. */
    public String sameBytes(String... args) {
        return diff.sameBytes(args);
    }

    /**
     * Runs {@code body} with {@code client-output-buffer-limit "normal <hardLimit> 0 0"} set on both servers
     * (compared), then puts Redis's default back ({@code normal 0 0 0}), also when {@code body} fails.
     */
    public void withNormalOutputLimit(String hardLimit, Runnable body) {
        same("CONFIG", "SET", "client-output-buffer-limit", "normal " + hardLimit + " 0 0");
        try {
            body.run();
        } finally {
            same("CONFIG", "SET", "client-output-buffer-limit", "normal 0 0 0");
        }
    }

    /**
     * Sends {@code PING}, {@code args} and {@code PING} in one write on a new connection to each server
     * ({@code HELLO} first on RESP3) and asserts that both close it without sending a byte, not even the first
     * PING's reply: Redis's {@code CLIENT_CLOSE_ASAP} for a client over its output limit (e.g. a random pick
     * repeated past {@code client-output-buffer-limit}). {@link #diff()}'s connections are not used.
     */
    public void sameCloseWithoutReply(String... args) {
        closesWithoutReply("redis-server", redis.port(), args);
        closesWithoutReply("kevy", kevy.port(), args);
    }

    /**
     * {@link #sameCloseWithoutReply}'s check on kevy alone, for what Redis cannot be asked: without an output
     * limit it writes such a reply until it runs out of memory, where kevy closes the connection.
     */
    public void kevyClosesWithoutReply(String... args) {
        closesWithoutReply("kevy", kevy.port(), args);
    }

    private void closesWithoutReply(String who, int port, String... args) {
        try (RawClient c = RawClient.connect(port)) {
            if (protocol != 2) {
                c.call("HELLO", Integer.toString(protocol));
            }
            byte[][] argv = new byte[args.length][];
            for (int i = 0; i < args.length; i++) {
                argv[i] = args[i].getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            byte[] ping = RawClient.encode("PING".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            out.writeBytes(ping);
            out.writeBytes(RawClient.encode(argv));
            out.writeBytes(ping);
            c.send(out.toByteArray());
            org.assertj.core.api.Assertions.assertThat(c.closedWithoutReply())
                    .as("%s closes the connection without a reply to PING, %s, PING", who, String.join(" ", args))
                    .isTrue();
        }
    }

    /** {@link ReplyDiff#sameRaw}: sends raw RESP to both and asserts equal replies. */
    public String sameRaw(String raw) {
        return diff.sameRaw(raw);
    }
}
