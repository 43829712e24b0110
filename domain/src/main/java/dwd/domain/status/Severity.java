package dwd.domain.status;

import java.util.Locale;

/** How bad a finding is: warnings never fail a check, failures always do. */
public enum Severity {
    WARNING,
    FAILURE;

    /** The lower-case word printed in reports: {@code warning} or {@code failure}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
