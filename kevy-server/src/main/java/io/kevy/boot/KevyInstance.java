package io.kevy.boot;

import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.command.Dispatcher;
import io.kevy.feed.Feed;
import io.kevy.feed.FeedCommands;
import io.kevy.script.FunctionCommands;
import io.kevy.script.Functions;
import io.kevy.script.ScriptCommands;
import io.kevy.script.Scripts;
import io.kevy.tracking.Tracking;
import io.kevy.feed.FeedConfig;
import io.kevy.persist.Persistence;
import io.kevy.persist.PersistenceConfig;
import io.kevy.pubsub.KeyspaceNotifier;
import io.kevy.pubsub.PubSub;
import io.kevy.pubsub.PubSubCommands;
import io.kevy.replication.Replication;
import io.kevy.replication.ReplicationCommands;
import java.io.IOException;

/**
 * One kevy, assembled: the {@link Engine}, its change {@link Feed}, Pub/Sub with keyspace notifications, the
 * client tracking, the command table (the engine's families, the feed's and the Pub/Sub commands), the {@link Dispatcher} that runs
 * it, and, once started, the {@link Persistence}. The one place where these parts meet, so none of them knows
 * the others' construction: the feed, persistence, keyspace notifications and client tracking attach to the shards as
 * {@link io.kevy.engine.EffectListener}s, the dispatcher is handed the engine and the table. {@code KevyServer} and the embedded {@code Store} each build one.
 *
 * <p>Thread-safe once assembled. {@link #startPersistence} is called at most once, before commands are
 * dispatched; the owner shuts persistence down (its save and fsync rules are the owner's) before {@link #close}.
 */
public final class KevyInstance implements AutoCloseable {
    private final Engine engine;
    private final Feed feed;
    private final PubSub pubsub;
    private final KeyspaceNotifier keyspaceNotifier;
    private final Dispatcher dispatcher;
    private final Replication replication;
    private volatile Persistence persistence;

    private KevyInstance(Engine engine, Feed feed, PubSub pubsub, KeyspaceNotifier keyspaceNotifier,
            Dispatcher dispatcher, Replication replication) {
        this.engine = engine;
        this.replication = replication;
        this.feed = feed;
        this.pubsub = pubsub;
        this.keyspaceNotifier = keyspaceNotifier;
        this.dispatcher = dispatcher;
    }

    /**
     * Builds an engine of {@code engineConfig}, its feed (on or off per {@code feedConfig}; when on, a backlog
     * listens to every shard from the start, so every frame of the current generations goes through it), the
     * command table and the dispatcher. Starts no thread and touches no file.
     */
    public static KevyInstance assemble(EngineConfig engineConfig, FeedConfig feedConfig) {
        Engine engine = new Engine(engineConfig);
        Feed feed = new Feed(engine, feedConfig);
        engine.registerInfoSection("feed", feed::writeInfo);
        PubSub pubsub = new PubSub();
        pubsub.registerConfig(engine.runtimeConfig());
        engine.channelCounts(pubsub);
        KeyspaceNotifier notifier = KeyspaceNotifier.register(engine, pubsub);
        Tracking.attach(engine); // CLIENT TRACKING: invalidations from the same frames as the feed
        Replication replication = new Replication(engine);
        replication.registerConfig();
        engine.registerInfoSection("replication", replication::writeInfo);
        Scripts scripts = new Scripts();
        Functions functions = new Functions(scripts);
        engine.serverState(functions); // the libraries persist and replicate with shard 0 (docs/cdc.md)
        CommandTable commands = CommandTable.standard()
                .with(t -> FeedCommands.register(t, feed))
                .with(t -> PubSubCommands.register(t, pubsub))
                .with(t -> ReplicationCommands.register(t, replication))
                .with(t -> ScriptCommands.register(t, scripts))
                .with(t -> FunctionCommands.register(t, functions));
        Dispatcher dispatcher = new Dispatcher(engine, commands);
        replication.dispatcher(dispatcher);
        return new KevyInstance(engine, feed, pubsub, notifier, dispatcher, replication);
    }

    /**
     * Loads the data directory of {@code config} through the dispatcher and attaches the AOF writer to the shards
     * ({@link Persistence#start}).
     *
     * @return the started persistence, which the caller shuts down
     * @throws IOException as {@link Persistence#start}
     * @throws IllegalStateException when persistence was already started
     */
    public synchronized Persistence startPersistence(PersistenceConfig config) throws IOException {
        if (persistence != null) {
            throw new IllegalStateException("persistence already started");
        }
        persistence = Persistence.start(engine, dispatcher, config);
        return persistence;
    }

    public Engine engine() {
        return engine;
    }

    /** The change feed (on or off per the {@link FeedConfig} it was assembled with). */
    public Feed feed() {
        return feed;
    }

    /** Pub/Sub: channels, patterns, shard channels and their subscribers. */
    public PubSub pubsub() {
        return pubsub;
    }

    /** Keyspace notifications ({@code notify-keyspace-events}), published on {@link #pubsub()}. */
    public KeyspaceNotifier keyspaceNotifier() {
        return keyspaceNotifier;
    }

    /** The dispatcher, which owns the command table ({@link Dispatcher#commands()}) and its statistics. */
    public Dispatcher dispatcher() {
        return dispatcher;
    }

    /** Replication: this server's role (primary or replica) and its replicas. */
    public Replication replication() {
        return replication;
    }

    /** The persistence, or null before {@link #startPersistence} (or without one). */
    public Persistence persistence() {
        return persistence;
    }

    /** Closes the engine (its cron and timer). Persistence is shut down by the owner first. */
    @Override
    public void close() {
        replication.close();
        engine.close();
    }
}
