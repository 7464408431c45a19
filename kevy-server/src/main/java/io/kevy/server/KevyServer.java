package io.kevy.server;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Host;
import io.kevy.engine.config.RedisConfigCatalog;
import io.kevy.engine.command.Dispatcher;
import io.kevy.engine.config.RuntimeConfig;
import io.kevy.engine.session.Session;
import io.kevy.feed.Feed;
import io.kevy.pubsub.OutputLimit;
import io.kevy.feed.FeedConfig;
import io.kevy.persist.Fsync;
import io.kevy.persist.Persistence;
import io.kevy.persist.PersistenceConfig;
import io.kevy.resp.ProtocolLimits;
import io.kevy.server.config.ConfigRewrite;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.kevy.config.Sizes;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RESP2 and RESP3 network server: Netty (io_uring or epoll when available, NIO otherwise:
 * {@link Transport}) in front of an {@link Engine}.
 * {@link #start} binds and returns; {@link #close} stops accepting, closes clients and the engine.
 *
 * <p>Thread-safe. Typical use in tests: {@code KevyServer.start(ServerConfig.defaults().with(PORT, 0))} and
 * {@link #port()} for the bound port.
 */
public final class KevyServer implements AutoCloseable, Host {
    private static final Logger log = LoggerFactory.getLogger(KevyServer.class);
    private static final int FLUSH_THRESHOLD = 64 * 1024;

    private final ServerConfig config;
    private final KevyInstance kevy;
    private final Engine engine;
    private final ProtocolLimits protocolLimits = new ProtocolLimits();
    private final ChannelGroup clients = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger connections = new AtomicInteger();
    private final LongAdder connectionsReceived = new LongAdder();
    private final LongAdder rejectedConnections = new LongAdder();
    private final LongAdder commandsProcessed = new LongAdder();
    private final LongAdder inputBytes = new LongAdder();
    private final LongAdder outputBytes = new LongAdder();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch terminated = new CountDownLatch(1);
    private volatile int maxClients;
    private volatile long outputBufferHardLimit;
    private volatile String outputBufferLimits;
    private volatile String saveRules;
    private volatile String appendfsync;
    private volatile long queryBufferLimit;
    private volatile String maxmemoryClients;
    private final ClientMemory clientMemory;
    /** CONFIG REWRITE's writer of the TOML file the server was started with; null without one. */
    private final ConfigRewrite configRewrite;
    private EventLoopGroup group;
    private volatile Transport transport;
    private Channel serverChannel;
    private Persistence persistence;

    private KevyServer(ServerConfig config) {
        this.config = config;
        this.kevy = KevyInstance.assemble(EngineConfig.defaults()
                .withShards(config.get(ServerOptions.SHARDS))
                .withHz(config.get(ServerOptions.HZ)),
                config.get(ServerOptions.FEED_ENABLED)
                        ? FeedConfig.enabled(config.get(ServerOptions.FEED_BUFFER_SIZE)) : FeedConfig.disabled());
        this.engine = kevy.engine();
        engine.requirePass(config.get(ServerOptions.REQUIREPASS));
        this.maxClients = config.get(ServerOptions.MAXCLIENTS);
        this.outputBufferHardLimit = config.get(ServerOptions.CLIENT_OUTPUT_BUFFER_LIMIT);
        this.outputBufferLimits = RedisConfigCatalog.mergeOutputBufferLimits(
                RedisConfigCatalog.DEFAULT_OUTPUT_BUFFER_LIMITS, "normal " + outputBufferHardLimit + " 0 0 pubsub "
                        + config.get(ServerOptions.CLIENT_OUTPUT_BUFFER_LIMIT_PUBSUB));
        kevy.keyspaceNotifier().configure(
                RedisConfigCatalog.normalizeKeyspaceEvents(config.get(ServerOptions.NOTIFY_KEYSPACE_EVENTS)));
        kevy.pubsub().outputLimit(OutputLimit.fromConfig(outputBufferLimits));
        protocolLimits.maxBulkLen(config.get(ServerOptions.PROTO_MAX_BULK_LEN));
        protocolLimits.maxMultibulkLen(config.get(ServerOptions.PROTO_MAX_MULTIBULK_LEN));
        this.queryBufferLimit = config.get(ServerOptions.CLIENT_QUERY_BUFFER_LIMIT);
        this.maxmemoryClients = config.get(ServerOptions.MAXMEMORY_CLIENTS);
        this.clientMemory = new ClientMemory(ServerOptions.memoryOrPercent(maxmemoryClients,
                Runtime.getRuntime().maxMemory()));
        this.configRewrite = config.configFile().isEmpty() ? null
                : new ConfigRewrite(java.nio.file.Path.of(config.configFile()));
        registerConfig(engine.runtimeConfig());
        kevy.replication().listeningPort(this::port);
        kevy.replication().masterAuth(config.get(ServerOptions.MASTERAUTH));
        kevy.replication().announceIp(config.get(ServerOptions.REPLICA_ANNOUNCE_IP));
        kevy.replication().announcePort(config.get(ServerOptions.REPLICA_ANNOUNCE_PORT));
        kevy.replication().priority(config.get(ServerOptions.REPLICA_PRIORITY));
        kevy.replication().readOnly(config.get(ServerOptions.REPLICA_READ_ONLY));
    }

    /**
     * Builds the engine and binds the listening socket.
     *
     * @throws InterruptedException when interrupted while binding
     * @throws java.net.BindException naming the address and the cause when it cannot listen (in use, not a local
     *     address)
     */
    public static KevyServer start(ServerConfig config) throws InterruptedException, java.io.IOException {
        KevyServer s = new KevyServer(config);
        s.engine.host(s);
        try {
            s.persistence = s.kevy.startPersistence(persistenceConfig(config));
            s.bind();
            String replicaOf = config.get(ServerOptions.REPLICAOF);
            if (!replicaOf.isEmpty()) {
                String[] hp = replicaOf.split(" ");
                s.kevy.replication().replicaOf(hp[0], Integer.parseInt(hp[1]));
            }
        } catch (RuntimeException | InterruptedException | java.io.IOException e) {
            if (s.persistence != null) {
                // Loaded but could not serve (e.g. the port is taken): nothing was written, so stop cleanly. The
                // boot consumed the clean-shutdown markers; a clean stop writes them back, where an abort would make
                // every feed consumer rebuild after the next start.
                s.close();
            } else {
                s.abort();
            }
            throw e;
        }
        return s;
    }

    /** The persistence settings of {@code config}. */
    static PersistenceConfig persistenceConfig(ServerConfig config) {
        return PersistenceConfig.defaults(java.nio.file.Path.of(config.get(ServerOptions.DIR)))
                .withAof(config.get(ServerOptions.AOF))
                .withFsync(Fsync.parse(config.get(ServerOptions.APPENDFSYNC)))
                .withSaveRules(PersistenceConfig.parseRules(config.get(ServerOptions.SAVE)))
                .withAutoRewrite(config.get(ServerOptions.AUTO_AOF_REWRITE_PERCENTAGE),
                        config.get(ServerOptions.AUTO_AOF_REWRITE_MIN_SIZE))
                .withTruncateCorruptAof(config.get(ServerOptions.AOF_LOAD_CORRUPT).equals("truncate"))
                .withRedistribute(config.get(ServerOptions.REDISTRIBUTE));
    }

    /** The persistence of this server. */
    public Persistence persistence() {
        return persistence;
    }

    private void bind() throws InterruptedException, java.net.BindException {
        transport = Transport.select(config.get(ServerOptions.TRANSPORT));
        group = new MultiThreadIoEventLoopGroup(config.get(ServerOptions.IO_THREADS), transport.ioHandlerFactory());
        ServerBootstrap b = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannelClass())
                .option(ChannelOption.SO_BACKLOG, 511)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        connectionsReceived.increment();
                        clients.add(ch);
                        ch.pipeline().addLast("client", new ClientHandler(KevyServer.this));
                    }
                });
        String host = config.get(ServerOptions.BIND);
        int port = config.get(ServerOptions.PORT);
        try {
            serverChannel = b.bind(host, port).sync().channel();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) { // Netty rethrows the transport's bind error (an IOException) unchecked
            java.net.BindException named = new java.net.BindException("cannot listen on " + host + ":" + port + ": "
                    + e.getMessage());
            named.initCause(e);
            throw named;
        }
        engine.startCron();
        log.debug("transport: {}", transport.apiName());
    }

    /** The server's real CONFIG parameters, registered over the engine's catalog of Redis names. */
    private void registerConfig(RuntimeConfig rc) {
        rc.readOnly("port", () -> Integer.toString(port()));
        rc.readOnly("bind", () -> config.get(ServerOptions.BIND));
        rc.protectedParam("dir", () -> java.nio.file.Path.of(config.get(ServerOptions.DIR)).toAbsolutePath()
                .toString());
        rc.readOnly("io-threads", () -> Integer.toString(config.get(ServerOptions.IO_THREADS)));
        rc.readOnly("appendonly", () -> config.get(ServerOptions.AOF) ? "yes" : "no");
        appendfsync = config.get(ServerOptions.APPENDFSYNC);
        rc.enumeration("appendfsync", List.of("everysec", "always", "no"), () -> appendfsync, v -> {
            appendfsync = v;
            Persistence p = persistence;
            if (p != null) {
                p.fsync(Fsync.parse(v));
            }
        });
        saveRules = RedisConfigCatalog.normalizeSave(config.get(ServerOptions.SAVE));
        rc.parsed("save", () -> saveRules, RedisConfigCatalog::normalizeSave, v -> {
            saveRules = v;
            Persistence p = persistence;
            if (p != null) {
                p.saveRules(PersistenceConfig.parseRules(v));
            }
        });
        rc.readOnly("auto-aof-rewrite-percentage",
                () -> Integer.toString(config.get(ServerOptions.AUTO_AOF_REWRITE_PERCENTAGE)));
        rc.readOnly("auto-aof-rewrite-min-size",
                () -> Long.toString(config.get(ServerOptions.AUTO_AOF_REWRITE_MIN_SIZE)));
        rc.integer("maxclients", 1, 4294967295L, () -> maxClients,
                v -> maxClients = (int) Math.min(Integer.MAX_VALUE, v));
        rc.memory("proto-max-bulk-len", 1024 * 1024, Long.MAX_VALUE, protocolLimits::maxBulkLen,
                protocolLimits::maxBulkLen);
        rc.memory("client-query-buffer-limit", 1024 * 1024, Long.MAX_VALUE, () -> queryBufferLimit,
                v -> queryBufferLimit = v);
        rc.parsed("maxmemory-clients", () -> maxmemoryClients, RedisConfigCatalog::checkMemoryOrPercent, v -> {
            clientMemory.budget(ServerOptions.memoryOrPercent(v, Runtime.getRuntime().maxMemory()));
            maxmemoryClients = v;
        });
        rc.parsed("client-output-buffer-limit", () -> outputBufferLimits,
                v -> RedisConfigCatalog.mergeOutputBufferLimits(outputBufferLimits, v), v -> {
                    outputBufferLimits = v;
                    outputBufferHardLimit = RedisConfigCatalog.normalHardLimit(v);
                    kevy.pubsub().outputLimit(OutputLimit.fromConfig(v));
                });
    }

    public Engine engine() {
        return engine;
    }

    /** The assembled parts this server runs: engine, feed, Pub/Sub, dispatcher, persistence. */
    public KevyInstance instance() {
        return kevy;
    }

    /** The dispatcher every connection runs its commands through (its command table and statistics). */
    public Dispatcher dispatcher() {
        return kevy.dispatcher();
    }

    /** The change feed (on or off per {@code feed_enabled}). */
    public Feed feed() {
        return kevy.feed();
    }

    public ServerConfig config() {
        return config;
    }

    /** The bound TCP port (useful with port 0). */
    public int port() {
        Channel ch = serverChannel;
        return ch == null ? config.get(ServerOptions.PORT) : ((InetSocketAddress) ch.localAddress()).getPort();
    }

    ProtocolLimits protocolLimits() {
        return protocolLimits;
    }

    int flushThreshold() {
        return FLUSH_THRESHOLD;
    }

    long outputBufferHardLimit() {
        return outputBufferHardLimit;
    }

    /** The hard limit of {@code client-output-buffer-limit pubsub}, bytes (0: none): subscribed connections'. */
    long pubsubOutputHardLimit() {
        return kevy.pubsub().outputLimit().hardBytes();
    }

    /** {@code client-query-buffer-limit}, bytes. */
    long queryBufferLimit() {
        return queryBufferLimit;
    }

    /** The budget every connection's buffers are charged to ({@code maxmemory-clients}). */
    ClientMemory clientMemory() {
        return clientMemory;
    }

    /** Counts a new connection; false (and not counted) when maxclients is reached. */
    boolean admit() {
        if (connections.incrementAndGet() > maxClients) {
            connections.decrementAndGet();
            rejectedConnections.increment();
            return false;
        }
        return true;
    }

    void sessionClosed(Session session) {
        connections.decrementAndGet();
        engine.sessions().close(session);
    }

    void countCommand(byte[][] argv) {
        commandsProcessed.increment();
    }

    void countInput(int bytes) {
        inputBytes.add(bytes);
    }

    void countOutput(int bytes) {
        outputBytes.add(bytes);
    }

    /** A one-line description for the start log: address, shards, event loops and transport, dir, persistence, feed. */
    public String describe() {
        String persistence = config.get(ServerOptions.AOF)
                ? "aof(appendfsync " + config.get(ServerOptions.APPENDFSYNC) + ")" : "no aof";
        String feed = config.get(ServerOptions.FEED_ENABLED)
                ? "on (" + Sizes.format(config.get(ServerOptions.FEED_BUFFER_SIZE)) + " per shard)" : "off";
        return "listening on " + config.get(ServerOptions.BIND) + ":" + port()
                + ", shards=" + engine.shardCount()
                + ", io_threads=" + config.get(ServerOptions.IO_THREADS) + " (" + transport.apiName() + ")"
                + ", dir=" + config.get(ServerOptions.DIR)
                + ", persistence=" + persistence
                + ", feed=" + feed
                + (engine.requirePass() != null ? ", requirepass=set" : "");
    }

    @Override
    public void info(String section, Map<String, String> fields) {
        switch (section) {
            case "server" -> {
                fields.put("multiplexing_api", transport == null ? "none" : transport.apiName());
                fields.put("tcp_port", Integer.toString(port()));
                fields.put("config_file", config.configFile());
            }
            case "clients" -> {
                fields.put("connected_clients", Integer.toString(connections.get()));
                fields.put("maxclients", Integer.toString(maxClients));
                fields.put("client_recent_max_input_buffer", Long.toString(clientMemory.recentMaxInput()));
                fields.put("client_recent_max_output_buffer", Long.toString(clientMemory.recentMaxOutput()));
            }
            case "memory" -> {
                // Redis's field for the memory of normal clients' buffers: here what ClientBuffers charged
                fields.put("mem_clients_normal", Long.toString(clientMemory.used()));
            }
            case "stats" -> {
                fields.put("total_connections_received", Long.toString(connectionsReceived.sum()));
                fields.put("total_commands_processed", Long.toString(commandsProcessed.sum()));
                fields.put("total_net_input_bytes", Long.toString(inputBytes.sum()));
                fields.put("total_net_output_bytes", Long.toString(outputBytes.sum()));
                fields.put("rejected_connections", Long.toString(rejectedConnections.sum()));
            }
            default -> {
            }
        }
    }

    @Override
    public void resetStats() {
        connectionsReceived.reset();
        commandsProcessed.reset();
        inputBytes.reset();
        outputBytes.reset();
        rejectedConnections.reset();
    }

    /**
     * CONFIG REWRITE: the replication settings into the TOML file this server was started with
     * ({@link ConfigRewrite}); Redis's error without one. Logs the outcome, never a value.
     */
    @Override
    public String rewriteConfig() {
        ConfigRewrite r = configRewrite;
        if (r == null) {
            return "ERR The server is running without a config file";
        }
        String err = r.rewrite(engine.runtimeConfig()::get);
        if (err != null) {
            log.warn("CONFIG REWRITE failed: {}", err);
            return "ERR Rewriting config file: " + err;
        }
        log.info("CONFIG REWRITE wrote {}", config.configFile());
        return null;
    }

    @Override
    public String shutdown(Boolean save) {
        Thread t = new Thread(() -> close(save), "kevy-shutdown");
        t.setDaemon(false);
        t.start();
        return null;
    }

    /** Blocks until {@link #close} has finished. */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * A clean stop (SIGTERM, SHUTDOWN): stops accepting, closes every client, then lets persistence save as
     * configured, fsync the AOF and write the clean-shutdown markers (feed contract §5). Idempotent.
     */
    @Override
    public void close() {
        close(null);
    }

    /** As {@link #close()}; {@code save} is SHUTDOWN's SAVE (true), NOSAVE (false) or neither (null). */
    public void close(Boolean save) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            kevy.replication().close();
            stopNetwork();
            if (persistence != null) {
                try {
                    persistence.shutdown(save);
                } catch (java.io.IOException | RuntimeException e) {
                    log.error("persistence did not shut down cleanly; the next start begins new generations", e);
                }
            }
            engine.close();
            log.info("kevy-server stopped");
        } finally {
            terminated.countDown();
        }
    }

    /** Stops without a clean-shutdown marker, as a crash would (tests, failed starts). */
    public void abort() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            kevy.replication().close();
            stopNetwork();
            if (persistence != null) {
                try {
                    persistence.close();
                } catch (java.io.IOException e) {
                    log.warn("closing persistence failed", e);
                }
            }
            engine.close();
        } finally {
            terminated.countDown();
        }
    }

    private void stopNetwork() {
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        clients.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
