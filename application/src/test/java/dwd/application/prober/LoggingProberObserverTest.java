package dwd.application.prober;

import static dwd.application.prober.OperabilityObserversTest.HEALTHY;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ProberObserver.FlowOutcome;
import dwd.application.port.out.ProberObserver.ProbeStage;
import dwd.application.testing.VirtualScheduler;
import dwd.domain.config.ResourceRef;
import dwd.domain.lease.Decision;
import dwd.domain.lease.LeaseVerdict;
import dwd.domain.scaling.ScaleDirection;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * What the prober logs of a problem that lasts: once when it appears, at debug level while it
 * repeats, once an hour as a reminder, and once when it clears.
 */
class LoggingProberObserverTest {

    private static final String NS = "shoot--dev--garbage";
    private static final ResourceRef KCM = new ResourceRef("apps/v1", "Deployment", "kube-controller-manager");
    private static final String GARBAGE = "cannot scale up kube-controller-manager: annotation"
            + " dependency-watchdog.gardener.cloud/replicas has the value \"abc\", which is not a whole number";

    /** A logged line: its level and message. */
    record Line(System.Logger.Level level, String message) { }

    /** Keeps every line at every level. */
    static final class RecordingLogger implements System.Logger {
        final List<Line> lines = new CopyOnWriteArrayList<>();

        @Override
        public String getName() {
            return "dwd.prober";
        }

        @Override
        public boolean isLoggable(Level level) {
            return true;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            lines.add(new Line(level, message));
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            lines.add(new Line(level, params == null || params.length == 0 ? format : MessageFormat.format(format, params)));
        }

        @Override
        public void log(Level level, Supplier<String> message) {
            lines.add(new Line(level, message.get()));
        }

        List<Line> atLeast(Level level) {
            return lines.stream().filter(line -> line.level().getSeverity() >= level.getSeverity()).toList();
        }
    }

    private final VirtualScheduler time = new VirtualScheduler();
    private final RecordingLogger log = new RecordingLogger();
    private final LoggingProberObserver observer = new LoggingProberObserver(() -> false, time, log);

    /** One probe of a healthy shoot whose held-down dependent has a garbage replicas annotation. */
    private void probeWithGarbageAnnotation() {
        observer.probeSucceeded(NS, HEALTHY, Optional.of(Decision.SCALE_UP), time.now().plusSeconds(2));
        observer.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        observer.resourceFailed(NS, ScaleDirection.UP, KCM, GARBAGE);
        observer.flowFinished(NS, ScaleDirection.UP, FlowOutcome.FAILED);
        time.advanceBy(Duration.ofSeconds(2));
    }

    @Test
    void aGarbageReplicasAnnotationIsWarnedOnceRemindedHourlyAndSaidOnceMoreWhenItClears() {
        observer.probeStarted(NS, Duration.ZERO);
        for (int probe = 0; probe < 45 * 60; probe++) { // 90 minutes at a 2 s interval
            probeWithGarbageAnnotation();
        }
        assertThat(log.atLeast(System.Logger.Level.WARNING)).as("one warning, and one reminder after an hour")
                .extracting(Line::message).containsExactly(
                        NS + ": scale-up could not scale " + KCM + ": " + GARBAGE + " (while it fails the same way, it is"
                                + " logged at debug level, and every 1h0m0s)",
                        NS + ": scale-up could not scale " + KCM + ": " + GARBAGE + " (still so, 1h0m0s, seen 1801 times)");
        assertThat(log.lines).filteredOn(line -> line.message().equals(NS + ": scale-up failed"))
                .as("the flow's end adds no warning: its dependent said why")
                .extracting(Line::level).containsOnly(System.Logger.Level.INFO, System.Logger.Level.DEBUG)
                .filteredOn(level -> level == System.Logger.Level.INFO).hasSize(2);

        observer.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        observer.resourceScaled(NS, ScaleDirection.UP, KCM, 0, 3, HEALTHY);
        observer.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED);
        assertThat(log.atLeast(System.Logger.Level.INFO)).extracting(Line::message)
                .filteredOn(message -> message.contains(KCM + " works again")).containsExactly(
                        NS + ": scale-up of " + KCM + " works again, after 1h30m0s, seen 2700 times failing (" + GARBAGE + ")");
        assertThat(log.atLeast(System.Logger.Level.INFO)).extracting(Line::message)
                .contains(NS + ": scale-up works again, after 1h30m0s, seen 2700 times failing (failed on " + KCM + ")",
                        NS + ": scale-up completed");
    }

    @Test
    void aFlowThatCompletesClearsWhatFailedBeforeEvenWithoutScalingIt() {
        probeWithGarbageAnnotation();
        probeWithGarbageAnnotation();
        // Someone scaled the dependent up by hand: the next flow finds nothing to do, and says nothing of it.
        observer.flowStarted(NS, ScaleDirection.UP, HEALTHY);
        observer.flowFinished(NS, ScaleDirection.UP, FlowOutcome.COMPLETED);
        assertThat(log.atLeast(System.Logger.Level.INFO)).extracting(Line::message)
                .contains(NS + ": scale-up of " + KCM + " works again, after 4s, seen 2 times failing (" + GARBAGE + ")");
        probeWithGarbageAnnotation();
        assertThat(log.atLeast(System.Logger.Level.WARNING)).as("failing again is news again").hasSize(2);
    }

    @Test
    void aFailingProbeIsWarnedOnceAndItsEndSaidOnce() {
        observer.probeStarted(NS, Duration.ZERO);
        var failure = new ApiFailure(ApiFailure.Kind.CERTIFICATE_EXPIRED, "shoot " + NS + ": GET /version: the"
                + " server's certificate (CN=kube-apiserver) expired at 2026-01-01T00:00:00Z");
        for (int probe = 0; probe < 20; probe++) {
            observer.probeFailed(NS, ProbeStage.API_SERVER, failure, time.now());
            time.advanceBy(Duration.ofSeconds(30));
        }
        observer.probeSucceeded(NS, HEALTHY, Optional.of(Decision.SCALE_UP), time.now());
        assertThat(log.atLeast(System.Logger.Level.WARNING)).singleElement().extracting(Line::message)
                .asString().startsWith(NS + ": API server probe failed (certificate-expired): shoot " + NS);
        assertThat(log.atLeast(System.Logger.Level.INFO)).extracting(Line::message)
                .filteredOn(message -> message.contains("probes work again")).containsExactly(NS + ": probes work again,"
                        + " after 10m0s, seen 20 times failing (last: API server probe failed (certificate-expired): "
                        + failure.getMessage() + ")");
    }

    @Test
    void leasesWithoutRenewTimeAreWarnedWhenTheirNumberChangesAndSaidOnceWhenNoneAreLeft() {
        for (int count : new int[] {1, 1, 1, 2, 2, 0, 0}) {
            var verdict = new LeaseVerdict(Decision.SCALE_UP, 5, 0, 0.0, 0.6, Map.of(), count, 0, List.of(), Optional.empty());
            observer.probeSucceeded(NS, verdict, Optional.of(Decision.SCALE_UP), time.now());
        }
        assertThat(log.atLeast(System.Logger.Level.WARNING)).extracting(Line::message)
                .allSatisfy(message -> assertThat(message).contains("no spec.renewTime")).hasSize(2);
        assertThat(log.atLeast(System.Logger.Level.INFO)).extracting(Line::message)
                .filteredOn(message -> message.contains("has a spec.renewTime again")).hasSize(1);
    }
}
