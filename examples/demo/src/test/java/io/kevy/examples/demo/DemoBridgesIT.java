package io.kevy.examples.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.kevy.bridge.kafka.support.KafkaBroker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/kevy demo --kafka BOOTSTRAP --webhook URL}: the two extra bridges run beside the file bridge (an
 * in-process Kafka broker, an in-process HTTP receiver), get every change without a resync, and the demo still
 * ends consistent with exit status 0.
 */
class DemoBridgesIT {
    @Test
    void kafkaAndWebhookBridgesRunBesideTheOthers() throws Exception {
        KafkaBroker broker = KafkaBroker.shared();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        AtomicInteger signed = new AtomicInteger();
        receiver.createContext("/hook", ex -> {
            ex.getRequestBody().readAllBytes();
            if (ex.getRequestHeaders().getFirst("webhook-signature") != null) {
                signed.incrementAndGet();
            }
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        receiver.start();
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            int status = DemoMain.run(new String[] {"--sample", "--limit", "300", "--changes", "300",
                    "--kafka", broker.bootstrap(),
                    "--webhook", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook"},
                    new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
            String printed = buf.toString(StandardCharsets.UTF_8);
            System.out.println(printed);
            assertThat(status).isZero();
            assertThat(printed).contains("webhook signing secret: whsec_").contains("  CONSISTENT");
            long file = delivered(printed, "bridge \\(file\\)");
            assertThat(delivered(printed, "bridge \\(kafka\\)")).as("the Kafka bridge got every frame").isEqualTo(file);
            assertThat(delivered(printed, "bridge \\(webhook\\)")).as("the webhook bridge too").isEqualTo(file);
            assertThat(printed).containsPattern("bridge \\(kafka\\) +[\\d,]+ +[\\d,]+ +0 ")
                    .containsPattern("bridge \\(webhook\\) +[\\d,]+ +[\\d,]+ +0 ");
            assertThat(signed.get()).as("signed webhook requests").isPositive();
            assertThat(broker.readAll(List.of("kevy.demo"), "read_uncommitted")).hasSizeGreaterThanOrEqualTo(
                    (int) file);
        } finally {
            receiver.stop(0);
        }
    }

    private static long delivered(String printed, String row) {
        Matcher m = Pattern.compile(row + " +([\\d,]+) ").matcher(printed);
        assertThat(m.find()).as(row).isTrue();
        return Long.parseLong(m.group(1).replace(",", ""));
    }
}
