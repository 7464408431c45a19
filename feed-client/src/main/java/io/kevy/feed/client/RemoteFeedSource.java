package io.kevy.feed.client;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.protocol.RedisCommand;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The remote {@link FeedSource}: lettuce with {@link ByteArrayCodec} (binary-safe), FEED.* sent through
 * {@code dispatch}. The protocol is lettuce's negotiation unless pinned: {@code HELLO 3} (RESP3), falling back to
 * RESP2 when the server answers {@code NOPROTO} or does not know HELLO (an upstream kevy before RESP3); the FEED.*
 * replies are arrays, integers and bulk strings, the same bytes on both protocols. One connection per shard for
 * FEED.READ with BLOCK (a long-poll read parks its connection) plus one shared connection for everything else, reads
 * without BLOCK included (so they never wait behind a parked long poll). Lettuce reconnects
 * broken connections in the background; while a connection is down commands fail at once
 * ({@link ClientOptions.DisconnectedBehavior#REJECT_COMMANDS}) so the consumer's backoff, not lettuce's queue,
 * paces the retries. Commands sent before a disconnect are re-sent after the reconnect (FEED.READ is a read).
 */
final class RemoteFeedSource extends AbstractFeedSource {
    private final RedisURI uri;
    private final RedisClient client;
    private final Map<Integer, CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> connections =
            new ConcurrentHashMap<>();
    private final Map<Long, Keyword> readKeywords = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * A command word; {@code extraTimeoutMillis} is added to the URI's timeout (a BLOCK read's block time). Its
     * {@code toString} is the word, but lower case for MULTI, EXEC and DISCARD: lettuce recognises those by
     * {@code toString} and would then track a transaction of the shared connection, wrapping other threads'
     * commands sent meanwhile into it; {@link #callAll} sends a whole MULTI ... EXEC in one write and reads
     * EXEC's reply itself ({@link ReplyOutput}).
     */
    private static final class Keyword implements ProtocolKeyword {
        private final byte[] bytes;
        private final String name;
        private final long extraTimeoutMillis;

        Keyword(String name, long extraTimeoutMillis) {
            this.bytes = name.getBytes(StandardCharsets.US_ASCII);
            this.name = TRANSACTION_WORDS.contains(name) ? name.toLowerCase(java.util.Locale.ROOT) : name;
            this.extraTimeoutMillis = extraTimeoutMillis;
        }

        @Override
        public byte[] getBytes() {
            return bytes;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static final java.util.Set<String> TRANSACTION_WORDS = java.util.Set.of("MULTI", "EXEC", "DISCARD");
    private static final Keyword SHARDS = new Keyword("FEED.SHARDS", 0);
    private static final Keyword TAIL = new Keyword("FEED.TAIL", 0);
    private static final Map<String, Keyword> WORDS = new ConcurrentHashMap<>();

    /** The CLIENT SETNAME of the source's connections when the URI names none. */
    static final String DEFAULT_CLIENT_NAME = "kevy-feed";

    /**
     * {@code given} with the default client name when it has none. A Sentinel URI is copied by hand: lettuce's
     * {@code RedisURI.builder(RedisURI)} drops the Sentinels (and then refuses to build).
     */
    static RedisURI named(RedisURI given) {
        if (given.getClientName() != null) {
            return given;
        }
        if (given.getSentinels().isEmpty()) {
            return RedisURI.builder(given).withClientName(DEFAULT_CLIENT_NAME).build();
        }
        RedisURI first = given.getSentinels().get(0);
        RedisURI.Builder b = RedisURI.Builder.sentinel(first.getHost(), first.getPort(), given.getSentinelMasterId());
        for (int i = 1; i < given.getSentinels().size(); i++) {
            b.withSentinel(given.getSentinels().get(i));
        }
        RedisURI copy = b.withDatabase(given.getDatabase()).withTimeout(given.getTimeout()).withSsl(given.isSsl())
                .withClientName(DEFAULT_CLIENT_NAME).build();
        copy.setCredentialsProvider(given.getCredentialsProvider());
        return copy;
    }

    RemoteFeedSource(RedisURI given) {
        this(given, null);
    }

    /** A source speaking {@code protocol}, or negotiating it when null (lettuce's default). */
    RemoteFeedSource(RedisURI given, ProtocolVersion protocol) {
        RedisURI uri = named(given);
        this.uri = uri;
        long timeoutMillis = uri.getTimeout().toMillis();
        this.client = RedisClient.create(uri);
        ClientOptions.Builder options = ClientOptions.builder();
        if (protocol != null) {
            options.protocolVersion(protocol);
        }
        client.setOptions(options
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .socketOptions(SocketOptions.builder().connectTimeout(uri.getTimeout()).keepAlive(true).build())
                .timeoutOptions(TimeoutOptions.builder().timeoutSource(new TimeoutOptions.TimeoutSource() {
                    @Override
                    public long getTimeout(RedisCommand<?, ?, ?> command) {
                        long extra = command.getType() instanceof Keyword k ? k.extraTimeoutMillis : 0;
                        return timeoutMillis + extra;
                    }

                    @Override
                    public TimeUnit getTimeUnit() {
                        return TimeUnit.MILLISECONDS;
                    }
                }).build())
                .build());
    }

    @Override
    public String authority() {
        if (uri.getHost() == null && !uri.getSentinels().isEmpty()) { // the primary is whoever Sentinel names
            return "sentinel/" + uri.getSentinelMasterId();
        }
        return uri.getHost() + ":" + uri.getPort();
    }

    /** Connection -1 is the shared one; 0..N-1 read their shard. */
    private CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connection(int slot) {
        if (closed) {
            return CompletableFuture.failedFuture(new KevyConnectionException("feed source closed"));
        }
        CompletableFuture<StatefulRedisConnection<byte[], byte[]>> f = connections.computeIfAbsent(slot,
                s -> client.connectAsync(ByteArrayCodec.INSTANCE, uri).toCompletableFuture());
        if (f.isCompletedExceptionally()) {
            connections.remove(slot, f);
        }
        return f;
    }

    private <T> CompletionStage<T> dispatch(int slot, Keyword word, io.lettuce.core.output.CommandOutput<byte[],
            byte[], T> output, CommandArgs<byte[], byte[]> args) {
        CompletableFuture<T> result = new CompletableFuture<>();
        connection(slot).whenComplete((conn, err) -> {
            if (err != null) {
                connections.remove(slot);
                result.completeExceptionally(map(err));
                return;
            }
            conn.async().dispatch(word, output, args).whenComplete((v, e) -> {
                if (e != null) {
                    result.completeExceptionally(map(e));
                } else {
                    result.complete(v);
                }
            });
        });
        return result;
    }

    /** Maps lettuce's exceptions to ours (feed contract errors via {@link ServerErrors}). */
    static KevyException map(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof KevyException k) {
            return k;
        }
        if (e instanceof RedisCommandExecutionException x) {
            return ServerErrors.fromReply(x.getMessage());
        }
        if (e instanceof RedisCommandTimeoutException) {
            return new KevyTimeoutException(e.getMessage(), e);
        }
        if (e instanceof RedisException || e instanceof java.io.IOException) {
            return new KevyConnectionException(withRootCause(e), e);
        }
        return new KevyException(e.toString(), e);
    }

    /**
     * The message of {@code e} followed by its root cause's: lettuce's "Unable to connect to host:port" alone hides
     * why (a refused connection, or the server's {@code NOAUTH} / {@code WRONGPASS} answer to a missing or wrong
     * password in the URI), and the consumer logs this message at every retry.
     */
    static String withRootCause(Throwable e) {
        String message = String.valueOf(e.getMessage());
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String why = root.getMessage();
        if (root == e || why == null || message.contains(why)) {
            return message;
        }
        return message + ": " + why;
    }

    private static CommandArgs<byte[], byte[]> args(byte[]... a) {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE);
        for (byte[] b : a) {
            args.add(b);
        }
        return args;
    }

    @Override
    public CompletionStage<Integer> shards() {
        return dispatch(-1, SHARDS, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args())
                .thenApply(Long::intValue);
    }

    @Override
    public CompletionStage<Cursor> tail(int shard) {
        return dispatch(-1, TAIL, new NestedMultiOutput<>(ByteArrayCodec.INSTANCE), args(num(shard)))
                .thenApply(l -> new Cursor(shard, (Long) l.get(0), (Long) l.get(1)));
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block) {
        return read(from, count, prefixes, block, false);
    }

    @Override
    public CompletionStage<FrameBatch> read(Cursor from, int count, List<byte[]> prefixes, Duration block,
                                            boolean durable) {
        CommandArgs<byte[], byte[]> args = args(num(from.shard()), num(from.generation()), num(from.offset()),
                ascii("COUNT"), num(Math.max(1, Math.min(MAX_COUNT, count))));
        for (byte[] p : prefixes) {
            args.add(ascii("PREFIX")).add(p);
        }
        long blockMillis = block == null ? 0 : Math.max(1, block.toMillis());
        if (block != null) {
            args.add(ascii("BLOCK")).add(num(blockMillis));
        }
        if (durable) {
            args.add(ascii("DURABLE"));
        }
        Keyword word = readKeywords.computeIfAbsent(blockMillis, b -> new Keyword("FEED.READ", b));
        // only a long-poll read needs its shard's own connection: it parks it; others must not queue behind it
        int connection = block == null ? -1 : from.shard();
        FeedReadOutput output = new FeedReadOutput(from.shard());
        return dispatch(connection, word, output, args).thenApply(batch -> {
            if (batch == null) {
                throw new KevyProtocolException(output.problem());
            }
            return batch;
        });
    }

    @Override
    CompletionStage<Object> call(boolean array, byte[]... argv) {
        String verb = new String(argv[0], StandardCharsets.US_ASCII);
        Keyword word = WORDS.computeIfAbsent(verb, v -> new Keyword(v, 0));
        return dispatch(-1, word, new NestedMultiOutput<>(ByteArrayCodec.INSTANCE),
                args(Arrays.copyOfRange(argv, 1, argv.length)))
                .thenApply(l -> array ? (Object) l : l.isEmpty() ? null : l.get(0));
    }

    /**
     * All commands in one write on the shared connection ({@code StatefulConnection.dispatch(Collection)}), so a
     * MULTI ... EXEC among them reaches the server with nothing of other threads in between; errors inside an
     * array reply (EXEC's) are elements ({@link ReplyOutput}).
     */
    @Override
    List<CompletionStage<Object>> callAll(List<byte[][]> argvs, boolean[] arrays) {
        List<AsyncCommand<byte[], byte[], List<Object>>> commands = new ArrayList<>(argvs.size());
        List<CompletionStage<Object>> out = new ArrayList<>(argvs.size());
        for (int i = 0; i < argvs.size(); i++) {
            byte[][] argv = argvs.get(i);
            String verb = new String(argv[0], StandardCharsets.US_ASCII);
            Keyword word = WORDS.computeIfAbsent(verb, v -> new Keyword(v, 0));
            AsyncCommand<byte[], byte[], List<Object>> c = new AsyncCommand<>(new Command<>(word,
                    new ReplyOutput(), args(Arrays.copyOfRange(argv, 1, argv.length))));
            commands.add(c);
            boolean array = arrays[i];
            out.add(c.handle((l, e) -> {
                if (e != null) {
                    throw map(e);
                }
                return array ? (Object) l : l.isEmpty() ? null : l.get(0);
            }));
        }
        connection(-1).whenComplete((conn, err) -> {
            if (err != null) {
                connections.remove(-1);
                for (AsyncCommand<byte[], byte[], List<Object>> c : commands) {
                    c.completeExceptionally(map(err));
                }
                return;
            }
            try {
                conn.dispatch(commands);
            } catch (RuntimeException e) {
                for (AsyncCommand<byte[], byte[], List<Object>> c : commands) {
                    c.completeExceptionally(map(e));
                }
            }
        });
        return out;
    }

    @Override
    public void close() {
        closed = true;
        connections.clear();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    @Override
    public String toString() {
        return "FeedSource[" + uri.toURI().getScheme() + "://" + authority() + "]";
    }
}
