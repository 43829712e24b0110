package dwd.domain.status;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checks WARN0001–WARN0005 and FAIL0001–FAIL0010 as pure functions of an object's status and
 * the configured conditions, and FAIL0000 for the parts of an object they cannot read. Each check
 * guards itself; none depends on another having run.
 *
 * <p>The firing rules are those of the Go library controller-check (see
 * {@code docs/check.md} for each rule and for the places where dwd decides differently).
 */
public final class StatusChecks {

    private StatusChecks() {
    }

    /** Runs every check in code order (warnings first) and returns those that fired. */
    public static List<Finding> checkAll(ObjectStatus status, CheckConditions conditions) {
        return checkAll(StatusReading.of(status), conditions);
    }

    /**
     * Runs every check whose inputs could be read, in code order (warnings first), and returns those
     * that fired; each part that could not be read is a {@link CheckCode#FAIL0000} naming the field,
     * what is wrong with it and the checks that did not run because of it.
     */
    public static List<Finding> checkAll(StatusReading reading, CheckConditions conditions) {
        var findings = new ArrayList<Finding>();
        for (CheckCode code : CheckCode.values()) {
            if (code == CheckCode.FAIL0000) {
                findings.addAll(unreadableParts(reading));
            } else if (reading.canRun(code)) {
                check(code, reading.status(), conditions).ifPresent(findings::add);
            }
        }
        return List.copyOf(findings);
    }

    /** The finding for an object no check could read at all, e.g. a document that is not a mapping. */
    public static Finding unreadable(FieldProblem problem) {
        return new Finding(CheckCode.FAIL0000, CheckCode.FAIL0000.meaning() + ": " + problem.describe() + "; no check ran",
                problem.fieldPath());
    }

    /** One FAIL0000 per distinct problem, in input order, naming the checks it kept from running. */
    private static List<Finding> unreadableParts(StatusReading reading) {
        var inputsByProblem = new LinkedHashMap<FieldProblem, Set<StatusInput>>();
        for (StatusInput input : StatusInput.values()) {
            FieldProblem problem = reading.unreadable().get(input);
            if (problem != null) {
                inputsByProblem.computeIfAbsent(problem, ignored -> EnumSet.noneOf(StatusInput.class)).add(input);
            }
        }
        var findings = new ArrayList<Finding>();
        inputsByProblem.forEach((problem, inputs) -> {
            Stream<String> notRun = Stream.of(CheckCode.values())
                    .filter(code -> code.inputs().stream().anyMatch(inputs::contains))
                    .map(CheckCode::name);
            findings.add(new Finding(CheckCode.FAIL0000, CheckCode.FAIL0000.meaning() + ": " + problem.describe()
                    + "; not run" + list(notRun).orElse(""), problem.fieldPath()));
        });
        return findings;
    }

    /** Runs one check. */
    public static Optional<Finding> check(CheckCode code, ObjectStatus status, CheckConditions conditions) {
        Optional<String> detail = switch (code) {
            case WARN0001 -> negativePresentWhileReady(status, conditions);
            case WARN0002 -> readyDoesNotMirrorHighestNegative(status, conditions);
            case WARN0003 -> falseConditionPresent(status, Condition.RECONCILING);
            case WARN0004 -> falseConditionPresent(status, Condition.STALLED);
            case WARN0005 -> missingObservedGeneration(status);
            case FAIL0000 -> Optional.empty(); // about reading, see checkAll(StatusReading, ...)
            case FAIL0001 -> negativeTrueWhileReady(status, conditions);
            case FAIL0002 -> status.has(Condition.READY) ? Optional.empty() : Optional.of("");
            case FAIL0003 -> readyNotFalseWhileTrue(status, Condition.RECONCILING);
            case FAIL0004 -> readyNotFalseWhileTrue(status, Condition.STALLED);
            case FAIL0005 -> status.has(Condition.RECONCILING) && status.has(Condition.STALLED)
                    ? Optional.of("") : Optional.empty();
            case FAIL0006 -> status.observedGeneration() > status.generation() ? Optional.of("") : Optional.empty();
            case FAIL0007 -> status.observedGeneration() < status.generation() && status.isReady()
                    ? Optional.of("") : Optional.empty();
            case FAIL0008 -> readyWithConditionsBehindGeneration(status);
            case FAIL0009 -> readyWithConditionsOffRootGeneration(status);
            case FAIL0010 -> reconcilingWithoutNewerGeneration(status);
        };
        // An empty detail means the message is just the check's meaning.
        return detail.map(text -> new Finding(code, text.isEmpty() ? code.meaning() : code.meaning() + text));
    }

    /** WARN0001: with Ready True, any listed negative condition present, whatever its status; in priority order. */
    private static Optional<String> negativePresentWhileReady(ObjectStatus status, CheckConditions conditions) {
        if (!status.isTrue(Condition.READY) || conditions.negativePolarity().isEmpty()) {
            return Optional.empty();
        }
        return list(conditions.negativePolarity().stream().filter(status::has));
    }

