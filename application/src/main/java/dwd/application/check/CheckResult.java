package dwd.application.check;

import dwd.domain.status.CheckCode;
import dwd.domain.status.Finding;
import dwd.domain.status.KstatusResult;
import dwd.domain.status.ObjectIdentity;
import dwd.domain.status.Severity;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What checking one object found: the findings in code order (warnings first), and the object's
 * kstatus when the checker was asked for it.
 */
public record CheckResult(ObjectIdentity object, List<Finding> findings, Optional<KstatusResult> kstatus) {

    public CheckResult {
        Objects.requireNonNull(object, "object");
        findings = List.copyOf(findings);
        Objects.requireNonNull(kstatus, "kstatus");
    }

    public List<Finding> warnings() {
        return findings.stream().filter(finding -> finding.severity() == Severity.WARNING).toList();
    }

    public List<Finding> failures() {
        return findings.stream().filter(finding -> finding.severity() == Severity.FAILURE).toList();
    }

    /** Any failure fails the check; warnings never do. */
    public boolean hasFailures() {
        return !failures().isEmpty();
    }

    /**
     * Whether some part of the object could not be read as the checks ({@link CheckCode#FAIL0000}) or
     * kstatus need it; the result then says which field and why.
     */
    public boolean isUnreadable() {
        return findings.stream().anyMatch(finding -> finding.code() == CheckCode.FAIL0000)
                || kstatus.flatMap(KstatusResult::unreadable).isPresent();
    }

    /** One line per finding, warnings first: {@code CODE severity kind/namespace/name: message}. */
    public List<String> lines() {
        return findings.stream().map(this::line).toList();
    }

    /** The report line of one finding about this object. */
    public String line(Finding finding) {
        return finding.code() + " " + finding.severity().word() + " " + object.describe() + ": " + finding.message();
    }

    @Override
    public String toString() {
        return findings.isEmpty() ? object.describe() + ": no findings" : String.join("\n", lines());
    }
}
