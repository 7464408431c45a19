package io.kevy.bridge.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks symmetric signatures (https://www.standardwebhooks.com, "Signature scheme"): the signed
 * content is {@code <webhook-id>.<webhook-timestamp>.<body>}, the signature {@code v1,<Base64 of
 * HMAC-SHA256(key, content)>}, and the key the Base64-decoded part of a {@code whsec_<Base64>} secret. With
 * several secrets (rotation: the new one and the old one for a while) the {@code webhook-signature} header holds
 * one signature per secret, space-separated; a receiver accepts the request when one of them matches.
 *
 * <p>The signer never reveals its keys: {@link #toString()} shows only how many there are, and the errors of
 * {@link #of} name the position of a bad secret, never its text. Immutable and thread-safe.
 */
public final class WebhookSigner {
    /** The prefix of a serialized symmetric secret. */
    public static final String SECRET_PREFIX = "whsec_";
    /** The version tag of a symmetric signature. */
    public static final String VERSION = "v1";
    /** The fewest key bytes the spec allows: 24 (192 bits). */
    public static final int MIN_KEY_BYTES = 24;
    /** The most key bytes the spec allows: 64 (512 bits). */
    public static final int MAX_KEY_BYTES = 64;
    private static final String HMAC = "HmacSHA256";

    private final List<SecretKeySpec> keys;

    private WebhookSigner(List<SecretKeySpec> keys) {
        this.keys = List.copyOf(keys);
    }

    /**
     * A signer with one key per secret, in order (put the current secret first).
     *
     * @param secrets {@code whsec_<standard Base64 of 24..64 bytes>} each; at least one
     * @throws IllegalArgumentException when there is none, or one is not of that form (the message names its
     *                                  position, not its text)
     */
    public static WebhookSigner of(List<String> secrets) {
        Objects.requireNonNull(secrets, "secrets");
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("at least one signing secret (whsec_<base64>) is required");
        }
        List<SecretKeySpec> keys = new ArrayList<>(secrets.size());
        for (int i = 0; i < secrets.size(); i++) {
            keys.add(new SecretKeySpec(decode(secrets.get(i), i + 1), HMAC));
        }
        return new WebhookSigner(keys);
    }

    /**
     * Checks one secret: {@code whsec_} and the standard Base64 of 24..64 bytes.
     *
     * @return {@code secret}
     * @throws IllegalArgumentException when it is not (the message does not show the secret)
     */
    public static String check(String secret) {
        decode(secret, 0);
        return secret;
    }

    /**
     * The key bytes of secret number {@code position} (from 1, for the error message; 0 when unknown).
     *
     * @throws IllegalArgumentException when it is not {@code whsec_} and the Base64 of 24..64 bytes
     */
    static byte[] decode(String secret, int position) {
        if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
            throw new IllegalArgumentException(name(position) + " does not start with whsec_");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()).trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name(position) + " is not whsec_ and valid Base64");
        }
        if (key.length < MIN_KEY_BYTES || key.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException(name(position) + " has " + key.length
                    + " key bytes; Standard Webhooks wants " + MIN_KEY_BYTES + " to " + MAX_KEY_BYTES);
        }
        return key;
    }

    private static String name(int position) {
        return position > 0 ? "signing secret #" + position : "a signing secret";
    }

    /** How many secrets sign each request. */
    public int size() {
        return keys.size();
    }

    /**
     * The {@code webhook-signature} header value: {@code v1,<sig>} per secret, in order, space-separated.
     *
     * @param id        the {@code webhook-id} (must not contain '.', which would make the content ambiguous)
     * @param timestamp the {@code webhook-timestamp}, seconds since the epoch
     * @param body      the exact request body
     */
    public String sign(String id, long timestamp, byte[] body) {
        byte[] head = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(keys.size() * 48);
        for (SecretKeySpec key : keys) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(VERSION).append(',').append(Base64.getEncoder().encodeToString(hmac(key, head, body)));
        }
        return sb.toString();
    }

    /**
     * Whether {@code header} holds a {@code v1} signature of {@code id.timestamp.body} by one of this signer's
     * keys, compared in constant time (what a receiver does; the example receiver and the tests have their own
     * verifiers written from the spec).
     */
    public boolean verify(String id, long timestamp, byte[] body, String header) {
        byte[] head = (id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        for (String part : header.trim().split(" +")) {
            int comma = part.indexOf(',');
            if (comma < 0 || !part.substring(0, comma).equals(VERSION)) {
                continue;
            }
            byte[] given;
            try {
                given = Base64.getDecoder().decode(part.substring(comma + 1));
            } catch (IllegalArgumentException e) {
                continue;
            }
            for (SecretKeySpec key : keys) {
                if (MessageDigest.isEqual(given, hmac(key, head, body))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static byte[] hmac(SecretKeySpec key, byte[] head, byte[] body) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            mac.update(head);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    @Override
    public String toString() {
        return "WebhookSigner[" + keys.size() + " secret(s)]";
    }
}
