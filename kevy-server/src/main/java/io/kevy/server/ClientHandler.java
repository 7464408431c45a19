package io.kevy.server;

import io.kevy.config.Sizes;
import io.kevy.engine.Durability;
import io.kevy.engine.Engine;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.session.ClientChannel;
import io.kevy.engine.session.Session;
import io.kevy.engine.text.Bytes;
import io.kevy.resp.ProtocolException;
import io.kevy.resp.ReplySink;
import io.kevy.resp.RespParser;
import io.kevy.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: parses commands from the cumulated input and runs each one on the event loop as
 * soon as it is complete (the execution model of the architecture page), then flushes all replies of a read
 * batch in one write.
 *
 * <p>Command processing pauses, with socket reads off, while the session is blocked (BLPOP, FEED.READ BLOCK)
 * or while the socket is not writable (backpressure: a client that does not read its replies stops being
 * read), and resumes on the event loop when the reply arrives or the socket drains. Commands are therefore
 * always processed one at a time and in order.
 *
 * <p>Not shareable: one instance per channel. The {@link ClientChannel} methods are thread-safe.
 */
final class ClientHandler extends ByteToMessageDecoder implements ClientChannel {
    private static final Logger log = LoggerFactory.getLogger(ClientHandler.class);

    private final KevyServer server;
    private final Engine engine;
    private final Dispatcher dispatcher;
    private final RespParser parser;
    private RespWriter writer;
    private ChannelHandlerContext ctx;
    private Session session;
    private boolean blocked;
    private boolean backpressure;
    private boolean closing;
    /** Closed by {@link #closeAsap}: nothing more is sent, not even the replies already written. */
    private boolean dropOutput;
    /** Replies waiting for the fsync of the writes before them (appendfsync always), in order. */
    private final ArrayDeque<HeldReply> held = new ArrayDeque<>(0);
    /** Bytes of {@link #held}. */
    private long heldBytes;
    /** What this connection buffers, charged to the server's budget. */
    private final ClientBuffers buffers;
    /** An empty write is queued behind pending output to re-count it once that is sent. */
    private boolean drainWatch;
    /** {@link #describe}, made once (not a new lambda per read and flush). */
    private final java.util.function.Supplier<String> who = this::describe;

    private record HeldReply(long seq, ByteBuf bytes) {
    }

    ClientHandler(KevyServer server) {
        this.server = server;
        this.engine = server.engine();
        this.dispatcher = server.dispatcher();
        this.parser = new RespParser(server.protocolLimits());
        this.buffers = new ClientBuffers(server.clientMemory());
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.writer = new RespWriter(ctx.alloc());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (!server.admit()) {
            closing = true;
            ctx.writeAndFlush(Unpooled.wrappedBuffer(MAX_CLIENTS.resp())).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        session = engine.sessions().open(this, engine.clock().millis(), engine.requirePass() == null);
        super.channelActive(ctx);
    }

    private static final ErrorReply MAX_CLIENTS = ErrorReply.err("max number of clients reached");

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // backpressure is checked before every command: ByteToMessageDecoder calls decode again as long as it
        // consumed input, so a pipelined batch from a client that does not read would otherwise run to its end.
        while (!blocked && !closing && !backpressure && session != null) {
            byte[][] argv;
            try {
                argv = parser.parse(in, session.authenticated() || engine.requirePass() == null);
            } catch (ProtocolException e) {
                in.skipBytes(in.readableBytes());
                writer.error(ErrorReply.of(e.replyText()));
                closeAfterFlush();
                return;
            }
            if (argv == null) {
                return;
            }
            if (isHttp(argv[0])) { // Redis's securityWarningCommand: closed at once, nothing more run or sent
                securityWarning();
                in.skipBytes(in.readableBytes());
                writer.discard();
                ctx.close();
                return;
            }
            server.countCommand(argv);
            Dispatcher.Outcome outcome = dispatcher.dispatch(session, argv, parser.request(), writer);
            if (dropOutput) { // the command went over the output limit (closeAsap): drop everything
                in.skipBytes(in.readableBytes());
                writer.discard();
                return;
            }
            if (outcome == Dispatcher.Outcome.CLOSE) {
                in.skipBytes(in.readableBytes());
                closeAfterFlush();
                return;
            }
            if (outcome == Dispatcher.Outcome.BLOCKED) {
                blocked = true;
                flush();
                ctx.channel().config().setAutoRead(false);
                return;
            }
            if (writer.pending() >= server.flushThreshold()) {
                flush();
            }
        }
    }