    /**
     * WARN0002: with Ready not True, Ready should carry the reason and message of the highest-priority
     * negative condition present (whatever that condition's status), unless that condition is
     * Reconciling or Stalled. Ready absent: no warning (the Go code crashes here); FAIL0002 reports it.
     */
    private static Optional<String> readyDoesNotMirrorHighestNegative(ObjectStatus status, CheckConditions conditions) {
        if (status.isTrue(Condition.READY) || conditions.negativePolarity().isEmpty()) {
            return Optional.empty();
        }
        Optional<Condition> highest = highestPriorityNegative(status, conditions);
        Optional<Condition> ready = status.condition(Condition.READY);
        if (highest.isEmpty() || ready.isEmpty()) {
            return Optional.empty();
        }
        Condition mirrored = highest.get();
        if (mirrored.type().equals(Condition.RECONCILING) || mirrored.type().equals(Condition.STALLED)) {
            return Optional.empty();
        }
        var differences = new ArrayList<String>();
        if (!ready.get().reason().equals(mirrored.reason())) {
            differences.add("reason " + GoQuoting.quote(ready.get().reason()) + " != " + GoQuoting.quote(mirrored.reason()));
        }
        if (!ready.get().message().equals(mirrored.message())) {
            differences.add("message " + GoQuoting.quote(ready.get().message()) + " != " + GoQuoting.quote(mirrored.message()));
        }
        if (differences.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(": Ready != " + mirrored.type() + " (" + String.join(", ", differences) + ")");
    }

    /**
     * The first status condition of the highest-priority negative type present, whatever its status.
     * Empty when none of the listed types is present.
     */
    public static Optional<Condition> highestPriorityNegative(ObjectStatus status, CheckConditions conditions) {
        return conditions.negativePolarity().stream()
                .map(status::condition)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /** WARN0003/WARN0004: the condition is present with status exactly False. */
    private static Optional<String> falseConditionPresent(ObjectStatus status, String type) {
        return status.condition(type).filter(Condition::isFalse).map(ignored -> "");
    }

    /** WARN0005: entries with an observedGeneration below 1, in status-list order. */
    private static Optional<String> missingObservedGeneration(ObjectStatus status) {
        return list(status.conditions().stream().filter(c -> c.observedGeneration() < 1).map(Condition::type));
    }

    /** FAIL0001: with Ready True, entries of a negative type whose status is True, in status-list order. */
    private static Optional<String> negativeTrueWhileReady(ObjectStatus status, CheckConditions conditions) {
        if (!status.isTrue(Condition.READY) || conditions.negativePolarity().isEmpty()) {
            return Optional.empty();
        }
        return list(status.conditions().stream()
                .filter(c -> conditions.negativePolarity().contains(c.type()) && c.isTrue())
                .map(Condition::type));
    }

    /** FAIL0003/FAIL0004: the condition is True while Ready is present and anything but False. */
    private static Optional<String> readyNotFalseWhileTrue(ObjectStatus status, String type) {
        Optional<Condition> ready = status.condition(Condition.READY);
        boolean fires = ready.isPresent() && status.isTrue(type) && !ready.get().isFalse();
        return fires ? Optional.of("") : Optional.empty();
    }

    /** FAIL0008: when ready, entries (Ready included) whose observedGeneration is below the generation. */
    private static Optional<String> readyWithConditionsBehindGeneration(ObjectStatus status) {
        if (!status.isReady()) {
            return Optional.empty();
        }
        return list(status.conditions().stream()
                .filter(c -> c.observedGeneration() < status.generation())
                .map(Condition::type));
    }

    /** FAIL0009: when ready, entries (Ready included) whose observedGeneration differs from the root's. */
    private static Optional<String> readyWithConditionsOffRootGeneration(ObjectStatus status) {
        if (!status.isReady()) {
            return Optional.empty();
        }
        return list(status.conditions().stream()
                .filter(c -> c.observedGeneration() != status.observedGeneration())
                .map(Condition::type));
    }

    /** FAIL0010: while reconciling, the root observedGeneration has already caught up with Reconciling's. */
    private static Optional<String> reconcilingWithoutNewerGeneration(ObjectStatus status) {
        if (!status.isReconciling()) {
            return Optional.empty();
        }
        long reconciling = status.condition(Condition.RECONCILING).orElseThrow().observedGeneration();
        return status.observedGeneration() >= reconciling ? Optional.of("") : Optional.empty();
    }

    /**
     * {@code ": [a b]"}: Go's rendering of a string slice (brackets, single spaces), or empty when
     * there is nothing to list.
     */
    private static Optional<String> list(Stream<String> types) {
        List<String> items = types.toList();
        return items.isEmpty() ? Optional.empty() : Optional.of(": [" + String.join(" ", items) + "]");
    }
}
