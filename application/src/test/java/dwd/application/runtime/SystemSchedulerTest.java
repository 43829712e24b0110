package dwd.application.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SystemSchedulerTest {

    @Test
    void tasksRunOnVirtualThreadsByDefault() throws Exception {
        try (var scheduler = new SystemScheduler()) {
            var thread = new CompletableFuture<Thread>();
            scheduler.schedule(Duration.ofMillis(1), () -> thread.complete(Thread.currentThread()));
            assertThat(thread.get(10, TimeUnit.SECONDS).isVirtual()).isTrue();
        }
    }

    @Test
    void onPlatformThreadsTasksRunOnNamedPlatformThreadsSoThatBusyCarriersCannotDelayThem() throws Exception {
        try (var scheduler = SystemScheduler.onPlatformThreads("dwd-election")) {
            var thread = new CompletableFuture<Thread>();
            scheduler.schedule(Duration.ofMillis(1), () -> thread.complete(Thread.currentThread()));
            Thread ran = thread.get(10, TimeUnit.SECONDS);
            assertThat(ran.isVirtual()).isFalse();
            assertThat(ran.getName()).startsWith("dwd-election-");
            assertThat(ran.isDaemon()).as("never keeps the JVM alive").isTrue();
        }
    }
}
