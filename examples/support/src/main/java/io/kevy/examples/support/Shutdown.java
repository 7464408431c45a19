package io.kevy.examples.support;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs a service until Ctrl-C (SIGINT/SIGTERM): the shutdown hook counts {@code stop} down and waits (up to
 * 30 s) until the service closed its resources. The hook is removed when the service ends by itself (a test
 * counting {@code stop} down). Stateless.
 */
public final class Shutdown {
    private Shutdown() {
    }

    /** Runs {@code service}, which must return once {@code stop} reaches zero. */
    public static <T> T runUntilStopped(CountDownLatch stop, Callable<T> service) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                done.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "kevy-example-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return service.call();
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook is running
            }
        }
    }
}
