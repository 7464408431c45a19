package io.kevy.server;

import picocli.CommandLine.IVersionProvider;

/** The kevy version, from the jar manifest (falls back to "dev" when run from classes). */
public final class Version implements IVersionProvider {
    /** The Redis version kevy reports to clients (INFO, HELLO): the Redis 7.0 semantics it follows. */
    public static final String REDIS_VERSION = io.kevy.engine.ServerInfo.REDIS_VERSION;
    public static final String VERSION = versionOrDev();

    @Override
    public String[] getVersion() {
        return new String[] {"kevy " + VERSION + " (Redis " + REDIS_VERSION + " compatible)"};
    }

    private static String versionOrDev() {
        String v = Version.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
