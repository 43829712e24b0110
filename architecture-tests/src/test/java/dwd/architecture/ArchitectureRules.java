package dwd.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * What the compiler does not check. Which ring may use which module or library is declared in each
 * module-info.java and enforced by javac (and by the poms' dependencies), so no rule here repeats it.
 */
final class ArchitectureRules {

    /**
     * The only classes of the core that read the machine's clock or sleep: the production
     * implementations of the {@code Clock} and {@code Scheduler} ports. Tests replace both with
     * virtual time.
     */
    static final Set<String> CLOCK_IMPLEMENTATIONS = Set.of(
            "dwd.application.port.out.Clock", // its system() factory: Instant.now(), System.nanoTime()
            "dwd.application.runtime.SystemScheduler");

    private ArchitectureRules() {
    }

    /** Within a module javac allows packages to use each other both ways; the rings then mean nothing inside it. */
    static final ArchRule NO_PACKAGE_CYCLES = slices()
            .matching("dwd.(**)")
            .should().beFreeOfCycles()
            .because("cycles between packages make the rings meaningless");

    /** java.base is open to the core, and with it the wall clock, which javac cannot tell from any other call. */
    static final ArchRule CORE_TELLS_TIME_THROUGH_ITS_PORTS = coreTellsTimeThroughItsPortsExcept(CLOCK_IMPLEMENTATIONS);

    static ArchRule coreTellsTimeThroughItsPortsExcept(Set<String> exempt) {
        return noClasses()
                .that().resideInAnyPackage("dwd.domain..", "dwd.application..")
                .and(describe("are not the clock's implementations (nor classes nested in them)",
                        javaClass -> !exempt.contains(javaClass.getName().replaceFirst("\\$.*", ""))))
                .should().accessTargetWhere(readsTheWallClockOrSleeps())
                .because("every wait and every reading of the time goes through the Clock and Scheduler ports,"
                        + " so that tests run minutes of probing on virtual time, without sleeps or flakes");
    }

    private static DescribedPredicate<JavaAccess<?>> readsTheWallClockOrSleeps() {
        return describe("it reads the wall clock or sleeps (Instant.now(), LocalDateTime.now() and the like,"
                + " System.nanoTime(), System.currentTimeMillis(), Thread.sleep(), TimeUnit.sleep())",
                access -> isWallClockOrSleep(access.getTarget()));
    }

    private static boolean isWallClockOrSleep(AccessTarget target) {
        String owner = target.getOwner().getName();
        String name = target.getName();
        return switch (owner) {
            case "java.lang.System" -> name.equals("nanoTime") || name.equals("currentTimeMillis");
            case "java.lang.Thread", "java.util.concurrent.TimeUnit" -> name.equals("sleep");
            case "java.time.Clock", "java.time.InstantSource" -> name.startsWith("system");
            default -> owner.startsWith("java.time.") && name.equals("now");
        };
    }
}
