package dwd.architecture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dwd.application.archfixture.ReadsTheWallClock;
import dwd.application.archfixture.ReadsTimeThroughItsPorts;
import dwd.application.archfixture.WaitsByTheMachinesClock;
import dwd.application.port.archfixture.NamesTheUseCases;
import dwd.application.port.archfixture.SpeaksInPortAndDomainTerms;
import dwd.application.port.out.Clock;
import dwd.application.runtime.SystemScheduler;
import dwd.domain.archfixture.cycle.first.First;
import dwd.domain.archfixture.downward.Ingredient;
import dwd.domain.archfixture.downward.Recipe;
import dwd.domain.archfixture.cycle.second.Second;
import dwd.domain.archfixture.oneway.callee.Callee;
import dwd.domain.archfixture.oneway.caller.Caller;
import dwd.domain.archfixture.twoway.Chicken;
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
        JavaClasses oneWay = imported(Caller.class, Callee.class);

        assertThat(oneWay.get(Caller.class).getDirectDependenciesFromSelf())
                .extracting(Dependency::getTargetClass)
                .anyMatch(target -> target.isEquivalentTo(Callee.class));
        assertThatCode(() -> ArchitectureRules.NO_PACKAGE_CYCLES.check(oneWay)).doesNotThrowAnyException();
    }

    @Test
    void twoClassesOfAPackageReferringToEachOtherAreReportedNestedClassesCountingAsTheirFile() {
        assertThatThrownBy(() -> ArchitectureRules.NO_TWO_WAY_REFERENCES_IN_A_PACKAGE
                .check(new ClassFileImporter().importPackagesOf(Chicken.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was violated (2 times)")
                .hasMessageContaining("dwd.domain.archfixture.twoway.Chicken and dwd.domain.archfixture.twoway.Egg"
                        + " refer to each other: Method <dwd.domain.archfixture.twoway.Chicken.lay()>")
                .hasMessageContaining("Method <dwd.domain.archfixture.twoway.Egg.hatch()>")
                .hasMessageContaining("dwd.domain.archfixture.twoway.Auditor and dwd.domain.archfixture.twoway.Ledger"
                        + " refer to each other: Method <dwd.domain.archfixture.twoway.Auditor.approves(")
                .hasMessageContaining("<dwd.domain.archfixture.twoway.Ledger$Line")
                .hasMessageContaining("give each responsibility one home");
    }

    @Test
    void aClassReferringToAnotherOfItsPackageOneWayAndToItsOwnNestedClassesIsNotReported() {
        JavaClasses oneWay = new ClassFileImporter().importPackagesOf(Recipe.class);

        assertThat(oneWay.get(Recipe.class).getDirectDependenciesFromSelf())
                .extracting(Dependency::getTargetClass)
                .anyMatch(target -> target.isEquivalentTo(Ingredient.class))
                .anyMatch(target -> target.isEquivalentTo(Recipe.Step.class));
        assertThat(oneWay.get(Recipe.Step.class).getDirectDependenciesFromSelf())
                .extracting(Dependency::getTargetClass)
                .anyMatch(target -> target.isEquivalentTo(Recipe.class));
        assertThat(oneWay.stream().filter(JavaClass::isAnonymousClass)).isNotEmpty();
        assertThatCode(() -> ArchitectureRules.NO_TWO_WAY_REFERENCES_IN_A_PACKAGE.check(oneWay))
                .doesNotThrowAnyException();
    }

    @Test
    void aUseCaseReadingTheMachinesClockBreaksTheClockRule() {
        assertThatThrownBy(() -> ArchitectureRules.CORE_TELLS_TIME_THROUGH_ITS_PORTS.check(imported(ReadsTheWallClock.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was violated (13 times)")
                .hasMessageContaining("ReadsTheWallClock.instant()> calls method <java.time.Instant.now()>")
                .hasMessageContainingAll(
                        "calls method <java.time.LocalDateTime.now()>",
                        "calls method <java.lang.System.nanoTime()>",
                        "calls method <java.lang.System.currentTimeMillis()>",
                        "calls method <java.lang.Thread.sleep(long)>",
                        "calls method <java.util.concurrent.TimeUnit.sleep(long)>",
                        "references method <java.time.Instant.now()>",
                        "calls method <java.time.Clock.systemUTC()>",
                        "calls method <java.time.InstantSource.system()>",
                        "calls method <java.time.Clock.tickMillis(java.time.ZoneId)>",
                        "calls constructor <java.util.Date.<init>()>",
                        "calls method <java.util.Calendar.getInstance()>",
                        "calls constructor <java.util.GregorianCalendar.<init>()>")
                .hasMessageContaining("virtual time");
    }

    @Test
    void aUseCaseWaitingByTheMachinesClockBreaksTheClockRule() {
        assertThatThrownBy(() -> ArchitectureRules.CORE_TELLS_TIME_THROUGH_ITS_PORTS.check(imported(WaitsByTheMachinesClock.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was violated (31 times)")
                .hasMessageContainingAll(
                        "objectWait(java.lang.Object)> calls method <java.lang.Object.wait(long)>",
                        "calls method <java.lang.Object.wait(long, int)>",
                        "calls method <java.lang.Thread.sleep(java.time.Duration)>",
                        "calls method <java.lang.Thread.join(long)>",
                        "calls method <java.lang.Thread.join(java.time.Duration)>",
                        "calls method <java.util.concurrent.TimeUnit.timedWait(java.lang.Object, long)>",
                        "calls method <java.util.concurrent.TimeUnit.timedJoin(java.lang.Thread, long)>",
                        "calls method <java.util.concurrent.locks.LockSupport.parkNanos(long)>",
                        "calls method <java.util.concurrent.locks.LockSupport.parkUntil(java.lang.Object, long)>",
                        "calls method <java.util.concurrent.CountDownLatch.await(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.locks.Condition.await(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.locks.Condition.awaitNanos(long)>",
                        "calls method <java.util.concurrent.locks.Condition.awaitUntil(java.util.Date)>",
                        "calls method <java.util.concurrent.BlockingQueue.poll(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.BlockingQueue.offer(java.lang.Object, long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.Future.get(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.Semaphore.tryAcquire(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.locks.Lock.tryLock(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.CompletableFuture.orTimeout(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.CompletableFuture.completeOnTimeout(java.lang.Object, long,"
                                + " java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.CompletableFuture.delayedExecutor(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.ScheduledExecutorService.schedule(java.lang.Runnable, long,"
                                + " java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.ScheduledExecutorService.scheduleAtFixedRate(java.lang.Runnable,"
                                + " long, long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.ScheduledExecutorService.scheduleWithFixedDelay(java.lang.Runnable,"
                                + " long, long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.ScheduledExecutorService.awaitTermination(long,"
                                + " java.util.concurrent.TimeUnit)>",
                        "calls method <java.util.concurrent.ScheduledFuture.getDelay(java.util.concurrent.TimeUnit)>",
                        "calls method <java.lang.Process.waitFor(long, java.util.concurrent.TimeUnit)>",
                        "calls method <java.lang.Process.waitFor(java.time.Duration)>",
                        "calls constructor <java.util.Timer.<init>()>",
                        "calls method <java.util.Timer.schedule(java.util.TimerTask, long)>",
                        "calls constructor <java.util.concurrent.DelayQueue.<init>()>")
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
                .hasMessageNotContaining("SystemScheduler.nanoTime()")
                .hasMessageContaining("SystemScheduler.schedule(java.time.Duration, java.lang.Runnable)> calls method"
                        + " <java.util.concurrent.ScheduledExecutorService.schedule(");
        assertThat(ArchitectureRules.CLOCK_IMPLEMENTATIONS)
                .containsExactlyInAnyOrder(Clock.class.getName(), SystemScheduler.class.getName());
    }

    @Test
    void aPortNamingAUseCaseBreaksThePortRule() {
        assertThatThrownBy(() -> ArchitectureRules.PORTS_DO_NOT_KNOW_THE_USE_CASES.check(imported(NamesTheUseCases.class)))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("was violated (7 times)")
                .hasMessageContainingAll(
                        "has return type <dwd.application.check.CheckResult>",
                        "has return type <dwd.application.health.HealthCheck>",
                        "has return type <dwd.application.leader.LeaderOnly>",
                        "has return type <dwd.application.prober.ProbeStatusBoard>",
                        "has return type <dwd.application.runtime.SystemScheduler>",
                        "has return type <dwd.application.shadow.ShadowMode>",
                        "has return type <dwd.application.weeder.WeederStatusBoard>")
                .hasMessageContaining("never on a use case");
    }

    @Test
    void aPortInDomainAndPortTermsKeepsThePortRule() {
        assertThatCode(() -> ArchitectureRules.PORTS_DO_NOT_KNOW_THE_USE_CASES.check(imported(SpeaksInPortAndDomainTerms.class)))
                .doesNotThrowAnyException();
    }
}
