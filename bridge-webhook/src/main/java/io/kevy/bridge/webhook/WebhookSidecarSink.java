package io.kevy.bridge.webhook;

import io.kevy.feed.client.Batch;
import io.kevy.feed.client.RebuildResult;
import io.kevy.feed.client.RebuildScope;
import io.kevy.feed.sidecar.Readiness;
import io.kevy.feed.sidecar.SidecarSink;
import java.util.concurrent.CompletionStage;

/** A {@link WebhookSink} as the sidecar runs it: its readiness is the endpoint's state. Thread-safe. */
final class WebhookSidecarSink implements SidecarSink {
    private final WebhookSink<byte[], byte[]> sink;

    WebhookSidecarSink(WebhookSink<byte[], byte[]> sink) {
        this.sink = sink;
    }

    WebhookSink<byte[], byte[]> sink() {
        return sink;
    }

    @Override
    public CompletionStage<Void> deliver(Batch<byte[], byte[]> batch) {
        return sink.deliver(batch);
    }

    @Override
    public CompletionStage<Void> beginRebuild(RebuildScope scope) {
        return sink.beginRebuild(scope);
    }

    @Override
    public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
        return sink.endRebuild(scope, result);
    }

    @Override
    public Readiness readiness() {
        EndpointHealth h = sink.health();
        switch (h.state()) {
            case DISABLED:
                return Readiness.notReady("webhook " + h.endpoint() + " answered 410 Gone: disabled, nothing more is "
                        + "sent; fix sink.webhook.url and restart");
            case STOPPED:
                return Readiness.notReady("webhook " + h.endpoint() + " rejected a request (" + h.lastError()
                        + ") and on_rejected = stop");
            case CLOSED:
                return Readiness.notReady("webhook sink closed");
            default:
                return Readiness.READY;
        }
    }

    @Override
    public void close() {
        sink.close();
    }

    @Override
    public String toString() {
        return sink.toString();
    }
}
