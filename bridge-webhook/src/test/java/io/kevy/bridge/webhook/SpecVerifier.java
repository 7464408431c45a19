package io.kevy.bridge.webhook;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A Standard Webhooks verifier written from the spec (https://www.standardwebhooks.com, "Verifying signatures"),
 * independent of {@link WebhookSigner}: the receiver's view. Signed content {@code id.timestamp.body}; key = the
 * Base64 after {@code whsec_}; {@code webhook-signature} is a space-separated list of {@code v1,<Base64>}; one
 * match (constant-time compare) is enough; the timestamp must be within {@code toleranceSeconds} of now.
 */
final class SpecVerifier {
    private final List<byte[]> keys = new ArrayList<>();
    private final long toleranceSeconds;

    SpecVerifier(long toleranceSeconds, String... secrets) {
        this.toleranceSeconds = toleranceSeconds;
        for (String s : secrets) {
            if (!s.startsWith("whsec_")) {
                throw new IllegalArgumentException("not a whsec_ secret");
            }
            keys.add(Base64.getDecoder().decode(s.substring("whsec_".length())));
        }
    }

    /** True when every header is present, the timestamp is fresh and one signature matches one key. */
    boolean verify(String id, String timestamp, String signatures, byte[] body, long nowSeconds) {
        if (id == null || timestamp == null || signatures == null) {
            return false;
        }
        long ts;
        try {
            ts = Long.parseLong(timestamp);
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowSeconds - ts) > toleranceSeconds) {
            return false;
        }
        for (byte[] key : keys) {
            byte[] expected = hmac(key, (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8), body);
            for (String sig : signatures.split(" ")) {
                if (!sig.startsWith("v1,")) {
                    continue;
                }
                byte[] given;
                try {
                    given = Base64.getDecoder().decode(sig.substring(3));
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (MessageDigest.isEqual(expected, given)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] hmac(byte[] key, byte[] head, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(head);
            return mac.doFinal(body);
        } catch (java.security.GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }

    /** A new random secret of {@code bytes} key bytes, {@code whsec_<Base64>}. */
    static String newSecret(int bytes) {
        byte[] b = new byte[bytes];
        new java.security.SecureRandom().nextBytes(b);
        return "whsec_" + Base64.getEncoder().encodeToString(b);
    }
}
