package dwd.application.check;

import dwd.application.port.out.Clock;
import dwd.domain.status.CheckCode;
import dwd.domain.status.CheckConditions;
import dwd.domain.status.FieldProblem;
import dwd.domain.status.Finding;
import dwd.domain.status.Kstatus;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectDocument;
import dwd.domain.status.ObjectIdentity;
import dwd.domain.status.StatusChecks;
import dwd.domain.status.StatusReading;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The conditions-and-generations checker as a library: build it from the controller's conditions,
 * then check an object after every change, from a parsed document or live through an
 * {@link ObjectReader}.
 *
 * <pre>{@code
 * var checker = StatusChecker.of(CheckConditions.negative("Stalled", "Reconciling", "FetchFailed"))
 *         .readingFrom(objectReader);
 * CheckResult result = checker.check(ObjectReference.of("GitRepository", "flux-system", "podinfo"));
 * assertThat(result.failures()).isEmpty();
 * }</pre>
 *
 * <p>Instances are immutable and can be shared.
 */
public final class StatusChecker {

    private static final System.Logger LOG = System.getLogger(StatusChecker.class.getName());

    private final Optional<CheckConditions> conditions;
    private final Optional<Clock> kstatusClock;
    private final Optional<ObjectReader> reader;

    private StatusChecker(Optional<CheckConditions> conditions, Optional<Clock> kstatusClock, Optional<ObjectReader> reader) {
        this.conditions = conditions;
        this.kstatusClock = kstatusClock;
        this.reader = reader;
    }

    /** A checker that runs every check with these conditions. */
    public static StatusChecker of(CheckConditions conditions) {
        return new StatusChecker(Optional.of(Objects.requireNonNull(conditions, "conditions")), Optional.empty(), Optional.empty());
    }

    /** A checker that runs no check and only computes kstatus. */
    public static StatusChecker kstatusOnly(Clock clock) {
        return new StatusChecker(Optional.empty(), Optional.of(Objects.requireNonNull(clock, "clock")), Optional.empty());
    }

    /** The same checker, also computing each object's kstatus at the clock's time. */
    public StatusChecker withKstatus(Clock clock) {
        return new StatusChecker(conditions, Optional.of(Objects.requireNonNull(clock, "clock")), reader);
    }

    /** The same checker, able to check live objects read through {@code objectReader}. */
    public StatusChecker readingFrom(ObjectReader objectReader) {
        return new StatusChecker(conditions, kstatusClock, Optional.of(Objects.requireNonNull(objectReader, "objectReader")));
    }

    /**
     * Checks an object document (as parsed from YAML or JSON, or as read from the API). A part the
     * checks or kstatus cannot read does not stop the check: it is a {@link CheckCode#FAIL0000} naming
     * the field, or kstatus {@code Unknown} naming it, and everything that can be judged still is.
     */
    public CheckResult check(Map<String, ?> document) {
        ObjectDocument object = ObjectDocument.of(document);
        List<Finding> findings = conditions
                .map(configured -> StatusChecks.checkAll(StatusReading.read(object), configured))
                .orElse(List.of());
        Optional<KstatusResult> kstatus = kstatusClock.map(clock -> Kstatus.compute(document, clock.now()));
        var result = new CheckResult(object.identity(), findings, kstatus);
        LOG.log(System.Logger.Level.DEBUG, () -> "checked " + result.object() + ": " + findings.size() + " finding(s)");
        return result;
    }

    /**
     * The result for an object that cannot be read at all (a document that is not a mapping, an object
     * without kind or name): a {@link CheckCode#FAIL0000} if checks were asked for, kstatus
     * {@code Unknown} if kstatus was, each saying what is wrong.
     */
    public CheckResult unreadable(ObjectIdentity object, FieldProblem problem) {
        List<Finding> findings = conditions.isPresent() ? List.of(StatusChecks.unreadable(problem)) : List.of();
        return new CheckResult(object, findings, kstatusClock.map(clock -> KstatusResult.unreadable(problem)));
    }

    /**
     * Reads the live object and checks it.
     *
     * @throws IllegalStateException when the checker was built without {@link #readingFrom}
     * @throws ObjectReadException when the object cannot be read
     */
    public CheckResult check(ObjectReference reference) {
        ObjectReader objectReader = reader.orElseThrow(() -> new IllegalStateException(
                "this checker cannot read live objects: build it with readingFrom(objectReader)"));
        return check(objectReader.read(reference));
    }
}
