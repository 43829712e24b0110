package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.ETCD;
import static org.assertj.core.api.Assertions.assertThat;

import dwd.application.testing.VirtualScheduler;
import org.junit.jupiter.api.Test;

/** The start-up rehearsal goes all the way from the readiness transition to the deletion and back, on its own ports. */
class WeederRehearsalTest {

    @Test
    void theRehearsalReachesTheDeletionAndEndsTheWindow() {
        var observer = new RecordingWeederObserver(new VirtualScheduler());

        WeederRehearsal.run(WeederFixture.gardenerConfig(WeederFixture.WATCH_DURATION), observer);

        assertThat(observer.lines(WeederRehearsal.NAMESPACE)).containsExactly(
                ETCD + " ready",
                ETCD + " weeder started until 1970-01-01T00:05:00Z",
                ETCD + " deleted crash-looping/rehearsal-uid",
                ETCD + " not ready",
                ETCD + " weeder stopped: SERVICE_NOT_READY");
    }
}
