package io.kevy.bench.jmh;

import io.kevy.resp.ProtocolLimits;
import io.kevy.resp.RespParser;
import io.kevy.resp.RespWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The RESP decoder ({@link RespParser}) on a pipelined batch of {@value #PIPELINE} {@code SET key value}
 * commands, and the encoder ({@link RespWriter}) on the replies the hot commands send. Scores are operations
 * (commands parsed, replies written) per microsecond; {@code valueSize} is the SET value / bulk reply length.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RespCodecBench extends ShortRun {
    static final int PIPELINE = 16;

    @Param({"3", "1024"})
    int valueSize;

    private RespParser parser;
    private ByteBuf pipelined;
    private RespWriter writer;
    private byte[] value;
    private byte[][] tenValues;

    @Setup(Level.Trial)
    public void setUp() {
        parser = new RespParser(new ProtocolLimits());
        value = new byte[valueSize];
        java.util.Arrays.fill(value, (byte) 'x');
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < PIPELINE; i++) {
            String key = "key:" + (100_000 + i);
            sb.append("*3\r\n$3\r\nSET\r\n$").append(key.length()).append("\r\n").append(key).append("\r\n$")
                    .append(valueSize).append("\r\n").append(new String(value, StandardCharsets.US_ASCII))
                    .append("\r\n");
        }
        pipelined = Unpooled.directBuffer().writeBytes(sb.toString().getBytes(StandardCharsets.US_ASCII));
        writer = new RespWriter(PooledByteBufAllocator.DEFAULT);
        tenValues = new byte[10][];
        for (int i = 0; i < tenValues.length; i++) {
            tenValues[i] = value;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pipelined.release();
        writer.discard();
    }

    /** Decodes {@value #PIPELINE} pipelined SET commands from one buffer (one read batch). */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void decodeSetPipelined(Blackhole bh) {
        pipelined.readerIndex(0);
        byte[][] argv;
        while ((argv = parser.parse(pipelined, true)) != null) {
            bh.consume(argv);
        }
    }

    /** Encodes {@value #PIPELINE} replies {@code +OK} into one output buffer and hands it over. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void encodeOk() {
        for (int i = 0; i < PIPELINE; i++) {
            writer.ok();
        }
        writer.take().release();
    }

    /** Encodes {@value #PIPELINE} bulk replies of {@code valueSize} bytes (GET hits). */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void encodeBulk() {
        for (int i = 0; i < PIPELINE; i++) {
            writer.bulk(value);
        }
        writer.take().release();
    }

    /** Encodes {@value #PIPELINE} integer replies (INCR, SADD) past the cached small integers. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void encodeInteger() {
        for (int i = 0; i < PIPELINE; i++) {
            writer.integer(1_000_000L + i);
        }
        writer.take().release();
    }

    /** Encodes {@value #PIPELINE} arrays of 10 bulks (MGET of 10 keys, HGETALL of 5 fields). */
    @Benchmark
    @OperationsPerInvocation(PIPELINE)
    public void encodeArrayOf10() {
        for (int i = 0; i < PIPELINE; i++) {
            writer.array(tenValues.length);
            for (byte[] v : tenValues) {
                writer.bulk(v);
            }
        }
        writer.take().release();
    }
}
