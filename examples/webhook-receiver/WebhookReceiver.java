import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A receiver for kevy's webhook bridge, JDK only: {@code java WebhookReceiver.java [--port 8080] [--path /kevy]
 * [--tolerance-seconds 300]} with the signing secrets in {@code WEBHOOK_SECRETS} (whsec_..., separated by spaces
 * or commas; during a rotation give the old and the new one).
 *
 * <p>Each POST is checked as Standard Webhooks (https://www.standardwebhooks.com) requires before it is trusted:
 * <ol>
 *   <li>{@code webhook-id}, {@code webhook-timestamp} and {@code webhook-signature} are present (else 400);</li>
 *   <li>the timestamp is within the tolerance of our clock, in both directions (else 401: a replay of an old
 *       request, or a clock to fix);</li>
 *   <li>one {@code v1,<Base64>} signature of {@code id.timestamp.body} matches one of our secrets, compared in
 *       constant time (else 401);</li>
 *   <li>the id was not processed before (a replay within the window, or the bridge resending a request whose
 *       answer it lost): the request is acknowledged with 200 and not processed again.</li>
 * </ol>
 * Then it is processed (here: one line on stdout) and answered 204; only then is its id remembered, so a request
 * that failed to process is processed when the bridge retries it. Ids are remembered for twice the tolerance
 * (an older request fails step 2 anyway).
 */
public final class WebhookReceiver {
    private WebhookReceiver() {
    }

    public static void main(String[] args) throws IOException {
        int port = 8080;
        String path = "/kevy";
        long tolerance = 300;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--path" -> path = args[i + 1];
                case "--tolerance-seconds" -> tolerance = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String secrets = System.getenv("WEBHOOK_SECRETS");
        if (secrets == null || secrets.isBlank()) {
            System.err.println("set WEBHOOK_SECRETS to the bridge's whsec_... secret(s)");
            System.exit(2);
        }
        Verifier verifier = new Verifier(List.of(secrets.trim().split("[\\s,]+")), Duration.ofSeconds(tolerance),
                Clock.systemUTC());
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.createContext(path, ex -> handle(ex, verifier));
        server.start();
        System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    private static void handle(HttpExchange ex, Verifier verifier) throws IOException {
        try (ex) {
            if (!ex.getRequestMethod().equals("POST")) {
                answer(ex, 405, "POST only");
                return;
            }
            byte[] body = ex.getRequestBody().readAllBytes();
            String id = ex.getRequestHeaders().getFirst("webhook-id");
            Verdict v = verifier.check(id, ex.getRequestHeaders().getFirst("webhook-timestamp"),
                    ex.getRequestHeaders().getFirst("webhook-signature"), body);
            switch (v) {
                case ACCEPTED -> {
                    process(id, body);
                    verifier.remember(id);
                    answer(ex, 204, "");
                }
                case DUPLICATE -> {
                    System.out.println("duplicate " + id + " (acknowledged, not processed again)");
                    answer(ex, 200, "duplicate");
                }
                case MISSING_HEADERS -> reject(ex, 400, id, v);
                default -> reject(ex, 401, id, v);
            }
        }
    }

    /** What a real receiver would do with the changes; here one line per request. */
    private static void process(String id, byte[] body) {
        String head = new String(body, 0, Math.min(body.length, 400), StandardCharsets.UTF_8);
        System.out.println("accepted " + id + " type=" + find(head, "\"type\":\"([^\"]*)\"") + " count="
                + find(head, "\"count\":(\\d+)"));
    }

    private static String find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        return m.find() ? m.group(1) : "?";
    }

    private static void reject(HttpExchange ex, int status, String id, Verdict v) throws IOException {
        System.out.println("rejected " + id + " " + status + " " + v.reason);
        answer(ex, status, v.reason);
    }

    private static void answer(HttpExchange ex, int status, String text) throws IOException {
        byte[] out = text.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(out);
            }
        }
    }

    /** The outcome of a check. */
    enum Verdict {
        ACCEPTED("ok"), DUPLICATE("already processed"), MISSING_HEADERS("missing webhook-* headers"),
        BAD_TIMESTAMP("webhook-timestamp is not an integer"), STALE_TIMESTAMP("timestamp outside the tolerance"),
        BAD_SIGNATURE("no valid signature");

        final String reason;

        Verdict(String reason) {
            this.reason = reason;
        }
    }

    /** Standard Webhooks verification with replay protection. Thread-safe. */
    static final class Verifier {
        private final List<byte[]> keys = new ArrayList<>();
        private final Duration tolerance;
        private final Clock clock;
        /** Processed ids → when they may be forgotten (ms), oldest first. */
        private final Map<String, Long> seen = new LinkedHashMap<>();

        Verifier(List<String> secrets, Duration tolerance, Clock clock) {
            for (String s : secrets) {
                if (!s.startsWith("whsec_")) {
                    throw new IllegalArgumentException("a secret must start with whsec_");
                }
                keys.add(Base64.getDecoder().decode(s.substring("whsec_".length())));
            }
            this.tolerance = tolerance;
            this.clock = clock;
        }

        synchronized Verdict check(String id, String timestamp, String signatures, byte[] body) {
            if (id == null || timestamp == null || signatures == null) {
                return Verdict.MISSING_HEADERS;
            }
            long ts;
            try {
                ts = Long.parseLong(timestamp.trim());
            } catch (NumberFormatException e) {
                return Verdict.BAD_TIMESTAMP;
            }
            long now = clock.millis() / 1000;
            if (Math.abs(now - ts) > tolerance.toSeconds()) {
                return Verdict.STALE_TIMESTAMP;
            }
            if (!signed(id, timestamp.trim(), signatures, body)) {
                return Verdict.BAD_SIGNATURE;
            }
            forgetExpired();
            return seen.containsKey(id) ? Verdict.DUPLICATE : Verdict.ACCEPTED;
        }

        /** Marks {@code id} processed. */
        synchronized void remember(String id) {
            seen.put(id, clock.millis() + 2 * tolerance.toMillis());
        }

        private void forgetExpired() {
            long now = clock.millis();
            for (Iterator<Long> it = seen.values().iterator(); it.hasNext(); ) {
                if (it.next() > now) {
                    break;
                }
                it.remove();
            }
        }

        private boolean signed(String id, String timestamp, String signatures, byte[] body) {
            byte[] content = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
            for (byte[] key : keys) {
                byte[] expected;
                try {
                    Mac mac = Mac.getInstance("HmacSHA256");
                    mac.init(new SecretKeySpec(key, "HmacSHA256"));
                    mac.update(content);
                    expected = mac.doFinal(body);
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException(e);
                }
                for (String sig : signatures.trim().split(" +")) {
                    if (!sig.startsWith("v1,")) {
                        continue;
                    }
                    try {
                        if (MessageDigest.isEqual(expected, Base64.getDecoder().decode(sig.substring(3)))) {
                            return true;
                        }
                    } catch (IllegalArgumentException e) {
                        // not Base64: try the next one
                    }
                }
            }
            return false;
        }
    }
}
