package io.kevy.testing;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import io.kevy.feed.FeedConfig;
import io.kevy.resp.ReplySink;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An engine without network and without cron, on a clock the test moves: for deterministic tests of TTLs,
 * idle times and expired-but-not-reaped keys. {@link #run} returns the RESP2 bytes of the reply as an
 * ISO-8859-1 string, exactly as a socket client would read them.
 *
 * <p>Not thread-safe: one test thread.
 */
public final class EngineHarness implements AutoCloseable {
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final Engine engine;
    private final Dispatcher dispatcher;
    private final Session session;
    private final FrameRecorder frames;

    public EngineHarness(int shards) {
        KevyInstance kevy = KevyInstance.assemble(EngineConfig.defaults().withShards(shards).withClock(clock::get),
                FeedConfig.disabled());
        this.engine = kevy.engine();
        this.dispatcher = kevy.dispatcher();
        this.session = new Session(1, new NoChannel(), clock.get(), true);
        this.frames = FrameRecorder.attach(engine);
    }

    public Engine engine() {
        return engine;
    }

    public FrameRecorder frames() {
        return frames;
    }

    /** The current time of the engine's clock, ms since the epoch. */
    public long now() {
        return clock.get();
    }

    /** Moves the clock forward by {@code ms}. */
    public void advance(long ms) {
        clock.addAndGet(ms);
    }

    /** Runs one command and returns its reply in RESP2. */
    public String run(String... args) {
        byte[][] argv = new byte[args.length][];
        for (int i = 0; i < args.length; i++) {
            argv[i] = args[i].getBytes(StandardCharsets.UTF_8);
        }
        Resp out = new Resp();
        dispatcher.dispatch(session, argv, out);
        return out.sb.toString();
    }

    @Override
    public void close() {
        engine.close();
    }

    /** Renders replies as RESP2 text (bytes as ISO-8859-1 characters). */
    private static final class Resp implements ReplySink {
        final StringBuilder sb = new StringBuilder();

        @Override
        public void ok() {
            sb.append("+OK\r\n");
        }

        @Override
        public void simple(String s) {
            sb.append('+').append(s).append("\r\n");
        }

        @Override
        public void error(ErrorReply error) {
            sb.append(new String(error.resp(), StandardCharsets.ISO_8859_1));
        }

        @Override
        public void integer(long v) {
            sb.append(':').append(v).append("\r\n");
        }

        @Override
        public void bulk(byte[] b) {
            bulk(b, 0, b.length);
        }

        @Override
        public void bulk(byte[] b, int off, int len) {
            sb.append('$').append(len).append("\r\n").append(new String(b, off, len, StandardCharsets.ISO_8859_1))
                    .append("\r\n");
        }

        @Override
        public void nullBulk() {
            sb.append("$-1\r\n");
        }

        @Override
        public void nullArray() {
            sb.append("*-1\r\n");
        }

        @Override
        public void array(int n) {
            sb.append('*').append(n).append("\r\n");
        }
    }

    private static final class NoChannel implements ClientChannel {
        @Override
        public ReplySink newAsyncReply() {
            throw new UnsupportedOperationException("no blocking commands in the harness");
        }

        @Override
        public void sendAsync(ReplySink reply, boolean wrote) {
            throw new UnsupportedOperationException("no blocking commands in the harness");
        }

        @Override
        public void execute(Runnable task) {
            throw new UnsupportedOperationException("no blocking commands in the harness");
        }

        @Override
        public void close() {
        }

        @Override
        public String remoteAddress() {
            return "";
        }

        @Override
        public String localAddress() {
            return "";
        }
    }
}
