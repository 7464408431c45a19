package io.kevy.bridge.kafka.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.awaitility.Awaitility;

/**
 * Kafka Connect workers in distributed mode inside the test JVM, as {@code connect-distributed.sh} starts them
 * ({@link ConnectDistributed#startConnect}), one group per cluster name, on the shared in-process broker; REST on
 * a free loopback port each. {@link #rest} talks to the workers' REST API (java.net.http). The connector is
 * found on the test class path (META-INF/services).
 */
public final class ConnectWorkers implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaBroker broker;
    private final String cluster;
    private final Map<String, String> extra;
    private final List<Connect<?>> workers = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private String externalUrl;

    /** {@code extra}: more worker properties (e.g. exactly.once.source.support=enabled). */
    public ConnectWorkers(KafkaBroker broker, String cluster, Map<String, String> extra) {
        this.broker = broker;
        this.cluster = cluster;
        this.extra = Map.copyOf(extra);
    }

    /** The worker properties of this cluster. */
    public Map<String, String> workerProps() {
        Map<String, String> p = new HashMap<>();
        p.put("bootstrap.servers", broker.bootstrap());
        p.put("group.id", cluster);
        p.put("config.storage.topic", cluster + "-configs");
        p.put("offset.storage.topic", cluster + "-offsets");
        p.put("status.storage.topic", cluster + "-status");
        p.put("config.storage.replication.factor", "1");
        p.put("offset.storage.replication.factor", "1");
        p.put("status.storage.replication.factor", "1");
        p.put("offset.storage.partitions", "3");
        p.put("status.storage.partitions", "1");
        p.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
        p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
        p.put("value.converter.schemas.enable", "false");
        p.put("listeners", "http://127.0.0.1:0");
        p.put("rest.advertised.host.name", "127.0.0.1");
        p.put("offset.flush.interval.ms", "500");
        // a stopped worker's tasks move at once (default: 5 min later)
        p.put("scheduled.rebalance.max.delay.ms", "0");
        p.put("task.shutdown.graceful.timeout.ms", "5000");
        p.put("plugin.discovery", "hybrid_warn");
        p.putAll(extra);
        return p;
    }

    /** Starts one more worker; returns its index. */
    public synchronized int start() {
        Connect<?> c = new ConnectDistributed().startConnect(workerProps());
        workers.add(c);
        return workers.size() - 1;
    }

    /** Stops worker {@code i} (it leaves the group; its tasks move to the others). */
    public synchronized void stop(int i) {
        Connect<?> c = workers.get(i);
        if (c != null) {
            c.stop();
            c.awaitStop();
            workers.set(i, null);
        }
    }

    /** REST calls to a worker running elsewhere (another process) at {@code url}. */
    public static ConnectWorkers external(KafkaBroker broker, String url) {
        ConnectWorkers w = new ConnectWorkers(broker, "external", Map.of());
        w.externalUrl = url;
        return w;
    }

    /** The REST URL of a running worker. */
    public synchronized String url() {
        if (externalUrl != null) {
            return externalUrl;
        }
        for (Connect<?> c : workers) {
            if (c != null) {
                String u = c.rest().advertisedUrl().toString();
                return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
            }
        }
        throw new IllegalStateException("no worker runs");
    }

    /** A REST answer. */
    public record Answer(int status, JsonNode body) {
    }

    /** {@code method path} with a JSON body (or none) on a running worker. */
    public Answer rest(String method, String path, Object body) {
        try {
            HttpRequest.BodyPublisher pub = body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body));
            HttpRequest req = HttpRequest.newBuilder(URI.create(url() + path)).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .method(method, pub).build();
            HttpResponse<byte[]> r = http.send(req, HttpResponse.BodyHandlers.ofByteArray());
            JsonNode n = r.body().length == 0 ? JSON.nullNode() : JSON.readTree(r.body());
            return new Answer(r.statusCode(), n);
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates or updates connector {@code name} (PUT /connectors/name/config) and checks the answer. */
    public void putConnector(String name, Map<String, String> config) {
        // the REST API answers 409 while the group rebalances: retry until accepted
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
            Answer a = rest("PUT", "/connectors/" + name + "/config", config);
            if (a.status() >= 400 && a.status() != 409 && a.status() != 500) {
                throw new IllegalStateException("PUT connector " + name + ": " + a);
            }
            return a.status() < 300;
        });
    }

    /** Waits until the connector and {@code tasks} tasks are in {@code state} (RUNNING, PAUSED). */
    public void awaitState(String name, String state, int tasks) {
        Awaitility.await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Answer a = rest("GET", "/connectors/" + name + "/status", null);
            if (a.status() != 200) {
                return false;
            }
            JsonNode ts = a.body().path("tasks");
            for (JsonNode t : ts) {
                if (t.path("state").asText().equals("FAILED")) {
                    throw new IllegalStateException("task failed: " + t.path("trace").asText());
                }
            }
            if (!a.body().path("connector").path("state").asText().equals(state) || ts.size() != tasks) {
                return false;
            }
            for (JsonNode t : ts) {
                if (!t.path("state").asText().equals(state)) {
                    return false;
                }
            }
            return true;
        });
    }

    /** The worker ids (host:port) running the connector's tasks. */
    public List<String> taskWorkers(String name) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : rest("GET", "/connectors/" + name + "/status", null).body().path("tasks")) {
            out.add(t.path("worker_id").asText());
        }
        return out;
    }

    @Override
    public synchronized void close() {
        for (int i = 0; i < workers.size(); i++) {
            try {
                stop(i);
            } catch (RuntimeException e) {
                System.err.println("stopping worker " + i + " failed: " + e);
            }
        }
    }
}
