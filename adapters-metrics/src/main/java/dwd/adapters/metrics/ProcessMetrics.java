package dwd.adapters.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.function.BooleanSupplier;
import java.util.function.ToLongFunction;

/** JVM and process metrics, leadership and event counts: what every role exposes. */
public final class ProcessMetrics implements AutoCloseable {

    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** Binds the JVM and process metrics ({@code jvm_*}, {@code process_*}, {@code system_*}) to {@code registry}. */
    public ProcessMetrics(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** {@code dwd_leader_status{lock}}: 1 while this process leads (always 1 without leader election). */
    public static void leaderStatus(MeterRegistry registry, String lock, BooleanSupplier leading) {
        Gauge.builder("dwd.leader.status", leading, supplier -> supplier.getAsBoolean() ? 1 : 0)
                .tag("lock", lock).strongReference(true)
                .description("1 while this process holds the role's leader-election Lease").register(registry);
    }

    /**
     * {@code dwd_leader_acquisitions_total{lock}}: how often this process became leader (0 or 1, as
     * losing leadership ends the process); summed over a role's processes, the leader changes.
     * Present at 0 from the start, so that the acquisition itself is an increase.
     */
    public static Counter leaderAcquisitions(MeterRegistry registry, String lock) {
        return Counter.builder("dwd.leader.acquisitions").tag("lock", lock)
                .description("Times this process acquired the role's leader-election Lease").register(registry);
    }

    /**
     * {@code dwd_events_total{result}}: Kubernetes Events written, failed, dropped and not sent because
     * Events are off (no permission), read from {@code recorder} (which the caller keeps alive: meters hold
     * their source weakly).
     */
    public static <T> void eventCounts(MeterRegistry registry, T recorder, ToLongFunction<T> written,
            ToLongFunction<T> failed, ToLongFunction<T> dropped, ToLongFunction<T> off) {
        eventCount(registry, recorder, "written", written);
        eventCount(registry, recorder, "failed", failed);
        eventCount(registry, recorder, "dropped", dropped);
        eventCount(registry, recorder, "off", off);
    }

    private static <T> void eventCount(MeterRegistry registry, T recorder, String result, ToLongFunction<T> count) {
        FunctionCounter.builder("dwd.events", recorder, source -> count.applyAsLong(source)).tag("result", result)
                .description("Kubernetes Events by result (written, failed: refused or error, dropped: queue full,"
                        + " off: not sent, this identity may not create Events)")
                .register(registry);
    }

    @Override
    public void close() {
        gc.close();
    }
}
