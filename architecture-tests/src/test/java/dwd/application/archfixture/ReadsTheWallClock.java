package dwd.application.archfixture;

import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** A deliberate violation: a use case that tells time and sleeps by itself. Analysed only in isolation. */
public final class ReadsTheWallClock {

    public Instant instant() {
        return Instant.now();
    }

    public LocalDateTime localTime() {
        return LocalDateTime.now();
    }

    public long elapsed(long since) {
        return System.nanoTime() - since;
    }

    public long millis() {
        return System.currentTimeMillis();
    }

    public void pause() throws InterruptedException {
        Thread.sleep(10);
        TimeUnit.MILLISECONDS.sleep(10);
    }

    public Supplier<Instant> clock() {
        return Instant::now;
    }

    public Object systemClocks() {
        return new Object[] {Clock.systemUTC(), InstantSource.system(), Clock.tickMillis(ZoneOffset.UTC)};
    }

    public Object legacyDates() {
        return new Object[] {new Date(), Calendar.getInstance(), new GregorianCalendar()};
    }
}
