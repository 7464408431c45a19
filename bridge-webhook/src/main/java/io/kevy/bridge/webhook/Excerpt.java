package io.kevy.bridge.webhook;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * A response body handler that keeps the first {@code limit} bytes as text (UTF-8, malformed bytes replaced)
 * and reads and drops the rest, so a large answer neither fills the memory nor blocks the connection.
 */
final class Excerpt implements HttpResponse.BodyHandler<String> {
    private final int limit;

    Excerpt(int limit) {
        this.limit = limit;
    }

    @Override
    public HttpResponse.BodySubscriber<String> apply(HttpResponse.ResponseInfo info) {
        Collector c = new Collector(limit);
        return HttpResponse.BodySubscribers.fromSubscriber(c, Collector::text);
    }

    private static final class Collector implements Flow.Subscriber<List<ByteBuffer>> {
        private final byte[] kept;
        private int size;
        private boolean truncated;

        Collector(int limit) {
            this.kept = new byte[limit];
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            subscription.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                int n = Math.min(b.remaining(), kept.length - size);
                b.get(kept, size, n);
                size += n;
                truncated |= b.hasRemaining();
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // the response future fails with the same error
        }

        @Override
        public void onComplete() {
        }

        String text() {
            String s = new String(kept, 0, size, StandardCharsets.UTF_8);
            return truncated ? s + "..." : s;
        }
    }
}
