package io.kevy.examples.demo;

import io.kevy.examples.search.DebianPackage;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Step 4 of the demo: a realistic change stream over the loaded catalog, one write at a time as an application
 * would send them. Each step is, at random (seeded):
 * <ul>
 *   <li>35%: a version bump ({@code HSET pkg:<name> version <v>+deb12u<n>}), a security update;</li>
 *   <li>5%: a maintainer change;</li>
 *   <li>6%: a removal ({@code DEL pkg:<name>});</li>
 *   <li>6%: a re-add of a removed package (all its fields);</li>
 *   <li>48%: a user views a package: {@code GET /packages/<name>} from the cache service, then
 *       {@code SET viewed:<user>:<name> <time> PX <0.3-3 s>}, a "recently viewed" key that expires.</li>
 * </ul>
 * Not thread-safe.
 */
final class ChangeStream {
    private final RedisCommands<String, String> redis;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String packagesUrl;
    private final List<DebianPackage> live;
    private final List<DebianPackage> removed = new ArrayList<>();
    private final Random rnd;
    private final Latencies latencies;
    private final Writes writes;
    int bumps;
    int maintainers;
    int removals;
    int readds;
    int views;
    int notFound;

    /**
     * @param packagesUrl the cache service's {@code http://host:port/packages/}
     * @param live        the packages present now (changed in place as packages are removed and re-added)
     */
    ChangeStream(RedisCommands<String, String> redis, String packagesUrl, List<DebianPackage> live, Random rnd,
            Latencies latencies, Writes writes) {
        this.redis = redis;
        this.packagesUrl = packagesUrl;
        this.live = live;
        this.rnd = rnd;
        this.latencies = latencies;
        this.writes = writes;
    }

    /** One change. */
    void step(int i) throws IOException, InterruptedException {
        int r = rnd.nextInt(100);
        if (r >= 46 && r < 52 && removed.isEmpty()) {
            r = 99;
        }
        if (r < 35) {
            DebianPackage p = live.get(rnd.nextInt(live.size()));
            String token = p.version() + "+deb12u" + (i + 1);
            latencies.sent(token);
            redis.hset(p.key(), "version", token);
            writes.wrote(p.key());
            bumps++;
        } else if (r < 40) {
            DebianPackage p = live.get(rnd.nextInt(live.size()));
            redis.hset(p.key(), "maintainer", "Debian QA Group <packages@qa.debian.org>");
            writes.wrote(p.key());
            maintainers++;
        } else if (r < 46 && live.size() > 1) {
            DebianPackage p = live.remove(rnd.nextInt(live.size()));
            redis.del(p.key());
            writes.wrote(p.key());
            removed.add(p);
            removals++;
        } else if (r < 52 && !removed.isEmpty()) {
            DebianPackage p = removed.remove(rnd.nextInt(removed.size()));
            redis.hset(p.key(), p.fields());
            writes.wrote(p.key());
            live.add(p);
            readds++;
        } else {
            DebianPackage p = rnd.nextInt(4) == 0 && !removed.isEmpty() ? removed.get(rnd.nextInt(removed.size()))
                    : live.get(rnd.nextInt(live.size()));
            view(p);
            String key = "viewed:user" + rnd.nextInt(25) + ":" + p.name();
            redis.set(key, Long.toString(System.currentTimeMillis()), SetArgs.Builder.px(300 + rnd.nextInt(2700)));
            writes.wrote(key);
        }
    }

    /**
     * Fills the cache: views {@code views} packages (a few removed ones among them), then bumps the version of
     * {@code bumps} of the viewed ones, so the check finds entries that the feed must have invalidated.
     *
     * @return the packages viewed
     */
    int warmAndBump(int views, int bumps) throws IOException, InterruptedException {
        List<DebianPackage> viewed = new ArrayList<>();
        for (int i = 0; i < views; i++) {
            DebianPackage p = i % 20 == 0 && !removed.isEmpty() ? removed.get(rnd.nextInt(removed.size()))
                    : live.get(rnd.nextInt(live.size()));
            view(p);
            viewed.add(p);
        }
        for (int i = 0; i < bumps && i < viewed.size(); i++) {
            DebianPackage p = viewed.get(i);
            if (live.contains(p)) {
                redis.hset(p.key(), "version", p.version() + "+deb12u99");
                writes.wrote(p.key());
            }
        }
        return viewed.size();
    }

    private void view(DebianPackage p) throws IOException, InterruptedException {
        HttpResponse<Void> res = http.send(HttpRequest.newBuilder(URI.create(packagesUrl
                + URLEncoder.encode(p.name(), StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.discarding());
        if (res.statusCode() == 404) {
            notFound++;
        }
        views++;
    }

    /** The removed packages not added back. */
    List<DebianPackage> removed() {
        return removed;
    }
}
