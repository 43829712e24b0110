package dwd.adapters.k8s.watch;

import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.port.out.ApiFailure;
import dwd.application.port.out.ApiFailure.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OutageLogTest {

    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final OutageLog outages = new OutageLog("seed API server https://10.0.0.1:443", now::get);
    private final LogLines log = LogLines.of(OutageLog.class.getName());

    @AfterEach
    void stopCapturing() {
        log.close();
    }

    private void advance(Duration by) {
        now.updateAndGet(instant -> instant.plus(by));
    }

    private static ApiFailure unavailable(String action) {
        return new ApiFailure(Kind.UNAVAILABLE, action + ": cannot connect (Connection refused)");
    }

    @Test
    void anOutageIsOneWarningThenDebugLinesThenAReminderAMinuteLaterThenOneLineWhenItEnds() {
        outages.unreachable(unavailable("watching Clusters"), Duration.ofSeconds(1));
        for (int i = 0; i < 20; i++) {
            advance(Duration.ofSeconds(2));
            outages.unreachable(unavailable("watching Machines"), Duration.ofSeconds(4));
        }
        assertThat(log.atLeast(Level.INFO)).extracting(LogLines.Line::message).containsExactly(
                "seed API server https://10.0.0.1:443 is unreachable: watching Clusters: cannot connect"
                        + " (Connection refused); retrying in 1s, with back-off; further failures"
                        + " are logged at debug level until it answers");
        assertThat(log.lines()).filteredOn(line -> line.level() == Level.DEBUG).hasSize(20)
                .allSatisfy(line -> assertThat(line.hasThrowable()).as("the stack trace, at debug level").isTrue());

        advance(Duration.ofSeconds(20)); // a minute after the warning
        outages.unreachable(unavailable("renewing Lease garden/lock"), Duration.ofSeconds(2));
        long call = outages.callStarting();
        advance(Duration.ofMillis(1_500));
        outages.answered(call);

        assertThat(log.atLeast(Level.INFO)).extracting(LogLines.Line::message).containsExactly(
                log.atLeast(Level.INFO).getFirst().message(),
                "seed API server https://10.0.0.1:443 still unreachable after 1m0s: renewing Lease garden/lock:"
                        + " cannot connect (Connection refused); retrying in 2s, with back-off",
                "seed API server https://10.0.0.1:443 answers again after 1m1.5s (22 calls failed meanwhile)");
        assertThat(outages.inOutage()).isFalse();
        assertThat(log.atLeast(Level.INFO)).noneMatch(LogLines.Line::hasThrowable);
    }

    @Test
    void anAnswerToACallSentBeforeTheOutageBeganDoesNotEndIt() {
        long before = outages.callStarting();
        outages.unreachable(unavailable("watching Clusters"), Duration.ofSeconds(1));
        outages.answered(before);
        assertThat(outages.inOutage()).isTrue();
        long after = outages.callStarting();
        outages.answered(after);
        assertThat(outages.inOutage()).isFalse();
    }

    @Test
    void aFailureOfACallSentBeforeTheLastAnsweredOneIsOldNews() {
        long early = outages.callStarting();
        long late = outages.callStarting();
        outages.answered(late);
        outages.noAnswer(early);
        assertThat(outages.inOutage()).isFalse();
    }

    @Test
    void aFailedCallNoticedSilentlyStartsAnOutageThatCallersCanAskAbout() {
        long call = outages.callStarting();
        outages.noAnswer(call);
        assertThat(outages.inOutage()).as("a scale flow's failed read tells the prober's log to stay quiet").isTrue();
        outages.answered(outages.callStarting());
        assertThat(outages.inOutage()).isFalse();
        assertThat(log.atLeast(Level.INFO)).as("nothing was reported, so nothing ends").isEmpty();
    }

    @Test
    void tooManyRequestsIsAnInfoLineForThirtySecondsThenAWarning() {
        var throttled = new ApiFailure(Kind.THROTTLED, "listing Machines: 429 TooManyRequests: storage is (re)initializing");
        outages.unreachable(throttled, Duration.ofSeconds(1));
        advance(Duration.ofSeconds(10));
        outages.unreachable(throttled, Duration.ofSeconds(2));
        assertThat(log.atLeast(Level.INFO)).singleElement().satisfies(line -> {
            assertThat(line.level()).isEqualTo(Level.INFO);
            assertThat(line.message()).startsWith("seed API server https://10.0.0.1:443 asks dwd to slow down: listing"
                    + " Machines: 429");
        });
        advance(Duration.ofSeconds(25));
        outages.unreachable(throttled, Duration.ofSeconds(4));
        assertThat(log.atLeast(Level.WARN)).singleElement().extracting(LogLines.Line::message).asString()
                .startsWith("seed API server https://10.0.0.1:443 is overloaded: listing Machines: 429");
    }

    @Test
    void onlyServerTroubleIsAnOutage() {
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.UNAVAILABLE, "x"))).isTrue();
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.TIMEOUT, "x"))).isTrue();
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.THROTTLED, "x"))).isTrue();
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.FORBIDDEN, "x"))).isFalse();
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.NOT_FOUND, "x"))).isFalse();
        assertThat(OutageLog.isOutage(new ApiFailure(Kind.INVALID, "x"))).isFalse();
    }
}
