package dwd.application.archfixture;

import dwd.application.port.out.Clock;
import dwd.application.port.out.Scheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.concurrent.TimeUnit;

/**
 * The allowed way: time from the Clock port, waits through the Scheduler; converting a timeout's unit
 * or dating an instant the Clock gave reads no clock. Analysed only in isolation.
 */
public final class ReadsTimeThroughItsPorts {

    private final Clock clock;
    private final Scheduler scheduler;

    public ReadsTimeThroughItsPorts(Clock clock, Scheduler scheduler) {
        this.clock = clock;
        this.scheduler = scheduler;
    }

    public Instant deadline(Duration timeout) {
        scheduler.schedule(timeout, () -> { });
        return clock.now().plus(timeout);
    }

    public long timeoutMillis(Duration timeout) {
        return TimeUnit.MILLISECONDS.convert(timeout);
    }

    public Date dated() {
        return new Date(clock.now().toEpochMilli());
    }
}
