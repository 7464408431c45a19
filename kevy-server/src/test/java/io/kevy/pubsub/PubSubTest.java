package io.kevy.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The registry, the message encoding, the limits and the event classes, without a server. */
class PubSubTest {

    /** A subscriber that keeps what it is given. */
    private static final class Recorder implements Subscriber {
        final List<String> got = new ArrayList<>();

        @Override
        public void deliver(Message m) {
            got.add(new String(m.resp(), StandardCharsets.ISO_8859_1));
        }

        @Override
        public String describe() {
            return "recorder";
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void publishCountsChannelAndPatternDeliveries() {
        PubSub p = new PubSub();
        Recorder a = new Recorder();
        Recorder c = new Recorder();
        Subscriptions sa = p.open(a);
        Subscriptions sc = p.open(c);
        assertThat(sa.add(Subscriptions.Type.CHANNEL, b("news"))).isTrue();
        assertThat(sa.add(Subscriptions.Type.CHANNEL, b("news"))).isFalse(); // twice: one subscription
        sa.add(Subscriptions.Type.PATTERN, b("n[a-z]ws"));
        sc.add(Subscriptions.Type.PATTERN, b("*"));
        sc.add(Subscriptions.Type.SHARD, b("news"));
        assertThat(p.publish(b("news"), b("hi"))).isEqualTo(3);
        assertThat(p.spublish(b("news"), b("s"))).isEqualTo(1);
        assertThat(a.got).containsExactly("*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$2\r\nhi\r\n",
                "*4\r\n$8\r\npmessage\r\n$8\r\nn[a-z]ws\r\n$4\r\nnews\r\n$2\r\nhi\r\n");
        assertThat(c.got).containsExactly("*4\r\n$8\r\npmessage\r\n$1\r\n*\r\n$4\r\nnews\r\n$2\r\nhi\r\n",
                "*3\r\n$8\r\nsmessage\r\n$4\r\nnews\r\n$1\r\ns\r\n");
        assertThat(p.channelCount()).isEqualTo(1);
        assertThat(p.patternCount()).isEqualTo(2);
        assertThat(p.shardChannelCount()).isEqualTo(1);
        sa.close();
        assertThat(sa.add(Subscriptions.Type.CHANNEL, b("x"))).isFalse(); // closed: refused
        assertThat(p.publish(b("news"), b("again"))).isEqualTo(1);
        sc.close();
        assertThat(p.idle()).isTrue();
        assertThat(p.numsub(Subscriptions.Type.CHANNEL, b("news"))).isZero();
    }

    @Test
    void manySubscribersComeAndGoInAnyOrder() {
        long seed = System.nanoTime();
        System.out.println("PubSubTest seed=" + seed);
        Random r = new Random(seed);
        PubSub p = new PubSub();
        List<Subscriptions> subs = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Subscriptions s = p.open(new Recorder());
            s.add(Subscriptions.Type.CHANNEL, b("ch"));
            subs.add(s);
        }
        assertThat(p.numsub(Subscriptions.Type.CHANNEL, b("ch"))).isEqualTo(500);
        java.util.Collections.shuffle(subs, r);
        for (int i = 0; i < subs.size(); i++) {
            subs.get(i).remove(Subscriptions.Type.CHANNEL, b("ch"));
            assertThat(p.publish(b("ch"), b("m"))).isEqualTo(subs.size() - i - 1);
        }
        assertThat(p.channels(Subscriptions.Type.CHANNEL, null)).isEmpty();
    }

    @Test
    void binaryAndEmptyNamesEncodeExactly() {
        Message m = new Message(Message.Kind.MESSAGE, null, new byte[] {0, (byte) 0xff, '\r', '\n'}, new byte[0]);
        assertThat(new String(m.resp(), StandardCharsets.ISO_8859_1))
                .isEqualTo("*3\r\n$7\r\nmessage\r\n$4\r\n\u0000\u00ff\r\n\r\n$0\r\n\r\n");
        assertThat(m.size()).isEqualTo(m.resp().length);
        byte[] big = new byte[1 << 20];
        assertThat(new Message(Message.Kind.SMESSAGE, null, b("c"), big).size())
                .isEqualTo("*3\r\n$8\r\nsmessage\r\n$1\r\nc\r\n$1048576\r\n".length() + big.length + 2);
    }

    @Test
    void outputLimitIsThePubsubClassOfTheConfigValue() {
        assertThat(OutputLimit.fromConfig("normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"))
                .isEqualTo(OutputLimit.DEFAULT);
        assertThat(OutputLimit.fromConfig("normal 0 0 0 pubsub 1024 0 0")).isEqualTo(new OutputLimit(1024, 0, 0));
        assertThat(OutputLimit.fromConfig("normal 0 0 0")).isEqualTo(OutputLimit.DEFAULT);
        OutputLimit l = new OutputLimit(100, 10, 1);
        assertThat(l.hardReached(100)).isTrue();
        assertThat(l.hardReached(99)).isFalse();
        assertThat(l.softReached(10)).isTrue();
        assertThat(new OutputLimit(0, 0, 0).hardReached(Long.MAX_VALUE)).isFalse();
    }

    @Test
    void eventClassesParseAsRedisDoes() {
        assertThat(KeyspaceEvents.parse("")).isZero();
        assertThat(KeyspaceEvents.active(KeyspaceEvents.parse("KEA"))).isTrue();
        assertThat(KeyspaceEvents.active(KeyspaceEvents.parse("A"))).isFalse(); // no channel: nothing published
        assertThat(KeyspaceEvents.active(KeyspaceEvents.parse("KE"))).isFalse(); // no class either
        assertThat(KeyspaceEvents.parse("A") & KeyspaceEvents.KEY_MISS).isZero();
        assertThat(KeyspaceEvents.parse("Ex") & KeyspaceEvents.EXPIRED).isNotZero();
        assertThatThrownBy(() -> KeyspaceEvents.parse("K?"))
                .hasMessage("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
    }
}
