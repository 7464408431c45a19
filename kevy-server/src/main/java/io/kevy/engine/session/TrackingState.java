package io.kevy.engine.session;

import java.util.List;

/**
 * One client's {@code CLIENT TRACKING} mode (Redis 7.0's {@code CLIENT_TRACKING_*} flags, its
 * {@code client_tracking_redirection} and {@code client_tracking_prefixes}): set by {@code CLIENT TRACKING ON},
 * dropped by {@code CLIENT TRACKING OFF}, RESET and disconnect ({@link Session#tracking()} is null while off).
 *
 * <p>The mode itself is immutable: {@code CLIENT TRACKING ON} again replaces the object (keeping the CACHING
 * flag, as Redis's {@code enableTracking} does). Two flags change while the mode lasts and are volatile: the
 * CACHING flag ({@code CLIENT CACHING}, cleared after the next command by the dispatcher) and the broken
 * redirect flag, set by the thread that finds the redirect client gone.
 *
 * <p>Thread-safe: written by the session's own thread (and the broken flag by any), read by every writer's
 * thread under its shard lock.
 */
public final class TrackingState {
    private final long redirect;
    private final boolean bcast;
    private final boolean optin;
    private final boolean optout;
    private final boolean noloop;
    private final List<byte[]> prefixes;
    private volatile boolean caching;
    private volatile boolean brokenRedirect;

    /**
     * A mode as {@code CLIENT TRACKING ON} sets it.
     *
     * @param redirect the client id invalidations go to, 0 for none (Redis prints 0 then, -1 while off)
     * @param prefixes BCAST prefixes in Redis's (rax, byte-wise) order; empty without BCAST, {@code [""]} for
     *                 BCAST without PREFIX
     */
    public TrackingState(long redirect, boolean bcast, boolean optin, boolean optout, boolean noloop,
            List<byte[]> prefixes, boolean caching) {
        this.redirect = redirect;
        this.bcast = bcast;
        this.optin = optin;
        this.optout = optout;
        this.noloop = noloop;
        this.prefixes = List.copyOf(prefixes);
        this.caching = caching;
    }

    public long redirect() {
        return redirect;
    }

    public boolean bcast() {
        return bcast;
    }

    public boolean optin() {
        return optin;
    }

    public boolean optout() {
        return optout;
    }

    public boolean noloop() {
        return noloop;
    }

    /** The BCAST prefixes (an unmodifiable list; the arrays must not be changed). */
    public List<byte[]> prefixes() {
        return prefixes;
    }

    /** {@code CLIENT CACHING YES} (OPTIN) or {@code NO} (OPTOUT) was given for the next command. */
    public boolean caching() {
        return caching;
    }

    public void caching(boolean caching) {
        this.caching = caching;
    }

    /** The redirect client was gone when an invalidation was due (CLIENT LIST flag {@code R}). */
    public boolean brokenRedirect() {
        return brokenRedirect;
    }

    public void brokenRedirect(boolean broken) {
        this.brokenRedirect = broken;
    }

    /**
     * Whether the keys of a read-only command are remembered now (Redis's {@code trackingRememberKeys}): never
     * in BCAST mode; in OPTIN mode only after {@code CACHING YES}; in OPTOUT mode unless after {@code CACHING NO}.
     */
    public boolean remembersReads() {
        return !bcast && !(optin && !caching) && !(optout && caching);
    }
}
