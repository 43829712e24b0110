package dwd.adapters.metrics;

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
import java.util.function.LongSupplier;

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

    /** {@code dwd_events_total{result}}: Kubernetes Events written, failed and dropped. */
    public static void eventCounts(MeterRegistry registry, LongSupplier written, LongSupplier failed, LongSupplier dropped) {
        eventCount(registry, "written", written);
        eventCount(registry, "failed", failed);
        eventCount(registry, "dropped", dropped);
    }

    private static void eventCount(MeterRegistry registry, String result, LongSupplier count) {
        FunctionCounter.builder("dwd.events", count, supplier -> supplier.getAsLong()).tag("result", result)
                .description("Kubernetes Events by result (written, failed: refused or error, dropped: queue full)")
                .register(registry);
    }

    @Override
    public void close() {
        gc.close();
    }
}