    /** Counts the bytes read from the socket (INFO stats {@code total_net_input_bytes}), then decodes them. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf b) {
            server.countInput(b.readableBytes());
        }
        super.channelRead(ctx, msg);
        // what stays buffered until the next read: unparsed bytes and the partial command's parsed arguments
        if (!buffers.input(internalBuffer().readableBytes() + parser.heldBytes(), server.queryBufferLimit(),
                who) && !closing) {
            closing = true;
            ctx.close();
        }
    }

    /** The client as the limit log lines name it (no bytes of its input: they may hold a password). */
    private String describe() {
        return "id=" + (session == null ? "?" : Long.toString(session.id())) + " addr=" + remoteAddress()
                + " laddr=" + localAddress();
    }

    /**
     * Flushes the replies of the read batch. Does not call {@code ByteToMessageDecoder.channelReadComplete}: with
     * auto-read off it asks for one more read whenever decode produced no message, and this decoder never
     * produces one, so a blocked or back-pressured client would keep being read without bound.
     */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        flush();
        discardSomeReadBytes();
        ctx.fireChannelReadComplete();
    }

    /**
     * Writes and flushes pending replies; turns reads off when the socket cannot take more. Under appendfsync
     * always, replies that follow a write are held until the AOF fsync covering it (group commit), keeping
     * their order.
     */
    private void flush() {
        if (dropOutput) {
            writer.discard();
            return;
        }
        ByteBuf b = writer.take();
        if (b != null) {
            Durability d = engine.durability();
            boolean wrote = session != null && session.takeWrote();
            if (d.gatesReplies() && (wrote || !held.isEmpty())) {
                long seq = d.currentSeq();
                heldBytes += b.readableBytes();
                held.add(new HeldReply(seq, b));
                d.whenDurable(seq, () -> ctx.executor().execute(this::releaseHeld));
                return;
            }
            server.countOutput(b.readableBytes());
            ctx.writeAndFlush(b, ctx.voidPromise());
        }
        if (!accountOutput()) {
            return;
        }
        if (!ctx.channel().isWritable() && !backpressure && !closing) {
            backpressure = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    /**
     * Charges the unsent reply bytes (the socket's outbound buffer and the held replies) against the normal
     * clients' hard limit and the server's budget; closes the connection (false) when either refuses. Unsent
     * bytes under {@link #UNCHARGED_OUTPUT} are not charged: a socket write can complete after the flush returns
     * (io_uring), so every reply would otherwise be charged and released through the shared budget. While more
     * wait in the outbound buffer, an empty write behind them re-counts once they are sent.
     */
    private boolean accountOutput() {
        io.netty.channel.ChannelOutboundBuffer ob = ctx.channel().unsafe().outboundBuffer();
        long unsent = ob == null ? 0 : ob.totalPendingWriteBytes();
        long charged = (unsent < UNCHARGED_OUTPUT ? 0 : unsent) + heldBytes;
        boolean pubsub = pubsubClass();
        long hard = outputHardLimit(pubsub);
        if (!buffers.output(hard > 0 && unsent + heldBytes > hard ? unsent + heldBytes : charged, hard,
                pubsub ? "pubsub" : "normal", who)) {
            if (!closing) {
                closing = true;
                ctx.close();
            }
            return false;
        }
        if (unsent >= UNCHARGED_OUTPUT && !drainWatch && !closing) {
            drainWatch = true;
            // the listener runs before the outbound buffer drops the empty write's own entry: re-count after it
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ctx.executor().execute(() -> {
                drainWatch = false;
                accountOutput();
            }));
        }
        return true;
    }

    /** Unsent reply bytes of one connection that are not charged to the budget: the flush threshold, 64 KiB. */
    private static final long UNCHARGED_OUTPUT = 64 * 1024;

    /**
     * The most reply bytes one connection buffers for a reply whose length the client chooses when no output limit
     * says less ({@link #outputRoom}): a quarter of the heap, at most 1 GiB (a reply buffer holds at most 2 GiB).
     * Redis, without limits, writes on until it runs out of memory.
     */
    static final long REPLY_CEILING = Math.min(1L << 30, Runtime.getRuntime().maxMemory() / 4);

    /**
     * Redis's getClientType: a subscribed connection is of the pubsub class, so a huge SUBSCRIBE confirmation is
     * bounded by client-output-buffer-limit pubsub as its messages are.
     */
    private boolean pubsubClass() {
        var subs = session == null ? null : session.subscriptions();
        return subs != null && subs.active();
    }

    /** The hard limit of the connection's client-output-buffer-limit class, bytes; 0 for none. */
    private long outputHardLimit(boolean pubsub) {
        return pubsub ? server.pubsubOutputHardLimit() : server.outputBufferHardLimit();
    }

    /** Sends the held replies whose writes are now durable. On the event loop. */
    private void releaseHeld() {
        long durable = engine.durability().durableSeq();
        boolean any = false;
        while (!held.isEmpty() && held.peekFirst().seq() <= durable) {
            HeldReply h = held.pollFirst();
            heldBytes -= h.bytes().readableBytes();
            if (closing) {
                h.bytes().release();
                continue;
            }
            server.countOutput(h.bytes().readableBytes());
            ctx.write(h.bytes(), ctx.voidPromise());
            any = true;
        }
        if (any) {
            ctx.flush();
        }
        if (!held.isEmpty() && engine.durability().fsyncFailed()) { // never acknowledged (Redis #8347)
            log.warn("closing client {}: the AOF fsync its writes waited for failed", session == null ? "?"
                    : session.id());
            while (!held.isEmpty()) {
                HeldReply h = held.pollFirst();
                heldBytes -= h.bytes().readableBytes();
                h.bytes().release();
            }
            closing = true;
            ctx.close();
        }
        if (!closing) {
            accountOutput();
        }
    }

    private void closeAfterFlush() {
        closing = true;
        ByteBuf b = writer.take();
        ByteBuf out = b == null ? Unpooled.EMPTY_BUFFER : b;
        ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable() && backpressure) {
            backpressure = false;
            resume();
        }
        super.channelWritabilityChanged(ctx);
    }

    /** Continues with commands already buffered, then reads the socket again. On the event loop. */
    private void resume() {
        if (closing || blocked || backpressure) {
            return;
        }
        ctx.channel().config().setAutoRead(true);
        try {
            channelRead(ctx, Unpooled.EMPTY_BUFFER);
            flush();
        } catch (Exception e) {
            exceptionCaught(ctx, e);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closing = true;
        writer.discard();
        while (!held.isEmpty()) {
            held.pollFirst().bytes().release();
        }
        heldBytes = 0;
        buffers.release();
        if (session != null) {
            session.cancelBlocked();
            engine.unwatchAll(session);
            session.killed(true);
            server.sessionClosed(session);
            session = null;
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof java.io.IOException)) {
            log.warn("connection {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }

    /* ---- ClientChannel: called from other threads ---- */

    @Override
    public ReplySink newAsyncReply() {
        return new RespWriter(ctx.alloc(), session == null ? 2 : session.protocol());
    }

    /**
     * Delivers the reply of the blocked command on the event loop, through the same path as every other reply:
     * a reply that follows a write (a served BLPOP) is held until the write is durable under appendfsync
     * always. Then resumes the commands the client sent meanwhile.
     */
    @Override
    public void sendAsync(ReplySink reply, boolean wrote) {
        RespWriter w = (RespWriter) reply;
        ctx.executor().execute(() -> {
            ByteBuf b = w.take();
            if (closing || session == null) {
                if (b != null) {
                    b.release();
                }
                return;
            }
            if (b != null) {
                writer.raw(b);
                b.release();
            }
            if (wrote) {
                session.markWrote();
            }
            blocked = false;
            flush();
            resume();
        });
    }

    @Override
    public void execute(Runnable task) {
        ctx.executor().execute(task);
    }

    @Override
    public void close() {
        ctx.executor().execute(() -> {
            closing = true;
            ctx.close();
        });
    }

    /** An event loop serves many connections: a script must not run on it (EVAL goes to the script thread). */
    @Override
    public boolean runsScriptsElsewhere() {
        return true;
    }

    @Override
    public boolean supportsPush() {
        return true;
    }

    /** Appends a Pub/Sub message after the replies written so far (on the event loop). */
    @Override
    public void push(byte[] resp) {
        if (!closing && session != null) {
            writer.pushEncoded(resp);
        }
    }

    @Override
    public boolean onOwnThread() {
        return ctx != null && ctx.executor().inEventLoop();
    }

    /** Sends the pushed messages through the reply path (backpressure and held replies included). */
    @Override
    public void flushPushes() {
        if (!closing && session != null) {
            flush();
        }
    }

    /**
     * The room a reply has before this connection is over its hard output limit or {@code maxmemory-clients}
     * (Redis checks both on what the client buffers: unsent bytes, held replies, and replies written since the
     * last flush, which the caller's sink holds), at most {@link #REPLY_CEILING}.
     */
    @Override
    public long outputRoom() {
        long buffered = pendingOutputBytes() + heldBytes;
        long room = REPLY_CEILING;
        long hard = outputHardLimit(pubsubClass());
        if (hard > 0) {
            room = Math.min(room, hard - buffered);
        }
        ClientMemory memory = server.clientMemory();
        if (memory.budget() > 0) {
            room = Math.min(room, memory.budget() - memory.used() - (buffered - buffers.output()));
        }
        return room;
    }

    /**
     * Redis's CLIENT_CLOSE_ASAP after the output limit: closes without sending what was written and not yet sent,
     * and runs none of the commands pipelined behind (the decode loop drops them and the reply buffer). Logged as
     * Redis logs it.
     */
    @Override
    public void closeAsap() {
        if (ctx.executor().inEventLoop()) {
            dropAndClose();
        } else {
            ctx.executor().execute(this::dropAndClose);
        }
    }

    private void dropAndClose() {
        if (dropOutput) {
            return;
        }
        log.warn("Client {} scheduled to be closed ASAP for overcoming of output buffer limits (a reply of the "
                + "length it asked for would exceed client-output-buffer-limit {} {}, maxmemory-clients {} or the "
                + "{} bytes one reply may hold)", who.get(), pubsubClass() ? "pubsub" : "normal",
                outputHardLimit(pubsubClass()), Sizes.format(server.clientMemory().budget()), REPLY_CEILING);
        dropOutput = true;
        closing = true;
        writer.discard();
        ctx.close();
    }

    @Override
    public long pendingOutputBytes() {
        io.netty.channel.ChannelOutboundBuffer b = ctx.channel().unsafe().outboundBuffer();
        return b == null ? 0 : b.totalPendingWriteBytes();
    }

    @Override
    public String remoteAddress() {
        return format(ctx.channel().remoteAddress());
    }

    @Override
    public String localAddress() {
        return format(ctx.channel().localAddress());
    }

    private static String format(SocketAddress a) {
        if (a instanceof InetSocketAddress i) {
            return i.getAddress().getHostAddress() + ":" + i.getPort();
        }
        return a == null ? "" : a.toString();
    }

    private static final java.util.concurrent.atomic.AtomicLong SECURITY_WARNED_AT_MS =
            new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE / 2);

    /**
     * {@code POST} or {@code Host:} as a command's name: an HTTP request, e.g. a web page making the browser post
     * to a server on 127.0.0.1 (cross-protocol scripting). Redis closes such a connection before running anything
     * more from it; so does kevy.
     */
    static boolean isHttp(byte[] name) {
        return (name.length == 4 || name.length == 5)
                && (Bytes.equalsIgnoreCase(name, "post") || Bytes.equalsIgnoreCase(name, "host:"));
    }

    /** Redis's warning for {@link #isHttp}, logged at most once a minute. */
    private void securityWarning() {
        long now = System.currentTimeMillis();
        long last = SECURITY_WARNED_AT_MS.get();
        if (Math.abs(now - last) > 60_000 && SECURITY_WARNED_AT_MS.compareAndSet(last, now)) {
            log.warn("Possible SECURITY ATTACK detected. It looks like somebody is sending POST or Host: commands "
                    + "to kevy (client {}). This is likely due to an attacker attempting to use Cross Protocol "
                    + "Scripting to compromise your instance. Connection aborted.", ctx.channel().remoteAddress());
        }
    }
}
