package dwd.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dwd.application.archfixture.ReadsTheWallClock;
import dwd.application.archfixture.ReadsTimeThroughItsPorts;
import dwd.application.port.out.Clock;
import dwd.application.runtime.SystemScheduler;
import dwd.domain.archfixture.cycle.first.First;
import dwd.domain.archfixture.cycle.second.Second;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Shows that each rule bites: checked against fixtures that break it on purpose, and against ones that keep it. */
class RulesCatchViolationsTest {

    private static JavaClasses imported(Class<?>... classes) {
        return new ClassFileImporter().importClasses(classes);
    }

    @Test
    void twoPackagesUsingEachOtherAreACycle() {
        assertThatThrownBy(() -> ArchitectureRules.NO_PACKAGE_CYCLES.check(imported(First.class, Second.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected")
                .hasMessageContaining("archfixture.cycle.first")
                .hasMessageContaining("archfixture.cycle.second")
                .hasMessageContaining("cycles between packages make the rings meaningless");
    }

    @Test
    void aPackageUsingAnotherOneWayIsNoCycle() {
        assertThatCode(() -> ArchitectureRules.NO_PACKAGE_CYCLES.check(imported(First.class)))
                .doesNotThrowAnyException();
    }

    @Test
    void aUseCaseReadingTheWallClockOrSleepingBreaksTheClockRule() {
        assertThatThrownBy(() -> ArchitectureRules.CORE_TELLS_TIME_THROUGH_ITS_PORTS.check(imported(ReadsTheWallClock.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was violated (7 times)")
                .hasMessageContaining("ReadsTheWallClock.instant()> calls method <java.time.Instant.now()>")
                .hasMessageContaining("calls method <java.time.LocalDateTime.now()>")
                .hasMessageContaining("calls method <java.lang.System.nanoTime()>")
                .hasMessageContaining("calls method <java.lang.System.currentTimeMillis()>")
                .hasMessageContaining("calls method <java.lang.Thread.sleep(long)>")
                .hasMessageContaining("calls method <java.util.concurrent.TimeUnit.sleep(long)>")
                .hasMessageContaining("references method <java.time.Instant.now()>")
                .hasMessageContaining("virtual time");
    }

    @Test
    void timeFromTheClockPortAndWaitsThroughTheSchedulerKeepTheClockRule() {
        assertThatCode(() -> ArchitectureRules.CORE_TELLS_TIME_THROUGH_ITS_PORTS.check(imported(ReadsTimeThroughItsPorts.class)))
                .doesNotThrowAnyException();
    }

    @Test
    void eachExceptionOfTheClockRuleReadsTheClockIndeed() {
        assertThatThrownBy(() -> ArchitectureRules.coreTellsTimeThroughItsPortsExcept(Set.of())
                .check(imported(Clock.class, Clock.system().getClass(), SystemScheduler.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Clock$1.now()> calls method <java.time.Instant.now()>")
                .hasMessageContaining("Clock$1.nanoTime()> calls method <java.lang.System.nanoTime()>")
                .hasMessageNotContaining("SystemScheduler.now()")
                .hasMessageNotContaining("SystemScheduler.nanoTime()");
        assertThat(ArchitectureRules.CLOCK_IMPLEMENTATIONS)
                .containsExactlyInAnyOrder(Clock.class.getName(), SystemScheduler.class.getName());
    }
}
