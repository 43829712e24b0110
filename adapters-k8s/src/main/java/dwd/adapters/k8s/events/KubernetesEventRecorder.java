package dwd.adapters.k8s.events;

import dwd.adapters.k8s.ApiFailures;
import dwd.adapters.k8s.JsonCalls;
import dwd.adapters.k8s.OwnedClients;
import dwd.adapters.k8s.watch.OutageLog;
import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.EventRecorder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Writes events.k8s.io/v1 Events, fire-and-forget: {@link #record} only offers the event to a
 * bounded queue (a full queue drops it), and one background thread writes them with a client of
 * its own and a short call timeout. A write that fails (403 without RBAC for events, 5xx, timeout)
 * is counted and logged (the first of each kind at WARN, the rest at DEBUG), never retried, and
 * never reaches the action that produced the event.
 *
 * <p>The thread first asks whether this identity may create Events in every namespace
 * ({@link EventPermission}), and asks again, with back-off, until the API server says yes or no. If no
 * (Gardener's roles grant Events in {@code garden} only), Events are off: one line says so and names
 * the rule that turns them on, and every Event is counted as not sent ({@link #off()}) instead of
 * being refused by the API server one by one.
 */
public final class KubernetesEventRecorder implements EventRecorder, AutoCloseable {

    private static final Logger LOG = LogManager.getLogger();
    private static final int NOTE_LIMIT = 1024;
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration PERMISSION_BACK_OFF_MIN = Duration.ofSeconds(2);
    private static final Duration PERMISSION_BACK_OFF_MAX = Duration.ofSeconds(30);

    private final ApiClient client;
    private final EventsV1Api api;
    private final String reportingController;
    private final String reportingInstance;
    private final BlockingQueue<Event> queue;
    private final Thread writer;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong notSent = new AtomicLong();
    private final AtomicLong lastNameNanos = new AtomicLong();
    private final Set<ApiFailure.Kind> failureKindsLogged = ConcurrentHashMap.newKeySet();
    private final OutageLog outages;
    private volatile boolean closed;
    private volatile boolean off;

    /**
     * @param newSeedClient       makes a new client for the seed; this recorder owns the one it takes
     * @param reportingController e.g. {@code dependency-watchdog.gardener.cloud/prober}
     * @param reportingInstance   this process, e.g. its pod name
     * @param capacity            events waiting at most; more are dropped
     * @param outages             where an unreachable seed is reported (one warning per outage for the process)
     */
    public KubernetesEventRecorder(Supplier<ApiClient> newSeedClient, String reportingController,
            String reportingInstance, int capacity, OutageLog outages) {
        this.outages = Objects.requireNonNull(outages, "outages");
        this.client = newSeedClient.get();
        this.client.setHttpClient(client.getHttpClient().newBuilder()
                .connectTimeout(CALL_TIMEOUT).readTimeout(CALL_TIMEOUT).callTimeout(CALL_TIMEOUT).build());
        this.api = new EventsV1Api(client);
        this.reportingController = reportingController;
        this.reportingInstance = cut(reportingInstance, 128);
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.writer = Thread.ofVirtual().name("dwd-event-writer").start(this::writeLoop);
    }

    @Override
    public void record(Event event) {
        if (off) {
            notSent.incrementAndGet();
        } else if (closed || !queue.offer(event)) {
            long count = dropped.incrementAndGet();
            if (count == 1 || count % 100 == 0) {
                LOG.warn("Kubernetes Event dropped ({} so far): the event queue is full or closed", count);
            }
        }
    }

    /** Events written so far. */
    public long written() {
        return written.get();
    }

    /** Event writes the API server refused or that failed. */
    public long failed() {
        return failed.get();
    }

    /** Events dropped because the queue was full. */
    public long dropped() {
        return dropped.get();
    }

    /** Events not sent because this identity may not create them (Events are off). */
    public long off() {
        return notSent.get();
    }

    private void writeLoop() {
        var question = new PermissionQuestion();
        EventPermission permission = question.ask();
        // Before any write: a seed that did not answer at start must not turn a missing grant into 403s.
        while (permission == EventPermission.UNANSWERED && !closed) {
            try {
                Thread.sleep(question.untilNext());
            } catch (InterruptedException e) {
                return;
            }
            permission = question.ask();
        }
        while (!closed || !queue.isEmpty()) {
            Event event;
            try {
                if (question.settled() || closed) {
                    event = queue.take();
                } else if (question.untilNext().isPositive()) {
                    event = queue.poll(question.untilNext().toNanos(), TimeUnit.NANOSECONDS);
                } else {
                    question.ask();
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            if (event != null) {
                write(event);
            }
        }
    }

    /**
     * Whether Events may be written, asked until the API server gives a yes or a no: again and again (2 s,
     * doubling to 30 s) while it does not answer or the review fails otherwise. Until the first answer of
     * any kind, Events wait; after a failed review they are tried meanwhile, their failures counted. Every
     * process, the standby too, says once whether Events are off. The writer thread's own.
     */
    private final class PermissionQuestion {
        private Duration backOff = PERMISSION_BACK_OFF_MIN;
        private long nextAskNanos;
        private boolean settled;

        EventPermission ask() {
            EventPermission permission = EventPermission.ask(client, CALL_TIMEOUT);
            nextAskNanos = System.nanoTime() + backOff.toNanos();
            Duration doubled = backOff.multipliedBy(2);
            backOff = doubled.compareTo(PERMISSION_BACK_OFF_MAX) > 0 ? PERMISSION_BACK_OFF_MAX : doubled;
            settled = permission == EventPermission.ALLOWED || permission == EventPermission.DENIED;
            if (permission == EventPermission.DENIED) {
                off = true;
                LOG.info("Kubernetes Events are off: this identity may not create events.k8s.io Events in all"
                        + " namespaces (dwd writes them about shoot Deployments and pods; Gardener's roles grant Events in"
                        + " garden only). To turn them on, bind a ClusterRole with the rule {} to it; Events not sent are"
                        + " counted in dwd_events_total{result=\"off\"}", EventPermission.RULE);
            }
            return permission;
        }

        /** Whether the answer is final: yes or no. */
        boolean settled() {
            return settled;
        }

        /** Until the question may be asked again; zero or less: now. */
        Duration untilNext() {
            return Duration.ofNanos(nextAskNanos - System.nanoTime());
        }
    }

    private void write(Event event) {
        if (off) {
            notSent.incrementAndGet();
            return;
        }
        String namespace = event.regarding().namespace();
        String action = "writing Event " + event.reason() + " about " + event.regarding().kind() + " "
                + namespace + "/" + event.regarding().name();
        try {
            EventsV1Event body = toEvent(event);
            ApiFailures.call(action,
                    () -> JsonCalls.execute(api.createNamespacedEvent(namespace, body).buildCall(null), CALL_TIMEOUT));
            written.incrementAndGet();
        } catch (ApiFailure failure) {
            failed.incrementAndGet();
            if (OutageLog.isOutage(failure)) {
                outages.unreachable(failure);
            } else if (failureKindsLogged.add(failure.kind())) {
                LOG.warn("{} (Events are best effort; the action itself is unaffected; further {} failures are logged"
                        + " at DEBUG)", failure.getMessage(), failure.kind());
            } else {
                LOG.debug("{}", failure.getMessage());
            }
        } catch (RuntimeException unexpected) {
            failed.incrementAndGet();
            LOG.warn("{}: unexpected failure", action, unexpected);
        }
    }

    EventsV1Event toEvent(Event event) {
        var regarding = event.regarding();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
        return new EventsV1Event()
                .apiVersion("events.k8s.io/v1")
                .kind("Event")
                .metadata(new V1ObjectMeta()
                        .name(regarding.name() + "." + Long.toHexString(uniqueNanos(now)))
                        .namespace(regarding.namespace()))
                .eventTime(now)
                .reportingController(reportingController)
                .reportingInstance(reportingInstance)
                .action(event.action())
                .reason(event.reason())
                .type(event.type() == Type.WARNING ? "Warning" : "Normal")
                .note(cut(event.note(), NOTE_LIMIT))
                .regarding(new V1ObjectReference()
                        .apiVersion(regarding.apiVersion())
                        .kind(regarding.kind())
                        .namespace(regarding.namespace())
                        .name(regarding.name()));
    }

    /** Like Kubernetes' own recorders, {@code <object>.<hex nanos>}; strictly increasing, so never twice the same. */
    private long uniqueNanos(OffsetDateTime now) {
        long nanos = now.toEpochSecond() * 1_000_000_000L + now.getNano();
        return lastNameNanos.updateAndGet(previous -> Math.max(previous + 1, nanos));
    }

    private static String cut(String text, int limit) {
        return text.length() <= limit ? text : text.substring(0, limit - 1) + "…";
    }

    /** Writes what is queued (within the call timeouts), then frees the client. */
    @Override
    public void close() {
        closed = true;
        if (queue.isEmpty()) {
            writer.interrupt();
        }
        try {
            writer.join(CALL_TIMEOUT.multipliedBy(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writer.interrupt();
        OwnedClients.release(client);
    }

    /** A reporting instance name from the host name, as Kubernetes controllers use the pod name. */
    public static String instanceName(String hostName) {
        return hostName.toLowerCase(Locale.ROOT);
    }
}
