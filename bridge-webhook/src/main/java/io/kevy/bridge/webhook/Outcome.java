package io.kevy.bridge.webhook;

import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * What one attempt of a request gave, classified by the Standard Webhooks status handling: 2xx success;
 * connection errors, timeouts, 408, 429 and 5xx are retried; 410 Gone disables the endpoint; any other answer
 * is a rejection; anything else (a bug, not I/O) a failure.
 *
 * @param kind       the class
 * @param status     the HTTP status, or -1 without a response
 * @param excerpt    the start of the response body (empty without one)
 * @param error      the I/O error without a response, else null
 * @param retryAfter the delay a {@code Retry-After} header asked for, else null
 * @param nanos      how long the attempt took
 */
record Outcome(Kind kind, int status, String excerpt, Throwable error, Duration retryAfter, long nanos) {
    enum Kind {
        SUCCESS, RETRY, REJECTED, GONE, FAILED
    }

    static Outcome of(int status, String excerpt, Duration retryAfter, long nanos) {
        Kind k;
        if (status >= 200 && status < 300) {
            k = Kind.SUCCESS;
        } else if (status == 408 || status == 429 || status >= 500) {
            k = Kind.RETRY;
        } else if (status == 410) {
            k = Kind.GONE;
        } else {
            k = Kind.REJECTED;
        }
        return new Outcome(k, status, excerpt, null, retryAfter, nanos);
    }

    static Outcome of(Throwable error, long nanos) {
        return new Outcome(error instanceof java.io.IOException ? Kind.RETRY : Kind.FAILED, -1, "", error, null,
                nanos);
    }

    /** The {@code status} tag of the request meter: the code, {@code timeout} or {@code error}. */
    String statusTag() {
        if (status > 0) {
            return Integer.toString(status);
        }
        return error instanceof HttpTimeoutException ? "timeout" : "error";
    }

    /** For logs and exception messages: {@code HTTP 503} or the error. */
    String describe() {
        if (status > 0) {
            return "HTTP " + status;
        }
        String m = error.getMessage();
        return error.getClass().getSimpleName() + (m == null || m.isEmpty() ? "" : ": " + m);
    }
}
