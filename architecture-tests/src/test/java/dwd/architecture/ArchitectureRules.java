package dwd.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Calendar;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TimeZone;
import java.util.Timer;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * What the compiler does not check. Which ring may use which module or library is declared in each
 * module-info.java and enforced by javac (and by the poms' dependencies), so no rule here repeats it.
 */
final class ArchitectureRules {

    /**
     * The only classes of the core that read the machine's clock or wait by it: the production
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

    /**
     * javac lets two classes of one package use each other. Two that do can be read, tested and changed
     * only together: each responsibility gets one home, and the class below depends on neither the one
     * above nor its fan-out (a factory lives with what it builds, a shared piece in a class of its own,
     * what the lower class needs in a small interface it owns).
     */
    static final ArchRule NO_TWO_WAY_REFERENCES_IN_A_PACKAGE = classes()
            .should(new NoTwoWayReferences())
            .because("two classes that need each other are one responsibility split in two files, or two tangled:"
                    + " a newcomer can read neither alone; give each responsibility one home");

    /** java.base is open to the core, and with it the machine's clock, which javac cannot tell from any other call. */
    static final ArchRule CORE_TELLS_TIME_THROUGH_ITS_PORTS = coreTellsTimeThroughItsPortsExcept(CLOCK_IMPLEMENTATIONS);

    /**
     * javac lets every package of the application module use every other. The ports are the contract
     * between the use cases and the adapters that implement or drive them: a port that named a use
     * case would make every adapter behind it depend on that use case.
     */
    static final ArchRule PORTS_DO_NOT_KNOW_THE_USE_CASES = noClasses()
            .that().resideInAPackage("dwd.application.port..")
            .should().dependOnClassesThat(resideInAPackage("dwd.application..")
                    .and(not(resideInAPackage("dwd.application.port..")))
                    .as("are use cases (a package of dwd.application other than port)"))
            .because("ports speak in the domain's and their own terms, so that adapters depend on the ports"
                    + " and never on a use case");

    static ArchRule coreTellsTimeThroughItsPortsExcept(Set<String> exempt) {
        return noClasses()
                .that().resideInAnyPackage("dwd.domain..", "dwd.application..")
                .and(describe("are not the clock's implementations (nor classes nested in them)",
                        javaClass -> !exempt.contains(javaClass.getName().replaceFirst("\\$.*", ""))))
                .should().accessTargetWhere(readsTheMachinesClockOrWaitsByIt())
                .because("every wait and every reading of the time goes through the Clock and Scheduler ports,"
                        + " so that tests run minutes of probing on virtual time, without sleeps or flakes");
    }

    private static DescribedPredicate<JavaAccess<?>> readsTheMachinesClockOrWaitsByIt() {
        return describe("it reads the machine's clock (Instant.now() and every java.time now(), System.nanoTime(),"
                + " System.currentTimeMillis(), java.time.Clock.system*(), new Date(), Calendar.getInstance() and the like)"
                + " or waits by it (sleep, Object.wait(long), timed join, LockSupport.parkNanos/parkUntil, any JDK method"
                + " taking a timeout as TimeUnit or Duration: timed await, poll, get, tryAcquire, orTimeout, schedule…;"
                + " java.util.Timer, DelayQueue)",
                access -> readsTheMachinesClock(access.getTarget()) || waitsByTheMachinesClock(access.getTarget()));
    }

    private static boolean readsTheMachinesClock(AccessTarget target) {
        String owner = target.getOwner().getName();
        String name = target.getName();
        return switch (owner) {
            case "java.lang.System" -> name.equals("nanoTime") || name.equals("currentTimeMillis");
            case "java.time.Clock" -> name.startsWith("system") || Set.of("tickMillis", "tickSeconds", "tickMinutes").contains(name);
            case "java.time.InstantSource" -> name.equals("system");
            default -> owner.startsWith("java.time.") && name.equals("now") || datesTheCurrentInstant(target);
        };
    }

    /** Calendar.getInstance(…), new Date(), new GregorianCalendar(zone, locale): no time given, so the current one. */
    private static boolean datesTheCurrentInstant(AccessTarget target) {
        JavaClass owner = target.getOwner();
        if (owner.isAssignableTo(Calendar.class) && target.getName().equals("getInstance")) {
            return true;
        }
        return (owner.isEquivalentTo(Date.class) || owner.isEquivalentTo(GregorianCalendar.class))
                && isConstructor(target)
                && Set.of(TimeZone.class.getName(), Locale.class.getName()).containsAll(parameterTypes(target));
    }

    /**
     * Timed waits only: an untimed one (Object.wait(), Future.get(), join()) waits for another thread, not
     * for the clock. The core does no I/O, so I/O timeouts are not listed.
     */
    private static boolean waitsByTheMachinesClock(AccessTarget target) {
        JavaClass owner = target.getOwner();
        String name = target.getName();
        List<String> parameters = parameterTypes(target);
        if (name.equals("wait") && (parameters.equals(List.of("long")) || parameters.equals(List.of("long", "int")))) {
            return true; // Object.wait(long…) is final: every wait(long…) is it, whatever the receiver's type
        }
        if (!owner.getPackageName().startsWith("java.")) {
            return false;
        }
        return takesATimeout(owner, parameters)
                || owner.isAssignableTo(Thread.class) && (name.equals("sleep") || name.equals("join") && !parameters.isEmpty())
                || owner.isEquivalentTo(TimeUnit.class) && Set.of("sleep", "timedWait", "timedJoin").contains(name)
                || owner.isEquivalentTo(LockSupport.class) && (name.equals("parkNanos") || name.equals("parkUntil"))
                || owner.isAssignableTo(Condition.class) && (name.equals("awaitNanos") || name.equals("awaitUntil"))
                || owner.isAssignableTo(Timer.class)
                || owner.isAssignableTo(DelayQueue.class); // its take() and poll() wait for delays on System.nanoTime()
    }

    /**
     * A JDK method that takes a TimeUnit or (outside java.time's arithmetic) a Duration takes a timeout,
     * delay or keep-alive, all measured on the machine's clock; only the unit conversions do not.
     */
    private static boolean takesATimeout(JavaClass owner, List<String> parameters) {
        boolean convertsUnits = owner.isEquivalentTo(TimeUnit.class) || owner.isEquivalentTo(FileTime.class);
        return !convertsUnits && (parameters.contains(TimeUnit.class.getName())
                || !owner.getPackageName().startsWith("java.time") && parameters.contains(Duration.class.getName()));
    }

    private static boolean isConstructor(AccessTarget target) {
        return target instanceof AccessTarget.ConstructorCallTarget || target instanceof AccessTarget.ConstructorReferenceTarget;
    }

    private static List<String> parameterTypes(AccessTarget target) {
        return target instanceof AccessTarget.CodeUnitAccessTarget codeUnit
                ? codeUnit.getRawParameterTypes().stream().map(JavaClass::getName).toList()
                : List.of();
    }
}
