package dwd.application.port.out;

import dwd.domain.time.SaturatingTime;
import java.time.Duration;

/**
 * Whether this process may write now. With leader election, only the holder of the role's Lease
 * may; the answer turns false the moment leadership is in doubt (renew deadline passed), before
 * anyone else can have taken over.
 */
@FunctionalInterface
public interface Leadership {

    /** True while this process may change the cluster. */
    boolean isLeading();

    /**
     * How much longer this process may write, from now on the monotonic clock: until its renew deadline,
     * before which no standby can have taken over; zero when it is not leading. A write is given no
     * longer, so that none of this process's is on its way once another may write.
     */
    default Duration leadingFor() {
        return isLeading() ? SaturatingTime.MAX : Duration.ZERO;
    }

    /** For a single replica without leader election: always leading. */
    static Leadership always() {
        return () -> true;
    }
}
