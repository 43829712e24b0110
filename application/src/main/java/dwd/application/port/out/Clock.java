package dwd.application.port.out;

import java.time.Instant;

/** The time source of every use case, so that tests can run on virtual time. */
@FunctionalInterface
public interface Clock {

    /** The current instant. */
    Instant now();

    /** The wall clock. */
    static Clock system() {
        return Instant::now;
    }
}
