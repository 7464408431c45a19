package io.kevy.engine;

/** Identity constants the engine reports to clients (HELLO, INFO). */
public final class ServerInfo {
    /** The Redis version whose semantics kevy follows and reports: 7.0.15. */
    public static final String REDIS_VERSION = "7.0.15";

    private ServerInfo() {
    }
}
