package dwd.application.weeder;

import static dwd.application.weeder.WeederFixture.ETCD;
import static dwd.application.weeder.WeederFixture.KUBE_APISERVER;
import static dwd.application.weeder.WeederFixture.WATCH_DURATION;
import static dwd.application.weeder.WeederFixture.crashLooping;
import static dwd.application.weeder.WeederFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Weeders come and go for hours of virtual time without leaving anything behind. */
class WeederLifecycleTest {

    @Test
    void manyWindowsLeaveNoWatchNoTaskAndNoWeederBehind() {
        var fixture = new WeederFixture();
        var random = new SplittableRandom(7);
        int namespaces = 100;
        for (int cycle = 0; cycle < 50; cycle++) {
            for (int n = 0; n < namespaces; n++) {
                String ns = "shoot-" + n;
                fixture.supervisor.sliceChanged(slice(ns, "etcd", ETCD, true));
                fixture.supervisor.sliceChanged(slice(ns, "kapi", KUBE_APISERVER, random.nextBoolean()));
                fixture.watches.emit(WeederFixture.APISERVER_PODS,
                        crashLooping(ns, "kube-apiserver-" + cycle, ns + "-uid-" + cycle));
            }
            fixture.scheduler.advanceBy(Duration.ofMinutes(random.nextInt(1, 4)));
            for (int n = 0; n < namespaces; n++) {
                String ns = "shoot-" + n;
                fixture.supervisor.sliceChanged(slice(ns, "etcd", ETCD, false));
                fixture.supervisor.sliceChanged(slice(ns, "kapi", KUBE_APISERVER, false));
            }
            fixture.scheduler.advanceBy(WATCH_DURATION);
        }

        assertThat(fixture.supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.watches.openCount()).isZero();
        assertThat(fixture.scheduler.pendingTasks()).isZero();
        assertThat(fixture.supervisor.knownServices()).as("slices still exist").isEqualTo(2 * namespaces);
        assertThat(fixture.pods.requests()).hasSize(50 * namespaces);

        for (int n = 0; n < namespaces; n++) {
            fixture.supervisor.sliceRemoved("shoot-" + n, "etcd");
            fixture.supervisor.sliceRemoved("shoot-" + n, "kapi");
        }
        assertThat(fixture.supervisor.knownServices()).isZero();
        assertThat(fixture.supervisor.knownSlices()).isZero();
    }

    @Test
    void concurrentEventsNeverLeaveTwoWeedersForOneService() throws Exception {
        var fixture = new WeederFixture();
        String ns = "shoot--dev--race";
        int threads = 8;
        var start = new CountDownLatch(1);
        var done = new AtomicBoolean();
        List<Future<?>> futures = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            for (int t = 0; t < threads; t++) {
                long seed = t;
                futures.add(pool.submit(() -> {
                    var random = new SplittableRandom(seed);
                    start.await();
                    for (int i = 0; i < 2_000; i++) {
                        String sliceName = "etcd-" + random.nextInt(3);
                        switch (random.nextInt(3)) {
                            case 0 -> fixture.supervisor.sliceChanged(slice(ns, sliceName, ETCD, random.nextBoolean()));
                            case 1 -> fixture.supervisor.sliceRemoved(ns, sliceName);
                            default -> fixture.watches.emit(crashLooping(ns, "kube-apiserver-0", "uid-" + i));
                        }
                    }
                    return null;
                }));
            }
            // Expiries run on the timer's thread, concurrently with the events.
            Future<?> timer = pool.submit(() -> {
                start.await();
                while (!done.get()) {
                    fixture.scheduler.advanceBy(Duration.ofSeconds(30));
                }
                return null;
            });
            start.countDown();
            for (Future<?> future : futures) {
                future.get(60, TimeUnit.SECONDS);
            }
            done.set(true);
            timer.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }

        assertThat(fixture.watches.maxOpenAtOnce(ns)).isEqualTo(1);
        for (int s = 0; s < 3; s++) {
            fixture.supervisor.sliceRemoved(ns, "etcd-" + s);
        }
        assertThat(fixture.watches.openCount()).isZero();
        assertThat(fixture.supervisor.runningWeeders()).isEmpty();
        assertThat(fixture.supervisor.knownServices()).isZero();
        fixture.scheduler.advanceBy(WATCH_DURATION);
        assertThat(fixture.scheduler.pendingTasks()).isZero();
    }
}
